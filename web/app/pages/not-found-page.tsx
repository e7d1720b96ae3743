import { Trans } from '@lingui/react/macro';
import { AlertCircle } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { paths } from '../../lib/paths';

/** Any unmatched path (spec section 2), with a way on (issue 17). */
export default function NotFoundPage() {
  return (
    <main className="flex min-h-screen w-full items-center justify-center bg-slate-50 p-4">
      <Card className="w-full max-w-md p-6">
        <div className="flex items-center gap-2">
          <AlertCircle className="h-8 w-8 text-red-600" aria-hidden="true" />
          <h1 className="text-2xl font-bold text-slate-900">
            <Trans>404 Page Not Found</Trans>
          </h1>
        </div>
        <p className="mt-4 text-sm text-slate-600">
          <Trans>Did you forget to add the page to the router?</Trans>
        </p>
        <Button asChild className="mt-6">
          <Link href={paths.home}>
            <Trans>Go to the home page</Trans>
          </Link>
        </Button>
      </Card>
    </main>
  );
}
