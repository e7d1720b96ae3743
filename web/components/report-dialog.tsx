import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState } from 'react';
import { REPORT_NOTE_MAX } from '#common/constants.ts';
import type { Reportable, ReportReason } from '#common/schemas/safety.ts';
import { serverMessageOf } from '../lib/api-client';
import { REPORT_REASON_MESSAGES, useReport } from '../lib/reports';
import { Button } from './ui/button';
import { Dialog, DialogContent } from './ui/dialog';
import { Label } from './ui/label';
import { Textarea } from './ui/textarea';
import { toast } from './ui/use-toast';

/**
 * The report dialog (ADR 025): a reason from the Terms and an optional note to the moderators.
 * `what` names the thing in the title ("this listing"). Loaded when its button is first pressed
 * (./report-button.tsx); it stays mounted after, so a reason chosen and not sent is still there.
 */
export function ReportDialog({
  open,
  onOpenChange,
  targetKind,
  targetId,
  what,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  targetKind: Reportable;
  targetId: string;
  what: string;
}) {
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [note, setNote] = useState('');
  const [missing, setMissing] = useState(false);
  const report = useReport();
  const { t } = useLingui();
  const noteId = useId();
  const send = () => {
    if (!reason) {
      setMissing(true);
      return;
    }
    report.mutate(
      { targetKind, targetId, reason, ...(note.trim() ? { note: note.trim() } : {}) },
      {
        onSuccess: () => {
          onOpenChange(false);
          setReason(null);
          setNote('');
          toast({ title: t`Report sent`, description: t`Thank you. A moderator will look at it soon.` });
        },
        onError: (error) =>
          toast({
            title: t`Report not sent`,
            description: serverMessageOf(error, t`Please try again.`),
            variant: 'destructive',
          }),
      },
    );
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={t`Report ${what}`}
        description={t`Moderators read every report. The member is not told who reported.`}
      >
        <form
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            send();
          }}
        >
          <fieldset className="grid gap-2" aria-invalid={missing && !reason}>
            <legend className="mb-1 text-sm font-medium text-slate-900">
              <Trans>What is wrong?</Trans>
            </legend>
            {(Object.entries(REPORT_REASON_MESSAGES) as Array<[ReportReason, MessageDescriptor]>).map(
              ([value, text]) => (
                <label key={value} className="flex items-center gap-2 text-sm text-slate-800">
                  <input
                    type="radio"
                    name="reason"
                    value={value}
                    checked={reason === value}
                    onChange={() => {
                      setReason(value);
                      setMissing(false);
                    }}
                  />
                  {t(text)}
                </label>
              ),
            )}
            {missing && !reason && (
              <p className="text-sm text-red-700" role="alert">
                <Trans>Please choose a reason.</Trans>
              </p>
            )}
          </fieldset>
          <div className="grid gap-1">
            <Label htmlFor={noteId}>
              <Trans>Anything the moderators should know? (optional)</Trans>
            </Label>
            <Textarea
              id={noteId}
              value={note}
              maxLength={REPORT_NOTE_MAX}
              onChange={(event) => setNote(event.target.value)}
            />
          </div>
          <div className="flex justify-end gap-2">
            <Button type="button" variant="secondary" onClick={() => onOpenChange(false)}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" disabled={report.isPending}>
              {report.isPending ? t`Sending...` : t`Send Report`}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
