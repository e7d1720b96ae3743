import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { type Item, type ItemFormValues, itemFormSchema } from '../../../../common/schemas/listings';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { Textarea } from '../../../components/ui/textarea';
import { toast } from '../../../components/ui/use-toast';
import { i18n } from '../../../i18n/i18n';
import { serverMessageOf } from '../../../lib/api-client';
import {
  contactDetailsField,
  contactDetailsInListing,
  isContentNotAllowed,
} from '../../../lib/content-errors';
import { useCreateItem, useUpdateItem } from '../api/items';
import { CategorySelect } from './category-select';
import { HELD_NOTE } from './moderation-badge';
import { PhotoField } from './photo-field';
import { ServiceToggle } from './service-toggle';
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
  const isService = form.watch('isService') ?? false;
  const category = form.watch('category');
  const pending = create.isPending || update.isPending;
  const photoAnalysis = usePhotoAnalysis(form);
  const resetAnalysis = photoAnalysis.reset;

  useEffect(() => {
    resetAnalysis();
    if (open) form.reset(valuesOf(item));
  }, [open, item, form, resetAnalysis]);

  const onError = (error: unknown) => {
    const contactIn = contactDetailsField(error);
    if (contactIn !== null) {
      // A phone number or an e-mail address: said under the field that has it (Terms section 4).
      const name = contactIn === 'title' ? 'title' : 'description';
      form.setError(name, { type: 'server', message: contactDetailsInListing() }, { shouldFocus: true });
    } else if (isContentNotAllowed(error)) {
      toast({
        title: t`Content Not Allowed`,
        description: t`Please use appropriate language when describing your item.`,
        variant: 'destructive',
      });
    } else {
      toast({
        title: t`Error`,
        description: item
          ? serverMessageOf(error, t`Failed to save item. Please try again.`)
          : t`Failed to add item. Please try again.`,
        variant: 'destructive',
      });
    }
  };

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
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={item ? t`Edit Item` : t`Add New Item`}
        description={item ? t`Change what you offer.` : t`Offer something you have or a service you can do.`}
      >
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
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
          <FormField label={t`Title`} error={errors.title?.message}>
            <Input {...form.register('title')} />
          </FormField>
          <FormField label={t`Description`} error={errors.description?.message}>
            <Textarea {...form.register('description')} />
          </FormField>
          <Controller
            control={form.control}
            name="isService"
            render={({ field }) => (
              <ServiceToggle
                id="item-is-service"
                label={t`This is a service`}
                checked={field.value ?? false}
                onCheckedChange={(checked) => {
                  field.onChange(checked);
                  form.setValue('category', '');
                }}
              />
            )}
          />
          <div className="grid gap-1">
            <FormField label={t`Category`} error={errors.category?.message}>
              <CategorySelect isService={isService} {...form.register('category')} />
            </FormField>
            {/* The photo's suggestion (issue 28), said while it stands: the member may pick another. */}
            {photoAnalysis.suggestedCategory !== null && category === photoAnalysis.suggestedCategory ? (
              <p className="text-xs text-slate-600">
                <Trans>Suggested from your photo. You can choose another category.</Trans>
              </p>
            ) : null}
          </div>
          <FormField label={t`Estimated Value ($)`} error={errors.estimatedValue?.message}>
            <Input
              type="number"
              inputMode="decimal"
              min="0"
              step="0.01"
              {...form.register('estimatedValue')}
            />
          </FormField>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" disabled={pending}>
              {item ? (pending ? t`Saving...` : t`Save Changes`) : pending ? t`Adding...` : t`Add Item`}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
