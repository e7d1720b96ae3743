import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { ITEM_CONDITIONS, type Item, type ItemFormValues, itemFormSchema } from '#common/schemas/listings.ts';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Select } from '#web/components/ui/select.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { i18n } from '#web/i18n/i18n.ts';
import { serverMessageOf } from '#web/lib/api-client.ts';
import { conditionLabel } from '#web/lib/item-condition.ts';
import { useCreateItem, useSaveItemPhotos, useUpdateItem } from '../api/items';
import { showListingError } from './listing-errors';
import { ListingFormDialog } from './listing-form-dialog';
import { HELD_NOTE } from './moderation-badge';
import { PhotosField } from './photos-field';
import { usePhotoAnalysis } from './use-photo-analysis';
import { WantedCountLine } from './wanted-count-line';

const EMPTY: ItemFormValues = {
  title: '',
  description: '',
  category: '',
  isService: false,
  imageUrl: null,
  condition: '',
  estimatedValue: '',
  isActive: true,
};

/** The item's photos as the form holds them: the URLs the server serves, the cover first (ADR 082). */
function photosOf(item: Item | undefined): string[] {
  if (!item) return [];
  return (item.photos ?? (item.imageUrl ? [{ imageUrl: item.imageUrl }] : [])).map((photo) => photo.imageUrl);
}

function valuesOf(item: Item | undefined): ItemFormValues {
  if (!item) return EMPTY;
  return {
    title: item.title,
    description: item.description,
    category: item.category,
    isService: item.isService,
    imageUrl: item.imageUrl,
    condition: item.condition ?? '',
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
  const savePhotos = useSaveItemPhotos();
  const [photos, setPhotos] = useState<string[]>(() => photosOf(item));
  const form = useForm<ItemFormValues>({
    resolver: zodResolver(itemFormSchema),
    defaultValues: valuesOf(item),
  });
  const { errors } = form.formState;
  const category = form.watch('category');
  const draftTitle = form.watch('title');
  const isService = form.watch('isService');
  const pending = create.isPending || update.isPending || savePhotos.isPending;
  const photoAnalysis = usePhotoAnalysis(form);
  const resetAnalysis = photoAnalysis.reset;

  useEffect(() => {
    resetAnalysis();
    if (open) {
      form.reset(valuesOf(item));
      setPhotos(photosOf(item));
    }
  }, [open, item, form, resetAnalysis]);

  /** The photos changed: the cover is the form's imageUrl; a new cover is analysed (spec section 4). */
  const changePhotos = (next: string[]) => {
    const cover = next[0] ?? null;
    if (cover !== (photos[0] ?? null) && cover?.startsWith('data:')) void photoAnalysis.analyzePhoto(cover);
    setPhotos(next);
    form.setValue('imageUrl', cover, { shouldDirty: true });
  };

  const onError = (error: unknown) =>
    showListingError(error, form, {
      notAllowed: t`Please use appropriate language when describing your item.`,
      failed: item
        ? serverMessageOf(error, t`Failed to save item. Please try again.`)
        : t`Failed to add item. Please try again.`,
    });

  /** After the item's fields: its photos as the form orders them, then the spec's toast. */
  const finish = (saved: Item, wanted: string[], done: string) => {
    const toastDone = (final: Item) => {
      toast({ title: t`Success`, description: withHeldNote(done, final) });
      onOpenChange(false);
    };
    const current = photosOf(saved);
    if (wanted.length === current.length && wanted.every((photo, i) => photo === current[i])) {
      toastDone(saved);
      return;
    }
    savePhotos.mutate({ saved, photos: wanted }, { onSuccess: toastDone, onError });
  };

  const onSubmit = form.handleSubmit((values) => {
    const wanted = [...photos];
    if (item) {
      // The photos are saved on their own (ADR 082); the edit changes the other fields.
      const { imageUrl: _cover, ...changes } = values;
      update.mutate(
        { id: item.id, changes },
        { onSuccess: (saved) => finish(saved, wanted, t`Your item has been updated.`), onError },
      );
    } else {
      // A new item comes with its cover; the others follow it.
      create.mutate(
        { ...values, imageUrl: wanted[0] ?? null },
        {
          onSuccess: (saved) =>
            finish(
              saved,
              saved.imageUrl ? [saved.imageUrl, ...wanted.slice(1)] : [],
              t`Your item has been added.`,
            ),
          onError,
        },
      );
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
          <PhotosField value={photos} onChange={changePhotos} disabled={pending || photoAnalysis.analyzing} />
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
      {isService ? null : (
        <FormField label={t`Condition (optional)`} error={errors.condition?.message}>
          <Select {...form.register('condition')}>
            <option value="">{t`Not stated`}</option>
            {ITEM_CONDITIONS.map((condition) => (
              <option key={condition} value={condition}>
                {conditionLabel(condition)}
              </option>
            ))}
          </Select>
        </FormField>
      )}
      <FormField label={t`Estimated Value ($)`} error={errors.estimatedValue?.message}>
        <Input type="number" inputMode="decimal" min="0" step="0.01" {...form.register('estimatedValue')} />
      </FormField>
      {/* A new listing: how many neighbours nearby want it (issue 31, ADR 084). */}
      {item ? null : (
        <WantedCountLine
          title={draftTitle}
          category={category}
          isService={form.watch('isService') === true}
        />
      )}
    </ListingFormDialog>
  );
}
