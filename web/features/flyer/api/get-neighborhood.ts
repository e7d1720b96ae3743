import { queryOptions, useQuery } from '@tanstack/react-query';
import type { FlyerNeighborhood } from '#common/schemas/flyer.ts';
import { apiGet } from '#web/lib/api-client.ts';
import { flyerKeys } from '#web/lib/query-keys.ts';

/**
 * GET /api/flyer/neighborhood: current offers and wants near the member, first names only.
 * "Right now" means fetched when the flyer is made: unlike other reads it goes stale after a minute.
 */
export const neighborhoodQuery = () =>
  queryOptions({
    queryKey: flyerKeys.neighborhood(),
    queryFn: () => apiGet<FlyerNeighborhood>('/api/flyer/neighborhood') as Promise<FlyerNeighborhood>,
    staleTime: 60_000,
  });

export function useNeighborhood({ enabled }: { enabled: boolean }) {
  return useQuery({ ...neighborhoodQuery(), enabled });
}
