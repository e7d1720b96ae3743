import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ItemDetail } from '#common/schemas/feed.ts';
import { apiGet } from '#web/lib/api-client.ts';
import { itemDetailKeys } from '#web/lib/query-keys.ts';

/** GET /api/items/{id}: the whole listing for its detail view. */
export const itemDetailQuery = (id: number) =>
  queryOptions({
    queryKey: itemDetailKeys.detail(id),
    queryFn: () => apiGet<ItemDetail>(`/api/items/${id}`) as Promise<ItemDetail>,
  });

export function useItemDetail(id: number | null) {
  return useQuery({ ...itemDetailQuery(id ?? 0), enabled: id !== null });
}

/** GET /api/public/items/{id}: an item's page as anyone past the site gate sees it (issue 31). */
export const publicItemQuery = (id: number) =>
  queryOptions({
    queryKey: [...itemDetailKeys.all, 'public', id] as const,
    queryFn: () => apiGet<ItemDetail>(`/api/public/items/${id}`) as Promise<ItemDetail>,
  });
