import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ItemDetail } from '../../../../common/schemas/feed';
import { apiGet } from '../../../lib/api-client';

export const itemDetailKeys = {
  all: ['item-detail'] as const,
  detail: (id: number) => [...itemDetailKeys.all, id] as const,
};

/** GET /api/items/{id}: the whole listing for its detail view. */
export const itemDetailQuery = (id: number) =>
  queryOptions({
    queryKey: itemDetailKeys.detail(id),
    queryFn: () => apiGet<ItemDetail>(`/api/items/${id}`) as Promise<ItemDetail>,
  });

export function useItemDetail(id: number | null) {
  return useQuery({ ...itemDetailQuery(id ?? 0), enabled: id !== null });
}
