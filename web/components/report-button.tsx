import { useLingui } from '@lingui/react/macro';
import { Flag } from 'lucide-react';
import { useState } from 'react';
import type { Reportable } from '#common/schemas/safety.ts';
import { withMessages } from '../i18n/i18n';
import { lazyDialog } from '../lib/lazy-dialog';
import { Button } from './ui/button';

// The dialog (Radix Dialog, the form) loads when the button is first pressed (ADR 033): a screen may
// offer many reports (a conversation, one a message) and the member rarely sends one.
const ReportDialog = lazyDialog<Parameters<typeof import('./report-dialog').ReportDialog>[0]>(() =>
  withMessages(() => import('./report-dialog')).then((module) => module.ReportDialog),
);

/**
 * "Report" and its dialog (ADR 025): a reason from the Terms and an optional note to the moderators.
 * `what` names the thing in the dialog's title ("this listing").
 */
export function ReportButton({
  targetKind,
  targetId,
  what,
  label,
  accessibleName,
}: {
  targetKind: Reportable;
  targetId: string;
  what: string;
  label?: string;
  /** The button's name when several share a screen ("Report the message of 3:05 PM"). */
  accessibleName?: string;
}) {
  const [open, setOpen] = useState(false);
  const { t } = useLingui();
  return (
    <>
      <Button
        variant="ghost"
        size="sm"
        aria-label={accessibleName}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        <Flag className="h-4 w-4" aria-hidden="true" />
        {label ?? t`Report`}
      </Button>
      <ReportDialog
        open={open}
        onOpenChange={setOpen}
        targetKind={targetKind}
        targetId={targetId}
        what={what}
      />
    </>
  );
}
