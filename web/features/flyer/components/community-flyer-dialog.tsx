import { Trans, useLingui } from '@lingui/react/macro';
import { lazy, Suspense } from 'react';
import { Dialog, DialogContent } from '#web/components/ui/dialog.tsx';
import { withMessages } from '#web/i18n/i18n.ts';

// The flyer's body (its HTML, the QR code maker) loads inside the dialog (ADR 033).
const CommunityFlyer = lazy(() =>
  withMessages(() => import('./community-flyer')).then((module) => ({ default: module.CommunityFlyer })),
);

/** The Community Flyer dialog: the second flyer (spec section 2) to print or download. */
export function CommunityFlyerDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useLingui();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={t`Community Flyer`}
        description={t`Print it or download it, then post it where your neighbors will see it.`}
        className="max-w-3xl"
      >
        <Suspense
          fallback={
            <p role="status" className="text-slate-600">
              <Trans>Preparing the flyer…</Trans>
            </p>
          }
        >
          <CommunityFlyer />
        </Suspense>
      </DialogContent>
    </Dialog>
  );
}
