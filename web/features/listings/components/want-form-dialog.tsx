import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { type Want, type WantFormValues, wantFormSchema } from '../../../../common/schemas/listings';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { Textarea } from '../../../components/ui/textarea';
import { toast } from '../../../components/ui/use-toast';
import { serverMessageOf } from '../../../lib/api-client';
import {
  contactDetailsField,
  contactDetailsInListing,
  isContentNotAllowed,
} from '../../../lib/content-errors';
import { useCreateWant, useUpdateWant } from '../api/wants';
import { CategorySelect } from './category-select';
import { ServiceToggle } from './service-toggle';

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
  const isService = form.watch('isService') ?? false;
  const pending = create.isPending || update.isPending;

  useEffect(() => {
    if (open) form.reset(valuesOf(want));
  }, [open, want, form]);

  // Spec section 8: 'Content Not Allowed' when the server says not appropriate, otherwise its message.
  const onError = (error: unknown) => {
    const contactIn = contactDetailsField(error);
    if (contactIn !== null) {
      // A phone number or an e-mail address: said under the field that has it (Terms section 4).
      const name = contactIn === 'title' ? 'title' : 'description';
      form.setError(name, { type: 'server', message: contactDetailsInListing() }, { shouldFocus: true });
    } else if (isContentNotAllowed(error)) {
      toast({
        title: t`Content Not Allowed`,
        description: t`Please use appropriate language when describing what you want.`,
        variant: 'destructive',
      });
    } else {
      toast({
        title: t`Error`,
        description: serverMessageOf(error, t`Failed to add want. Please try again.`),
        variant: 'destructive',
      });
    }
  };

  const onSubmit = form.handleSubmit((values) => {
    const done = (title: string) => () => {
      toast({ title });
      onOpenChange(false);
    };
    if (want) update.mutate({ id: want.id, changes: values }, { onSuccess: done(t`Want Updated`), onError });
    else create.mutate(values, { onSuccess: done(t`Want Added`), onError });
  });

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={want ? t`Edit Want` : t`Add to Want List`}
        description={t`Tell neighbors what you are looking for; we match it against what they offer.`}
      >
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <FormField label={t`Title`} error={errors.title?.message}>
            <Input {...form.register('title')} />
          </FormField>
          <FormField label={t`Description (optional)`} error={errors.description?.message}>
            <Textarea {...form.register('description')} />
          </FormField>
          <Controller
            control={form.control}
            name="isService"
            render={({ field }) => (
              <ServiceToggle
                id="want-is-service"
                label={t`Looking for a service`}
                checked={field.value ?? false}
                onCheckedChange={(checked) => {
                  field.onChange(checked);
                  form.setValue('category', '');
                }}
              />
            )}
          />
          <FormField label={t`Category`} error={errors.category?.message}>
            <CategorySelect isService={isService} {...form.register('category')} />
          </FormField>
          <FormField label={t`Max Value ($, optional)`} error={errors.maxValue?.message}>
            <Input type="number" inputMode="decimal" min="0" step="0.01" {...form.register('maxValue')} />
          </FormField>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" disabled={pending}>
              {want ? (pending ? t`Saving...` : t`Save Changes`) : pending ? t`Adding...` : t`Add Want`}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
