import { Trans, useLingui } from '@lingui/react/macro';
import type { FormEventHandler, ReactNode } from 'react';
import {
  Controller,
  type FieldValues,
  FormProvider,
  type UseFormReturn,
  useFormContext,
} from 'react-hook-form';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent } from '#web/components/ui/dialog.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { CategorySelect } from './category-select';
import { ServiceToggle } from './service-toggle';

/** What an item and a want both have: the fields this base draws. */
interface ListingFields {
  title: string;
  description?: string;
  category: string;
  isService?: boolean;
}

/**
 * The dialog both listing forms are built on (the Add New Item and Add to Want List dialogs, spec
 * section 2): title, description, service or goods, category, the form's own fields, Cancel and
 * the submit button.
 */
export function ListingFormDialog<V extends FieldValues>({
  form,
  open,
  onOpenChange,
  title,
  description,
  onSubmit,
  before,
  descriptionLabel,
  service,
  categoryNote,
  children,
  submitLabel,
  pending,
}: {
  form: UseFormReturn<V>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** Fields above the title (the item's photo). */
  before?: ReactNode;
  descriptionLabel: string;
  service: { id: string; label: string };
  /** A line under the category; when given (even null), the category and it share one block. */
  categoryNote?: ReactNode;
  /** The fields after the category. */
  children: ReactNode;
  submitLabel: string;
  pending: boolean;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={title} description={description}>
        <FormProvider {...form}>
          <form onSubmit={onSubmit} noValidate className="grid gap-4">
            {before}
            <ListingFieldsOf
              descriptionLabel={descriptionLabel}
              service={service}
              categoryNote={categoryNote}
            />
            {children}
            <div className="flex justify-end gap-2">
              <Button variant="secondary" onClick={() => onOpenChange(false)}>
                <Trans>Cancel</Trans>
              </Button>
              <Button type="submit" disabled={pending}>
                {submitLabel}
              </Button>
            </div>
          </form>
        </FormProvider>
      </DialogContent>
    </Dialog>
  );
}

function ListingFieldsOf({
  descriptionLabel,
  service,
  categoryNote,
}: {
  descriptionLabel: string;
  service: { id: string; label: string };
  categoryNote?: ReactNode;
}) {
  const { t } = useLingui();
  const form = useFormContext<ListingFields>();
  const { errors } = form.formState;
  const isService = form.watch('isService') ?? false;
  const category = (
    <FormField label={t`Category`} error={errors.category?.message}>
      <CategorySelect isService={isService} {...form.register('category')} />
    </FormField>
  );
  return (
    <>
      <FormField label={t`Title`} error={errors.title?.message}>
        <Input {...form.register('title')} />
      </FormField>
      <FormField label={descriptionLabel} error={errors.description?.message}>
        <Textarea {...form.register('description')} />
      </FormField>
      <Controller
        control={form.control}
        name="isService"
        render={({ field }) => (
          <ServiceToggle
            id={service.id}
            label={service.label}
            checked={field.value ?? false}
            onCheckedChange={(checked) => {
              field.onChange(checked);
              form.setValue('category', '');
            }}
          />
        )}
      />
      {categoryNote === undefined ? (
        category
      ) : (
        <div className="grid gap-1">
          {category}
          {categoryNote}
        </div>
      )}
    </>
  );
}
