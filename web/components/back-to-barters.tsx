import { Trans } from '@lingui/react/macro';
import { ArrowLeft } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '#web/components/ui/button.tsx';
import { paths } from '#web/lib/paths.ts';

/** "All Barters": the way back from a barter's or a trade circle's page to the Barters screen. */
export function BackToBarters() {
  return (
    <Button asChild variant="ghost" className="justify-self-start">
      <Link href={paths.barters}>
        <ArrowLeft className="h-4 w-4" aria-hidden="true" />
        <Trans>All Barters</Trans>
      </Link>
    </Button>
  );
}
