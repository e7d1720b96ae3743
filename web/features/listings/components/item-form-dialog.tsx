import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { type Item, type ItemFormValues, itemFormSchema } from '#common/schemas/listings.ts';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { i18n } from '#web/i18n/i18n.ts';
import { serverMessageOf } from '#web/lib/api-client.ts';
import { useCreateItem, useUpdateItem } from '../api/items';
import { showListingError } from './listing-errors';
import { ListingFormDialog } from './listing-form-dialog';
import { HELD_NOTE } from './moderation-badge';
import { PhotoField } from './photo-field';
import { usePhotoAnalysis } from './use-photo-analysis';

const EMPTY: ItemFormValues = {
  title: '',
  description: '',
  category: '',
  isService: false,
  imageUrl: null,
  estimatedValue: '',
  isActive: true,
};

function valuesOf(item: Item | undefined): ItemFormValues {
  if (!item) return EMPTY;
  return {
    title: item.title,
    description: item.description,
    category: item.category,
    isService: item.isService,
    imageUrl: item.imageUrl,
    estimatedValue: item.estimatedValue === null ? '' : String(item.estimatedValue),
    isActive: item.isActive,
  };
}

/** The spec's toast, and a word when the photo waits for a moderator (ADR 027). */
function withHeldNote(text: string, saved: Pick<Item, 'moderation'> | undefined): string {
  return saved?.moderation === 'held' ? `${text} ${i18n._(HELD_NOTE)}` : text;
}

/** The Add New Item dialog (spec section 2), also used to edit one of the member's items. */
export function ItemFormDialog({
  open,
  onOpenChange,
  item,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The item to edit; absent to add a new one. */
  item?: Item;
}) {
  const { t } = useLingui();
  const create = useCreateItem();
  const update = useUpdateItem();
  const form = useForm<ItemFormValues>({
    resolver: zodResolver(itemFormSchema),
    defaultValues: valuesOf(item),
  });
  const { errors } = form.formState;
  const category = form.watch('category');
  const pending = create.isPending || update.isPending;
  const photoAnalysis = usePhotoAnalysis(form);
  const resetAnalysis = photoAnalysis.reset;

  useEffect(() => {
    resetAnalysis();
    if (open) form.reset(valuesOf(item));
  }, [open, item, form, resetAnalysis]);

  const onError = (error: unknown) =>
    showListingError(error, form, {
      notAllowed: t`Please use appropriate language when describing your item.`,
      failed: item
        ? serverMessageOf(error, t`Failed to save item. Please try again.`)
        : t`Failed to add item. Please try again.`,
    });

  const onSubmit = form.handleSubmit((values) => {
    if (item) {
      update.mutate(
        { id: item.id, changes: values },
        {
          onSuccess: (saved) => {
            toast({ title: t`Success`, description: withHeldNote(t`Your item has been updated.`, saved) });
            onOpenChange(false);
          },
          onError,
        },
      );
    } else {
      create.mutate(values, {
        onSuccess: (saved) => {
          toast({ title: t`Success`, description: withHeldNote(t`Your item has been added.`, saved) });
          onOpenChange(false);
        },
        onError,
      });
    }
  });

  return (
    <ListingFormDialog
      form={form}
      open={open}
      onOpenChange={onOpenChange}
      title={item ? t`Edit Item` : t`Add New Item`}
      description={item ? t`Change what you offer.` : t`Offer something you have or a service you can do.`}
      onSubmit={onSubmit}
      before={
        <>
          <Controller
            control={form.control}
            name="imageUrl"
            render={({ field }) => (
              <PhotoField
                value={field.value}
                onChange={(photo) => {
                  field.onChange(photo);
                  // Spec section 4: a new photo (taken or chosen) starts the 'AI analyzing' state.
                  if (photo?.startsWith('data:')) void photoAnalysis.analyzePhoto(photo);
                }}
                disabled={pending || photoAnalysis.analyzing}
              />
            )}
          />
          {/* Always rendered, so screen readers announce the change; out of the layout while idle. */}
          <p role="status" className={photoAnalysis.analyzing ? 'text-sm text-slate-600' : 'sr-only'}>
            {photoAnalysis.analyzing ? t`Analyzing photo...` : ''}
          </p>
        </>
      }
      descriptionLabel={t`Description`}
      service={{ id: 'item-is-service', label: t`This is a service` }}
      categoryNote={
        // The photo's suggestion (issue 28), said while it stands: the member may pick another.
        photoAnalysis.suggestedCategory !== null && category === photoAnalysis.suggestedCategory ? (
          <p className="text-xs text-slate-600">
            <Trans>Suggested from your photo. You can choose another category.</Trans>
          </p>
        ) : null
      }
      submitLabel={item ? (pending ? t`Saving...` : t`Save Changes`) : pending ? t`Adding...` : t`Add Item`}
      pending={pending}
    >
      <FormField label={t`Estimated Value ($)`} error={errors.estimatedValue?.message}>
        <Input type="number" inputMode="decimal" min="0" step="0.01" {...form.register('estimatedValue')} />
      </FormField>
    </ListingFormDialog>
  );
}
