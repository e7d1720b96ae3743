import { Trans } from '@lingui/react/macro';
import { ArrowLeft } from 'lucide-react';
import { Link } from 'wouter';
import { paths } from '../../lib/paths';
import { Button } from '../ui/button';

/** The back-to-home button of the Terms and Flyer pages (spec section 2). */
export function BackToHome() {
  return (
    <Button asChild variant="ghost" className="mb-4">
      <Link href={paths.home}>
        <ArrowLeft className="h-4 w-4" aria-hidden="true" />
        <Trans>Back to Home</Trans>
      </Link>
    </Button>
  );
}
