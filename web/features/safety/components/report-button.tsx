import { Flag } from 'lucide-react';
import { useId, useState } from 'react';
import {
  REPORT_NOTE_MAX,
  REPORT_REASON_LABELS,
  type Reportable,
  type ReportReason,
} from '../../../../common/schemas/safety';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';
import { toast } from '../../../components/ui/use-toast';
import { serverMessageOf } from '../../../lib/api-client';
import { useReport } from '../api/safety-api';

/**
 * "Report" and its dialog (ADR 025): a reason from the Terms and an optional note to the moderators.
 * `what` names the thing in the dialog's title ("this listing").
 */
export function ReportButton({
  targetKind,
  targetId,
  what,
  label = 'Report',
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
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [note, setNote] = useState('');
  const [missing, setMissing] = useState(false);
  const report = useReport();
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
          setOpen(false);
          setReason(null);
          setNote('');
          toast({ title: 'Report sent', description: 'Thank you. A moderator will look at it soon.' });
        },
        onError: (error) =>
          toast({
            title: 'Report not sent',
            description: serverMessageOf(error, 'Please try again.'),
            variant: 'destructive',
          }),
      },
    );
  };
  return (
    <>
      <Button variant="ghost" size="sm" aria-label={accessibleName} onClick={() => setOpen(true)}>
        <Flag className="h-4 w-4" aria-hidden="true" />
        {label}
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent
          title={`Report ${what}`}
          description="Moderators read every report. The member is not told who reported."
        >
          <form
            className="grid gap-4"
            onSubmit={(event) => {
              event.preventDefault();
              send();
            }}
          >
            <fieldset className="grid gap-2" aria-invalid={missing && !reason}>
              <legend className="mb-1 text-sm font-medium text-slate-900">What is wrong?</legend>
              {(Object.entries(REPORT_REASON_LABELS) as Array<[ReportReason, string]>).map(
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
                    {text}
                  </label>
                ),
              )}
              {missing && !reason && (
                <p className="text-sm text-red-700" role="alert">
                  Please choose a reason.
                </p>
              )}
            </fieldset>
            <div className="grid gap-1">
              <Label htmlFor={noteId}>Anything the moderators should know? (optional)</Label>
              <Textarea
                id={noteId}
                value={note}
                maxLength={REPORT_NOTE_MAX}
                onChange={(event) => setNote(event.target.value)}
              />
            </div>
            <div className="flex justify-end gap-2">
              <Button type="button" variant="secondary" onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={report.isPending}>
                {report.isPending ? 'Sending...' : 'Send Report'}
              </Button>
            </div>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}
