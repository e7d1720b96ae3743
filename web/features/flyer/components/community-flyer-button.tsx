import { Trans } from '@lingui/react/macro';
import { Printer } from 'lucide-react';
import { useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { withMessages } from '#web/i18n/i18n.ts';
import { lazyDialog } from '#web/lib/lazy-dialog.tsx';

// The dialog (Radix Dialog, the flyer's body) loads when the button is first pressed, not with the
// feed (ADR 033).
const CommunityFlyerDialog = lazyDialog<{ open: boolean; onOpenChange: (open: boolean) => void }>(() =>
  withMessages(() => import('./community-flyer-dialog')).then((module) => module.CommunityFlyerDialog),
);

/**
 * The home feed's Community Flyer button (spec section 2): a dialog with the second flyer (title,
 * tagline, four benefits, four-step how-to, ten tear-off tabs with the site address), optionally
 * with what the neighbourhood offers and wants right now, to print or download as one HTML file.
 */
export function CommunityFlyerButton({ className }: { className?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" className={className} aria-haspopup="dialog" onClick={() => setOpen(true)}>
        <Printer className="h-4 w-4" aria-hidden="true" />
        <Trans>Community Flyer</Trans>
      </Button>
      <CommunityFlyerDialog open={open} onOpenChange={setOpen} />
    </>
  );
}
