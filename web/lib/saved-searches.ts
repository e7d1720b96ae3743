import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FeedName } from '#common/feed-names.ts';
import type { SavedSearch } from '#common/schemas/alerts.ts';
import type { ItemCondition } from '#common/schemas/listings.ts';
import { apiGet, apiRequest } from './api-client';
import { savedSearchKeys } from './query-keys';

/**
 * The member's saved searches (ADR 084): the feed saves one, the Account tab lists and removes them.
 * New listings that match one alert the member.
 */

/** GET /api/saved-searches: newest first. */
export function useSavedSearches() {
  return useQuery({
    queryKey: savedSearchKeys.all,
    queryFn: async () => (await apiGet<SavedSearch[]>('/api/saved-searches')) ?? [],
  });
}

/**
 * POST /api/saved-searches: the feed's filter as it stands (search text or none, distance, condition
 * or none: ADR 089), with a name.
 */
export function useSaveSearch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: {
      name: string;
      feed: FeedName;
      q: string | null;
      radius: number;
      condition?: ItemCondition;
    }) => (await (await apiRequest('POST', '/api/saved-searches', input)).json()) as SavedSearch,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedSearchKeys.all }),
  });
}

/** DELETE /api/saved-searches/:id. */
export function useRemoveSavedSearch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest('DELETE', `/api/saved-searches/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedSearchKeys.all }),
  });
}
