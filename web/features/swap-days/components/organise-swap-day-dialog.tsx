import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { useLocation } from 'wouter';
import {
  type SwapDayFormValues,
  swapDayFormSchema,
  swapDayInputFromForm,
} from '#common/schemas/swap-days.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent, DialogTrigger } from '#web/components/ui/dialog.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { toastWriteError } from '#web/lib/content-errors.ts';
import { paths } from '#web/lib/paths.ts';
import { useCreateSwapDay } from '../api/swap-days';
import { toLocalInputValue } from '../swap-day-format';

/** A week from now at 10 AM, want lists closing the evening before: a sensible start to edit. */
function suggestedValues(): SwapDayFormValues {
  const start = new Date();
  start.setDate(start.getDate() + 7);
  start.setHours(10, 0, 0, 0);
  const deadline = new Date(start);
  deadline.setDate(deadline.getDate() - 1);
  deadline.setHours(20, 0, 0, 0);
  return { name: '', place: '', startsAt: toLocalInputValue(start), deadline: toLocalInputValue(deadline) };
}

/**
 * Organize a swap day: name, place, when it starts and when want lists close (both in the browser's
 * time zone). The same rules as the server's (common/schemas/swap-days.ts); on success the new
 * swap day's page opens.
 */
export function OrganiseSwapDayDialog({
  open,
  onOpenChange,
  trigger,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  trigger: ReactNode;
}) {
  const { t } = useLingui();
  const create = useCreateSwapDay();
  const [, navigate] = useLocation();
  const form = useForm<SwapDayFormValues>({
    resolver: zodResolver(swapDayFormSchema),
    defaultValues: suggestedValues(),
  });
  const { errors } = form.formState;
  const now = toLocalInputValue(new Date());

  // Awaited: the dialog closes and the page changes once the swap day exists.
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const swapDay = await create.mutateAsync(swapDayInputFromForm(values));
      toast({ title: t`Swap Day Organized`, description: t`Invite your neighbors to join and offer items.` });
      onOpenChange(false);
      navigate(paths.swapDay(swapDay.id));
    } catch (error) {
      toastWriteError(error, 'swap day', t`The swap day could not be organized. Please try again.`);
    }
  });

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (next) form.reset(suggestedValues());
        onOpenChange(next);
      }}
    >
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent
        title={t`Organize a Swap Day`}
        description={t`Neighbors within their travel distance can join, offer items and rank what they would accept. When want lists close, everyone is matched at once.`}
      >
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <FormField label={t`Name`} error={errors.name?.message}>
            <Input placeholder={t`Maple Street swap day`} {...form.register('name')} />
          </FormField>
          <FormField label={t`Place`} error={errors.place?.message}>
            <Input placeholder={t`Community hall, 12 Maple Street`} {...form.register('place')} />
          </FormField>
          <FormField label={t`Starts`} error={errors.startsAt?.message}>
            <Input type="datetime-local" min={now} {...form.register('startsAt')} />
          </FormField>
          <FormField label={t`Want lists close`} error={errors.deadline?.message}>
            <Input type="datetime-local" min={now} {...form.register('deadline')} />
          </FormField>
          <p className="text-sm text-slate-600">
            <Trans>
              Want lists close before the swap day starts. Then everyone sees what they give and get, and you
              can print the pick-up sheet.
            </Trans>
          </p>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? t`Organizing...` : t`Organize Swap Day`}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
