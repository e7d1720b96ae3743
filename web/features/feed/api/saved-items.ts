import {
  infiniteQueryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { FeedItem } from '#common/schemas/feed.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { fetchOwnListPage, nextOwnListOffset } from '#web/lib/own-list.ts';
import { storeAnswer } from '#web/lib/query-client.ts';
import { savedKeys } from '#web/lib/query-keys.ts';

/** GET /api/saved-items: the member's saved items, newest saved first, a page at a time with the total. */
export const savedItemsQuery = () =>
  infiniteQueryOptions({
    queryKey: savedKeys.all,
    initialPageParam: 0,
    queryFn: ({ pageParam }) => fetchOwnListPage<FeedItem>('/api/saved-items', pageParam),
    getNextPageParam: nextOwnListOffset,
  });

export function useSavedItems() {
  return useInfiniteQuery(savedItemsQuery());
}

/**
 * POST or DELETE /api/saved-items/{id} (spec sections 4 and 7): the caller flips its saved state after
 * success; the saved-items list is then refetched.
 */
export function useToggleSaved() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ itemId, save }: { itemId: number; save: boolean }) => {
      await apiRequest(save ? 'POST' : 'DELETE', `/api/saved-items/${itemId}`);
    },
    onSuccess: async (_result, { itemId, save }) => {
      await storeAnswer(queryClient, savedKeys.state(itemId), save);
      return queryClient.invalidateQueries({ queryKey: savedKeys.all });
    },
  });
}

/** An item's saved state: starts from the isSaved the server sent, then follows successful toggles. */
export function useSavedState(itemId: number, initiallySaved: boolean): boolean {
  const { data } = useQuery({
    queryKey: savedKeys.state(itemId),
    queryFn: () => initiallySaved,
    initialData: initiallySaved,
  });
  return data;
}
