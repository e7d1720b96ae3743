import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { type Barter, cancelBarterSchema } from '#common/schemas/barters.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent, DialogTrigger } from '#web/components/ui/dialog.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { BARTER_ACTION_MESSAGES } from '#web/lib/barter-labels.ts';
import { toastWriteError } from '#web/lib/content-errors.ts';
import { useCancelBarter } from '../api/barters';

type CancelValues = z.input<typeof cancelBarterSchema>;

/** Cancel an accepted barter: asks why (the other member sees the reason). */
export function CancelBarterDialog({
  barter,
  open,
  onOpenChange,
  trigger,
}: {
  barter: Barter;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The button that opens it; it gets the focus back when the dialog closes. */
  trigger: ReactNode;
}) {
  const { t } = useLingui();
  const cancel = useCancelBarter(barter.id);
  const name = barter.otherMember.displayName;
  const form = useForm<CancelValues>({
    resolver: zodResolver(cancelBarterSchema),
    defaultValues: { reason: '' },
  });
  // Awaited: mutate's own callbacks are dropped when the dialog unmounts, and the cancelled barter
  // no longer offers the button this dialog hangs on.
  const onSubmit = form.handleSubmit(async ({ reason }) => {
    try {
      await cancel.mutateAsync(reason);
    } catch (error) {
      toastWriteError(error, t`reason`, t`Failed to cancel the barter. Please try again.`);
      return;
    }
    toast({ title: t`Barter Canceled` });
    onOpenChange(false);
  });
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) form.reset();
        onOpenChange(next);
      }}
    >
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent
        title={t`Cancel this barter?`}
        description={
          barter.circleId !== null
            ? t`This cancels the whole trade circle: every hand-over in it ends, the items are released and the other members see your reason.`
            : t`The items are released and ${name} sees your reason.`
        }
      >
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <FormField label={t`Reason`} error={form.formState.errors.reason?.message}>
            <Textarea {...form.register('reason')} />
          </FormField>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              <Trans>Keep Barter</Trans>
            </Button>
            <Button type="submit" variant="destructive" disabled={cancel.isPending}>
              {cancel.isPending ? t`Canceling...` : t(BARTER_ACTION_MESSAGES.cancel)}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
