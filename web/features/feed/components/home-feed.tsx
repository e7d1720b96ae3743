import { Trans, useLingui } from '@lingui/react/macro';
import { lazy, Suspense, useState } from 'react';
import { Redirect, useSearch } from 'wouter';
import { DEFAULT_DISTANCE_MILES } from '#common/constants.ts';
import { FEED_NAMES, type FeedName } from '#common/feed-names.ts';
import type { FeedItem, FeedSort } from '#common/schemas/feed.ts';
import { useOpenAddItem } from '#web/components/feature-slots.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { LoadFailed } from '#web/components/ui/list-status.tsx';
import { LoadMoreButton } from '#web/components/ui/load-more-button.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs.tsx';
import { withMessages } from '#web/i18n/i18n.ts';
import { paths } from '#web/lib/paths.ts';
import { useFeed } from '../api/feed';
import { FEED_ITEMS_LABELS, FEED_LABELS } from '../feed-labels';
import { useSafetyTip } from '../safety-tip';
import { EmptyFeed } from './empty-feed';
import { FeedFilters, type FilterValues } from './feed-filters';
import { ItemCard, ItemCardSkeleton } from './item-card';
import { ItemDetailDialog } from './lazy-item-detail-dialog';
import { SearchBox } from './search-box';

const LOADING_PLACEHOLDERS = 6;

/**
 * The map and its list (ADR 086), in chunks of their own: the feed's first screen does not carry them.
 * A chunk that cannot load (offline) says so in place of the map.
 */
const FeedMapPanel = lazy(() =>
  withMessages(() => import('./feed-map')).then(
    (module) => ({ default: module.FeedMapPanel }),
    () => ({ default: FeedMapUnavailable }),
  ),
);

function FeedMapUnavailable() {
  return (
    <p className="rounded-xl border border-red-200 bg-red-50 p-6 text-center text-red-800">
      <Trans>The map could not be loaded.</Trans>
    </p>
  );
}

/** The feeds that can be shown as a map (ADR 086): Random Barter is a shuffle, not a place. */
const MAPPABLE: ReadonlySet<FeedName> = new Set(['everything', 'barter-match']);

/** The orders a feed offers: Match Score where there is a match. */
const SORTS: readonly FeedSort[] = ['recent', 'distance', 'value', 'match'];

/**
 * The home feed (spec section 2): three feeds, their filters, cards, Load More. Search text goes to
 * the search results over all listings (`/search`, ADR 089); an old `/?q=` link is sent there.
 */
export function HomeFeed() {
  const { t } = useLingui();
  const q = new URLSearchParams(useSearch()).get('q') ?? '';
  const [feed, setFeed] = useState<FeedName>('barter-match');
  const [{ radius, sort, condition }, setFilters] = useState<FilterValues>({
    radius: DEFAULT_DISTANCE_MILES,
    sort: 'recent',
    condition: '',
  });
  const [opened, setOpened] = useState<Pick<FeedItem, 'id' | 'title'> | null>(null);
  const [view, setView] = useState<'list' | 'map'>('list');
  const onMap = view === 'map' && MAPPABLE.has(feed);
  const openAddItem = useOpenAddItem();
  const filters = { feed, radius, sort, q: '', ...(condition ? { condition } : {}) };
  const query = useFeed(filters);
  const items = query.data?.pages.flat() ?? [];
  useSafetyTip();
  if (q) return <Redirect to={paths.searchFor(q)} replace />;

  return (
    <div className="grid gap-4">
      <SearchBox id="mobile-search" className="md:hidden" />

      <Tabs value={feed} onValueChange={(value) => setFeed(value as FeedName)}>
        <TabsList aria-label={t`Feeds`}>
          {FEED_NAMES.map((name) => (
            <TabsTrigger key={name} value={name}>
              {t(FEED_LABELS[name])}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value={feed} className="grid gap-4">
          <div className="flex flex-wrap items-end gap-3">
            <FeedFilters values={{ radius, sort, condition }} onChange={setFilters} sorts={SORTS} />
            {MAPPABLE.has(feed) ? (
              // biome-ignore lint/a11y/useSemanticElements: a pair of toggle buttons, not a form's fieldset
              <div
                role="group"
                aria-label={t`View`}
                className="flex rounded-lg border border-slate-300 bg-white p-0.5"
              >
                <Button
                  variant={onMap ? 'ghost' : 'primary'}
                  size="sm"
                  aria-pressed={!onMap}
                  onClick={() => setView('list')}
                >
                  <Trans>List</Trans>
                </Button>
                <Button
                  variant={onMap ? 'primary' : 'ghost'}
                  size="sm"
                  aria-pressed={onMap}
                  onClick={() => setView('map')}
                >
                  <Trans>Map</Trans>
                </Button>
              </div>
            ) : null}
          </div>

          {onMap ? (
            <section aria-label={t(FEED_ITEMS_LABELS[feed])}>
              <h2 className="sr-only">{t(FEED_ITEMS_LABELS[feed])}</h2>
              <Suspense
                fallback={
                  <div className="h-72 w-full rounded-xl bg-slate-100 md:h-[32rem]" aria-busy="true" />
                }
              >
                <FeedMapPanel filters={filters} showMatch={feed === 'barter-match'} onOpen={setOpened} />
              </Suspense>
            </section>
          ) : (
            <section aria-label={t(FEED_ITEMS_LABELS[feed])} aria-busy={query.isLoading}>
              {/* The cards' titles are h3: this keeps the outline in order under the page's h1. */}
              <h2 className="sr-only">{t(FEED_ITEMS_LABELS[feed])}</h2>
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
                  text={t`The feed could not be loaded.`}
                  read={query}
                />
              ) : items.length === 0 ? (
                <EmptyFeed feed={feed} q="" onAddItem={openAddItem} />
              ) : (
                <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
                  {items.map((item, index) => (
                    <ItemCard
                      key={item.id}
                      item={item}
                      // Only the first photo loads at once, first: on a phone it is the largest thing on
                      // screen, and the others would share its line (they load as they come in sight).
                      eager={index === 0 ? 'first' : false}
                      showMatch={feed === 'barter-match'}
                      onOpen={setOpened}
                    />
                  ))}
                </div>
              )}
            </section>
          )}
        </TabsContent>
      </Tabs>

      {onMap ? null : <LoadMoreButton query={query} label={t`Load More Items`} />}

      <ItemDetailDialog
        itemId={opened?.id ?? null}
        title={opened?.title ?? ''}
        onClose={() => setOpened(null)}
      />
    </div>
  );
}
