import { Trans, useLingui } from '@lingui/react/macro';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { Item } from '../../../../common/schemas/listings';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { ListStatus } from '../../../components/ui/list-status';
import { ListingImage } from '../../../components/ui/listing-image';
import { LoadMoreButton } from '../../../components/ui/load-more-button';
import { toast } from '../../../components/ui/use-toast';
import { translateKnown } from '../../../i18n/known-messages';
import { serverMessageOf } from '../../../lib/api-client';
import { flattenOwnList } from '../../../lib/own-list';
import { useDeleteItem, useMyItems, useUpdateItem } from '../api/items';
import { useOpenAddItem } from './add-item-context';
import { ItemFormDialog } from './item-form-dialog';
import { ModerationBadge } from './moderation-badge';

/**
 * The My Items tab (spec section 2): count, and each item with image, title, description and badges.
 * Items come a page at a time (Load More); the count is the server's total, not what is loaded. Each
 * item offers the buttons its `allowedActions` name (none while an accepted barter holds it), and a
 * refusal shows the server's reason.
 */
export function MyItemsTab() {
  const { t } = useLingui();
  const query = useMyItems();
  const { isLoading, isError } = query;
  const { rows: items, total } = flattenOwnList(query.data?.pages);
  const openAddItem = useOpenAddItem();
  const [editing, setEditing] = useState<Item | undefined>();
  const [deleting, setDeleting] = useState<Item | undefined>();
  const remove = useDeleteItem();
  const update = useUpdateItem();
  const deletingTitle = deleting?.title ?? '';

  const toggleActive = (item: Item) =>
    update.mutate(
      { id: item.id, changes: { isActive: !item.isActive } },
      {
        onError: (error) =>
          toast({
            title: t`Error`,
            description: serverMessageOf(error, t`Failed to update item. Please try again.`),
            variant: 'destructive',
          }),
      },
    );

  return (
    <section aria-labelledby="my-items-heading" className="grid gap-4">
      <div className="flex items-center justify-between gap-3">
        <h2 id="my-items-heading" className="text-lg font-semibold">
          <Trans>My Items ({total})</Trans>
        </h2>
        <Button size="sm" onClick={openAddItem}>
          <Plus className="h-4 w-4" aria-hidden="true" />
          <Trans>Add Item</Trans>
        </Button>
      </div>
      <ListStatus
        isLoading={isLoading}
        isError={isError}
        read={query}
        count={items.length}
        errorText={t`Your items could not be loaded. Please try again.`}
        emptyText={t`You have not listed anything yet. Add an item or a service you can offer.`}
      />
      <ul className="grid gap-3 sm:grid-cols-2">
        {items.map((item) => {
          const title = item.title;
          return (
            <li
              key={item.id}
              className="flex gap-3 rounded-xl border border-slate-200 bg-white p-3 shadow-sm"
            >
              <ListingImage
                src={item.thumbnailUrl ?? item.imageUrl}
                className="h-24 w-24 shrink-0 rounded-lg"
              />
              <div className="grid min-w-0 flex-1 content-start gap-1">
                <h3 className="truncate font-semibold">{item.title}</h3>
                <p className="line-clamp-2 text-sm text-slate-600">{item.description}</p>
                <div className="flex flex-wrap gap-1">
                  <Badge tone="brand">{translateKnown(item.category)}</Badge>
                  {item.isService ? (
                    <Badge tone="accent">
                      <Trans>Service</Trans>
                    </Badge>
                  ) : null}
                  {item.isActive || item.moderation ? null : (
                    <Badge>
                      <Trans>Hidden</Trans>
                    </Badge>
                  )}
                  <ModerationBadge moderation={item.moderation} />
                  {item.isReserved ? (
                    <Badge tone="success">
                      <Trans>Reserved in a barter</Trans>
                    </Badge>
                  ) : null}
                </div>
                {item.isReserved ? (
                  <p className="text-xs text-slate-600">
                    <Trans>
                      Your neighbor agreed to this item as it is: it can't be changed, hidden or deleted until
                      the barter is cancelled or completed.
                    </Trans>
                  </p>
                ) : null}
                <div className="mt-1 flex flex-wrap gap-1">
                  {item.allowedActions.includes('edit') ? (
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => setEditing(item)}
                      aria-label={t`Edit ${title}`}
                    >
                      <Pencil className="h-4 w-4" aria-hidden="true" />
                      <Trans>Edit</Trans>
                    </Button>
                  ) : null}
                  {item.allowedActions.includes('hide') || item.allowedActions.includes('show') ? (
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => toggleActive(item)}
                      aria-label={item.isActive ? t`Hide ${title}` : t`Show ${title}`}
                    >
                      {item.isActive ? t`Hide` : t`Show`}
                    </Button>
                  ) : null}
                  {item.allowedActions.includes('delete') ? (
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => setDeleting(item)}
                      aria-label={t`Delete ${title}`}
                    >
                      <Trash2 className="h-4 w-4" aria-hidden="true" />
                      <Trans>Delete</Trans>
                    </Button>
                  ) : null}
                </div>
              </div>
            </li>
          );
        })}
      </ul>
      <LoadMoreButton query={query} label={t`Load More Items`} />
      <ItemFormDialog
        open={editing !== undefined}
        onOpenChange={(open) => !open && setEditing(undefined)}
        item={editing}
      />
      <ConfirmDialog
        open={deleting !== undefined}
        onOpenChange={(open) => !open && setDeleting(undefined)}
        title={t`Delete this item?`}
        description={t`"${deletingTitle}" and its photo will be removed for good.`}
        confirmLabel={t`Delete Item`}
        pending={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              toast({ title: t`Item Deleted` });
              setDeleting(undefined);
            },
            onError: (error) =>
              toast({
                title: t`Error`,
                description: serverMessageOf(error, t`Failed to delete item. Please try again.`),
                variant: 'destructive',
              }),
          })
        }
      />
    </section>
  );
}
