import { Trans, useLingui } from '@lingui/react/macro';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { Item, ItemTrade } from '#common/schemas/listings.ts';
import { useOpenAddItem } from '#web/components/feature-slots.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx';
import { ListStatus } from '#web/components/ui/list-status.tsx';
import { ListingImage } from '#web/components/ui/listing-image.tsx';
import { LoadMoreButton } from '#web/components/ui/load-more-button.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { translateKnown } from '#web/i18n/known-messages.ts';
import { serverMessageOf } from '#web/lib/api-client.ts';
import { useMyItems } from '#web/lib/my-items.ts';
import { flattenOwnList } from '#web/lib/own-list.ts';
import { useDeleteItem, useUpdateItem } from '../api/items';
import { ItemFormDialog } from './item-form-dialog';
import { ModerationBadge } from './moderation-badge';
import { StaleListingQuestion } from './stale-listing-question';

/**
 * Where a traded item went (issue 30): "Traded to Ann R.", or "Given at <swap day>" for a swap day's
 * hand-over. A traded item offers no Show and no Edit (its `allowedActions` say so), only Delete.
 */
function TradedBadge({ trade }: { trade: ItemTrade }) {
  const name = translateKnown(trade.to.displayName);
  const swapDay = trade.swapDay?.name;
  return (
    <Badge tone="success">
      {swapDay !== undefined ? <Trans>Given at {swapDay}</Trans> : <Trans>Traded to {name}</Trans>}
    </Badge>
  );
}

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
                  {item.traded ? (
                    <TradedBadge trade={item.traded} />
                  ) : item.isActive || item.moderation || item.stale?.pausedAt ? null : (
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
                <StaleListingQuestion item={item} />
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
                  {/* A listing out of the feeds as stale has Renew instead of Show (ADR 088). */}
                  {(item.allowedActions.includes('hide') || item.allowedActions.includes('show')) &&
                  !(item.stale?.pausedAt && !item.isActive) ? (
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
