import { zodResolver } from '@hookform/resolvers/zod';
import { useLingui } from '@lingui/react/macro';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { type Want, type WantFormValues, wantFormSchema } from '#common/schemas/listings.ts';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { serverMessageOf } from '#web/lib/api-client.ts';
import { useCreateWant, useUpdateWant } from '../api/wants';
import { showListingError } from './listing-errors';
import { ListingFormDialog } from './listing-form-dialog';

const EMPTY: WantFormValues = { title: '', description: '', category: '', isService: false, maxValue: '' };

function valuesOf(want: Want | undefined): WantFormValues {
  if (!want) return EMPTY;
  return {
    title: want.title,
    description: want.description ?? '',
    category: want.category,
    isService: want.isService,
    maxValue: want.maxValue === null ? '' : String(want.maxValue),
  };
}

/** The Add to Want List dialog (spec section 2), also used to edit a want. */
export function WantFormDialog({
  open,
  onOpenChange,
  want,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  want?: Want;
}) {
  const { t } = useLingui();
  const create = useCreateWant();
  const update = useUpdateWant();
  const form = useForm<WantFormValues>({
    resolver: zodResolver(wantFormSchema),
    defaultValues: valuesOf(want),
  });
  const { errors } = form.formState;
  const pending = create.isPending || update.isPending;

  useEffect(() => {
    if (open) form.reset(valuesOf(want));
  }, [open, want, form]);

  // Spec section 8: 'Content Not Allowed' when the server says not appropriate, otherwise its message.
  const onError = (error: unknown) =>
    showListingError(error, form, {
      notAllowed: t`Please use appropriate language when describing what you want.`,
      failed: serverMessageOf(error, t`Failed to add want. Please try again.`),
    });

  const onSubmit = form.handleSubmit((values) => {
    const done = (title: string) => () => {
      toast({ title });
      onOpenChange(false);
    };
    if (want) update.mutate({ id: want.id, changes: values }, { onSuccess: done(t`Want Updated`), onError });
    else create.mutate(values, { onSuccess: done(t`Want Added`), onError });
  });

  return (
    <ListingFormDialog
      form={form}
      open={open}
      onOpenChange={onOpenChange}
      title={want ? t`Edit Want` : t`Add to Want List`}
      description={t`Tell neighbors what you are looking for; we match it against what they offer.`}
      onSubmit={onSubmit}
      descriptionLabel={t`Description (optional)`}
      service={{ id: 'want-is-service', label: t`Looking for a service` }}
      submitLabel={want ? (pending ? t`Saving...` : t`Save Changes`) : pending ? t`Adding...` : t`Add Want`}
      pending={pending}
    >
      <FormField label={t`Max Value ($, optional)`} error={errors.maxValue?.message}>
        <Input type="number" inputMode="decimal" min="0" step="0.01" {...form.register('maxValue')} />
      </FormField>
    </ListingFormDialog>
  );
}
