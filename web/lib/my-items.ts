import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { Item } from '#common/schemas/listings.ts';
import { fetchOwnListPage, nextOwnListOffset } from './own-list';
import { itemKeys } from './query-keys';

/** GET /api/items/my: the member's own items, newest first, a page at a time with the total (ADR 017). */
export const myItemsQuery = () =>
  infiniteQueryOptions({
    queryKey: itemKeys.mine(),
    initialPageParam: 0,
    queryFn: ({ pageParam }) => fetchOwnListPage<Item>('/api/items/my', pageParam),
    getNextPageParam: nextOwnListOffset,
  });

export function useMyItems() {
  return useInfiniteQuery(myItemsQuery());
}
