import { useLingui } from '@lingui/react/macro';
import { lazy, Suspense, useState } from 'react';
import { DEFAULT_DISTANCE_MILES } from '#common/constants.ts';
import type { FeedItem, FeedSort } from '#common/schemas/feed.ts';
import { useOpenAddItem } from '#web/components/feature-slots.tsx';
import { LoadFailed } from '#web/components/ui/list-status.tsx';
import { LoadMoreButton } from '#web/components/ui/load-more-button.tsx';
import { withMessages } from '#web/i18n/i18n.ts';
import { useFeed } from '../api/feed';
import { useShowingFor } from '../api/showing-for';
import { useSafetyTip } from '../safety-tip';
import { EmptyFeed } from './empty-feed';
import { FeedFilters, type FilterValues } from './feed-filters';
import { ItemCard, ItemCardSkeleton } from './item-card';
import { ItemDetailDialog } from './lazy-item-detail-dialog';

/** Save search in its chunk of before (ADR 084): the chunks the feed's first screen shares stay as they were. */
const SaveSearchButton = lazy(() =>
  withMessages(() => import('./save-search-button')).then((module) => ({ default: module.SaveSearchButton })),
);

/** Everything's orders (no match to sort by: a search reads every listing, not the member's wants). */
const SORTS: readonly FeedSort[] = ['recent', 'distance', 'value'];

const LOADING_PLACEHOLDERS = 6;

// Texts through `t` only: a <Trans> here would split Lingui's component out of the shared chunk the
// feed's first screen loads (ADR 089). The page's search box for phones is the page's (home-page.tsx).
/**
 * The search results (issue 31, ADR 089): all listings within the member's distance that the text
 * finds (the Everything feed with `q`: title hits first, then the order chosen), with the feeds'
 * Distance, Sort by and Condition, "Showing results for" when a word was corrected, Save search (the
 * text, or without one the filters alone), cards, Load More. Without text it lists everything near.
 */
export function SearchResults({ q }: { q: string }) {
  const { t } = useLingui();
  const [values, setValues] = useState<FilterValues>({
    radius: DEFAULT_DISTANCE_MILES,
    sort: 'recent',
    condition: '',
  });
  const { radius, sort, condition } = values;
  const [opened, setOpened] = useState<Pick<FeedItem, 'id' | 'title'> | null>(null);
  const openAddItem = useOpenAddItem();
  const query = useFeed({ feed: 'everything', radius, sort, q, ...(condition ? { condition } : {}) });
  const shownAs = useShowingFor(q, query.isSuccess).data ?? null;
  const items = query.data?.pages.flat() ?? [];
  useSafetyTip();

  return (
    <div className="grid gap-4">
      <div className="grid gap-1">
        <h1 className="text-2xl font-bold break-words">
          {q ? t`Results for “${q}”` : t`Everything near you`}
        </h1>
        <p className="text-sm text-slate-600">{t`All listings within your distance, from every neighbor.`}</p>
        {shownAs ? (
          <p className="text-sm text-slate-800">
            {t`Showing results for`} <strong>{shownAs}</strong>
          </p>
        ) : null}
      </div>

      <div className="flex flex-wrap items-end gap-3">
        <FeedFilters values={values} onChange={setValues} sorts={SORTS} idPrefix="search" />
        <Suspense fallback={null}>
          <SaveSearchButton
            feed="everything"
            q={q}
            radius={radius}
            condition={condition === '' ? undefined : condition}
          />
        </Suspense>
      </div>

      <section aria-label={t`Search results`} aria-busy={query.isLoading}>
        <h2 className="sr-only">{t`Search results`}</h2>
        {query.isLoading ? (
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {Array.from({ length: LOADING_PLACEHOLDERS }, (_, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have nothing else to key on
              <ItemCardSkeleton key={index} />
            ))}
          </div>
        ) : query.isError ? (
          <LoadFailed
            className="rounded-xl border border-red-200 bg-red-50 p-6 text-center text-red-800"
            text={t`The search results could not be loaded.`}
            read={query}
          />
        ) : items.length === 0 ? (
          <EmptyFeed feed="everything" q={q} onAddItem={openAddItem} />
        ) : (
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {items.map((item, index) => (
              <ItemCard
                key={item.id}
                item={item}
                eager={index === 0 ? 'first' : false}
                showMatch={false}
                onOpen={setOpened}
              />
            ))}
          </div>
        )}
      </section>

      <LoadMoreButton query={query} label={t`Load More Items`} />

      <ItemDetailDialog
        itemId={opened?.id ?? null}
        title={opened?.title ?? ''}
        onClose={() => setOpened(null)}
      />
    </div>
  );
}
