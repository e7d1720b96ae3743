import { Trans, useLingui } from '@lingui/react/macro';
import { Badge } from '#web/components/ui/badge.tsx';
import { ListStatus } from '#web/components/ui/list-status.tsx';
import { ListingImage } from '#web/components/ui/listing-image.tsx';
import { LoadMoreButton } from '#web/components/ui/load-more-button.tsx';
import { formatDistance } from '#web/i18n/format.ts';
import { translateKnown } from '#web/i18n/known-messages.ts';
import { handOverRecordText } from '#web/lib/hand-over-record.ts';
import { flattenOwnList } from '#web/lib/own-list.ts';
import { ownerName } from '#web/lib/owner-name.ts';
import { traderRating } from '#web/lib/trader-rating.ts';
import { useSavedItems } from '../api/saved-items';
import { SaveToggle } from './save-toggle';

/**
 * The Saved tab: count and the saved items (docs/product.md: the list is rendered), with unsave.
 * Items come a page at a time (Load More); the count is the server's total.
 */
export function SavedTab() {
  const { t } = useLingui();
  const query = useSavedItems();
  const { isLoading, isError } = query;
  const { rows: items, total } = flattenOwnList(query.data?.pages);
  return (
    <section aria-labelledby="saved-heading" className="grid gap-4">
      <h2 id="saved-heading" className="text-lg font-semibold">
        <Trans>Saved Items ({total})</Trans>
      </h2>
      <ListStatus
        isLoading={isLoading}
        isError={isError}
        read={query}
        count={items.length}
        errorText={t`Your saved items could not be loaded. Please try again.`}
        emptyText={t`You have not saved any items yet. Tap the heart on an item in your feed to keep it here.`}
      />
      <ul className="grid gap-3 sm:grid-cols-2">
        {items.map((item) => (
          <li key={item.id} className="flex gap-3 rounded-xl border border-slate-200 bg-white p-3 shadow-sm">
            <ListingImage
              src={item.thumbnailUrl ?? item.imageUrl}
              className="h-20 w-20 shrink-0 rounded-lg"
            />
            <div className="grid min-w-0 flex-1 content-start gap-1">
              <div className="flex items-start justify-between gap-2">
                <h3 className="font-semibold">{item.title}</h3>
                <SaveToggle itemId={item.id} title={item.title} initiallySaved={true} />
              </div>
              <p className="text-xs text-slate-600">
                {ownerName(item.user)} ·{' '}
                {traderRating({ totalTrades: item.owner.completedTrades, rating: item.owner.rating })}
                {handOverRecordText(item.owner.handOvers)
                  ? ` · ${handOverRecordText(item.owner.handOvers)}`
                  : ''}
                {formatDistance(item.distanceMiles) ? ` · ${formatDistance(item.distanceMiles)}` : ''}
              </p>
              <div className="flex flex-wrap gap-1">
                <Badge tone="brand">{translateKnown(item.category)}</Badge>
                {item.isService ? (
                  <Badge tone="accent">
                    <Trans>Service</Trans>
                  </Badge>
                ) : null}
              </div>
            </div>
          </li>
        ))}
      </ul>
      <LoadMoreButton query={query} label={t`Load More Items`} />
    </section>
  );
}
