import { queryOptions, useQuery } from '@tanstack/react-query';
import type { FeedMap } from '#common/schemas/maps.ts';
import { apiGet } from '#web/lib/api-client.ts';
import { feedKeys } from '#web/lib/query-keys.ts';
import type { FeedFilters } from './feed';

/**
 * GET /api/feed/{feedName}/map: the feed's first items at their approximate points (ADR 086). Only
 * Everything and Barter Match are mapped, so no random-barter seed is sent.
 */
export const feedMapQuery = ({ feed, radius, sort, q, condition }: FeedFilters) =>
  queryOptions({
    // Under the feed's key: whatever refreshes a feed (a save, a barter) refreshes its map too.
    queryKey: [...feedKeys.all, 'map', { feed, radius, sort, q, condition }] as const,
    queryFn: async () => {
      const params = new URLSearchParams({ radius: String(radius), sort });
      if (q.trim()) params.set('q', q.trim());
      if (condition) params.set('condition', condition);
      return (await apiGet<FeedMap>(`/api/feed/${feed}/map?${params}`)) as FeedMap;
    },
  });

export function useFeedMap(filters: FeedFilters, enabled = true) {
  return useQuery({ ...feedMapQuery(filters), enabled });
}
