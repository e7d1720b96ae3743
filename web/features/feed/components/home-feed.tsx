import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { X } from 'lucide-react';
import { useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { DEFAULT_DISTANCE_MILES, DISTANCE_OPTIONS_MILES } from '#common/constants.ts';
import { FEED_NAMES, type FeedName } from '#common/feed-names.ts';
import type { FeedItem, FeedSort } from '#common/schemas/feed.ts';
import { useOpenAddItem } from '#web/components/feature-slots.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { LoadFailed } from '#web/components/ui/list-status.tsx';
import { LoadMoreButton } from '#web/components/ui/load-more-button.tsx';
import { Select } from '#web/components/ui/select.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs.tsx';
import { formatRadius } from '#web/i18n/format.ts';
import { paths } from '#web/lib/paths.ts';
import { useFeed } from '../api/feed';
import { FEED_ITEMS_LABELS, FEED_LABELS } from '../feed-labels';
import { useSafetyTip } from '../safety-tip';
import { EmptyFeed } from './empty-feed';
import { ItemCard, ItemCardSkeleton } from './item-card';
import { ItemDetailDialog } from './lazy-item-detail-dialog';
import { SearchBox } from './search-box';

const SORT_LABELS: Record<FeedSort, MessageDescriptor> = {
  recent: msg`Recent`,
  distance: msg`Distance`,
  value: msg`Value`,
  match: msg`Match Score`,
};

const LOADING_PLACEHOLDERS = 6;

/** The home feed (spec section 2): three feeds, distance and sort, cards, Load More, search results. */
export function HomeFeed() {
  const { t } = useLingui();
  const search = useSearch();
  const [, navigate] = useLocation();
  const q = new URLSearchParams(search).get('q') ?? '';
  const [feed, setFeed] = useState<FeedName>('barter-match');
  const [radius, setRadius] = useState<number>(DEFAULT_DISTANCE_MILES);
  const [sort, setSort] = useState<FeedSort>('recent');
  const [opened, setOpened] = useState<FeedItem | null>(null);
  const openAddItem = useOpenAddItem();
  const query = useFeed({ feed, radius, sort, q });
  const items = query.data?.pages.flat() ?? [];
  useSafetyTip();

  return (
    <div className="grid gap-4">
      <SearchBox id="mobile-search" className="md:hidden" />
      {q ? (
        <div className="flex flex-wrap items-center gap-2 rounded-lg bg-slate-100 px-3 py-2 text-sm">
          <span>
            <Trans>
              Search results for <strong>“{q}”</strong>
            </Trans>
          </span>
          <Button variant="ghost" size="sm" onClick={() => navigate(paths.home)}>
            <X className="h-4 w-4" aria-hidden="true" />
            <Trans>Clear search</Trans>
          </Button>
        </div>
      ) : null}

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
            <div className="grid gap-1">
              <Label htmlFor="feed-distance">
                <Trans>Distance</Trans>
              </Label>
              <Select
                id="feed-distance"
                className="w-36"
                value={radius}
                onChange={(event) => setRadius(Number(event.target.value))}
              >
                {DISTANCE_OPTIONS_MILES.map((miles) => (
                  <option key={miles} value={miles}>
                    {formatRadius(miles)}
                  </option>
                ))}
              </Select>
            </div>
            <div className="grid gap-1">
              <Label htmlFor="feed-sort">
                <Trans>Sort by</Trans>
              </Label>
              <Select
                id="feed-sort"
                className="w-40"
                value={sort}
                onChange={(event) => setSort(event.target.value as FeedSort)}
              >
                {(Object.keys(SORT_LABELS) as FeedSort[]).map((value) => (
                  <option key={value} value={value}>
                    {t(SORT_LABELS[value])}
                  </option>
                ))}
              </Select>
            </div>
          </div>

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
              <EmptyFeed feed={feed} q={q} onAddItem={openAddItem} />
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
        </TabsContent>
      </Tabs>

      <LoadMoreButton query={query} label={t`Load More Items`} />

      <ItemDetailDialog
        itemId={opened?.id ?? null}
        title={opened?.title ?? ''}
        onClose={() => setOpened(null)}
      />
    </div>
  );
}
