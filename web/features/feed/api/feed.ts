import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { FEED_PAGE_SIZE } from '#common/constants.ts';
import { FEED_SEED_MAX, type FeedName } from '#common/feed-names.ts';
import type { FeedItem, FeedSort } from '#common/schemas/feed.ts';
import type { ItemCondition } from '#common/schemas/listings.ts';
import { apiGet } from '#web/lib/api-client.ts';
import { feedKeys } from '#web/lib/query-keys.ts';

export interface FeedFilters {
  feed: FeedName;
  radius: number;
  sort: FeedSort;
  /** Search text; empty for none. */
  q: string;
  /** Goods in this condition or better (ADR 082, addendum); left out: any item. */
  condition?: ItemCondition;
}

const SEED_KEY = 'barterhood:random-seed';

/**
 * The random-barter seed for this browsing session (docs/matching.md: the order stays stable while
 * paging, so Load More never repeats an item).
 */
export function browsingSeed(): number {
  try {
    const stored = Number(window.sessionStorage.getItem(SEED_KEY));
    if (Number.isInteger(stored) && stored > 0) return stored;
    const seed = (crypto.getRandomValues(new Uint32Array(1))[0] ?? 1) % FEED_SEED_MAX || 1;
    window.sessionStorage.setItem(SEED_KEY, String(seed));
    return seed;
  } catch {
    return 1;
  }
}

function feedUrl({ feed, radius, sort, q, condition }: FeedFilters, offset: number): string {
  const params = new URLSearchParams({
    limit: String(FEED_PAGE_SIZE),
    offset: String(offset),
    radius: String(radius),
    sort,
  });
  if (q.trim()) params.set('q', q.trim());
  if (condition) params.set('condition', condition);
  if (feed === 'random-barter') params.set('seed', String(browsingSeed()));
  return `/api/feed/${feed}?${params}`;
}

/** GET /api/feed/{feedName}, 20 at a time (offset paging) until a page comes back short. */
export const feedQuery = (filters: FeedFilters) =>
  infiniteQueryOptions({
    queryKey: feedKeys.list(filters),
    initialPageParam: 0,
    queryFn: async ({ pageParam }) => (await apiGet<FeedItem[]>(feedUrl(filters, pageParam))) ?? [],
    getNextPageParam: (lastPage, pages) =>
      lastPage.length < FEED_PAGE_SIZE ? undefined : pages.reduce((sum, page) => sum + page.length, 0),
  });

export function useFeed(filters: FeedFilters) {
  return useInfiniteQuery(feedQuery(filters));
}
