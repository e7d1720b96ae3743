import { X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import {
  DEFAULT_DISTANCE_MILES,
  DISTANCE_OPTIONS_MILES,
  SAFETY_TIP_DELAY_MS,
  SAFETY_TIP_DURATION_MS,
} from '../../../../common/constants';
import { FEED_NAMES, type FeedName } from '../../../../common/feed-names';
import type { FeedItem, FeedSort } from '../../../../common/schemas/feed';
import { paths } from '../../../app/paths';
import { Button } from '../../../components/ui/button';
import { Label } from '../../../components/ui/label';
import { LoadMoreButton } from '../../../components/ui/load-more-button';
import { Select } from '../../../components/ui/select';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { toastWhenQuiet } from '../../../components/ui/use-toast';
import { useOpenAddItem } from '../../listings/components/add-item-context';
import { useFeed } from '../api/feed';
import { EmptyFeed } from './empty-feed';
import { ItemCard, ItemCardSkeleton } from './item-card';
import { ItemDetailDialog } from './lazy-item-detail-dialog';
import { SearchBox } from './search-box';

const FEED_LABELS: Record<FeedName, string> = {
  'barter-match': 'Barter Match',
  'random-barter': 'Random Barter',
  everything: 'Everything',
};

const SORT_LABELS: Record<FeedSort, string> = {
  recent: 'Recent',
  distance: 'Distance',
  value: 'Value',
  match: 'Match Score',
};

const LOADING_PLACEHOLDERS = 6;

/**
 * The safety tip (spec section 2): 3 s after the feed opens, shown for 5 s; it waits while another
 * toast is on show (say "AI Analysis Complete"), so it never replaces one (issue 17).
 */
function useSafetyTip() {
  useEffect(() => {
    let tip: { cancel: () => void } | null = null;
    const timer = window.setTimeout(() => {
      tip = toastWhenQuiet(
        {
          title: 'Safety Tip',
          description: 'Always meet in public places and trust your instincts when bartering with others.',
        },
        SAFETY_TIP_DURATION_MS,
      );
    }, SAFETY_TIP_DELAY_MS);
    return () => {
      window.clearTimeout(timer);
      tip?.cancel();
    };
  }, []);
}

/** The home feed (spec section 2): three feeds, distance and sort, cards, Load More, search results. */
export function HomeFeed() {
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
            Search results for <strong>“{q}”</strong>
          </span>
          <Button variant="ghost" size="sm" onClick={() => navigate(paths.home)}>
            <X className="h-4 w-4" aria-hidden="true" />
            Clear search
          </Button>
        </div>
      ) : null}

      <Tabs value={feed} onValueChange={(value) => setFeed(value as FeedName)}>
        <TabsList aria-label="Feeds">
          {FEED_NAMES.map((name) => (
            <TabsTrigger key={name} value={name}>
              {FEED_LABELS[name]}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value={feed} className="grid gap-4">
          <div className="flex flex-wrap items-end gap-3">
            <div className="grid gap-1">
              <Label htmlFor="feed-distance">Distance</Label>
              <Select
                id="feed-distance"
                className="w-36"
                value={radius}
                onChange={(event) => setRadius(Number(event.target.value))}
              >
                {DISTANCE_OPTIONS_MILES.map((miles) => (
                  <option key={miles} value={miles}>
                    {miles} miles
                  </option>
                ))}
              </Select>
            </div>
            <div className="grid gap-1">
              <Label htmlFor="feed-sort">Sort by</Label>
              <Select
                id="feed-sort"
                className="w-40"
                value={sort}
                onChange={(event) => setSort(event.target.value as FeedSort)}
              >
                {(Object.keys(SORT_LABELS) as FeedSort[]).map((value) => (
                  <option key={value} value={value}>
                    {SORT_LABELS[value]}
                  </option>
                ))}
              </Select>
            </div>
          </div>

          <section aria-label={`${FEED_LABELS[feed]} items`} aria-busy={query.isLoading}>
            {/* The cards' titles are h3: this keeps the outline in order under the page's h1. */}
            <h2 className="sr-only">{`${FEED_LABELS[feed]} items`}</h2>
            {query.isLoading ? (
              <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
                {Array.from({ length: LOADING_PLACEHOLDERS }, (_, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have nothing else to key on
                  <ItemCardSkeleton key={index} />
                ))}
              </div>
            ) : query.isError ? (
              <div className="rounded-xl border border-red-200 bg-red-50 p-6 text-center text-red-800">
                <p>The feed could not be loaded.</p>
                <Button variant="secondary" className="mt-3" onClick={() => void query.refetch()}>
                  Try again
                </Button>
              </div>
            ) : items.length === 0 ? (
              <EmptyFeed feed={feed} q={q} onAddItem={openAddItem} />
            ) : (
              <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
                {items.map((item, index) => (
                  <ItemCard
                    key={item.id}
                    item={item}
                    eager={index === 0 ? 'first' : index < 3}
                    showMatch={feed === 'barter-match'}
                    onOpen={setOpened}
                  />
                ))}
              </div>
            )}
          </section>
        </TabsContent>
      </Tabs>

      <LoadMoreButton query={query} label="Load More Items" />

      <ItemDetailDialog
        itemId={opened?.id ?? null}
        title={opened?.title ?? ''}
        onClose={() => setOpened(null)}
      />
    </div>
  );
}
