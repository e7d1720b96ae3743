import {
  infiniteQueryOptions,
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import type { Want, WantFormValues, WantUpdateValues } from '../../../../common/schemas/listings';
import { apiRequest } from '../../../lib/api-client';
import { fetchOwnListPage, nextOwnListOffset } from '../../../lib/own-list';
import { gettingStartedKeys } from '../../../lib/query-keys';
import { feedKeys } from '../../feed/api/feed';

export const wantKeys = {
  all: ['wants'] as const,
  mine: () => [...wantKeys.all, 'mine'] as const,
};

/** GET /api/wants/my: the member's own wants, newest first, a page at a time with the total (ADR 017). */
export const myWantsQuery = () =>
  infiniteQueryOptions({
    queryKey: wantKeys.mine(),
    initialPageParam: 0,
    queryFn: ({ pageParam }) => fetchOwnListPage<Want>('/api/wants/my', pageParam),
    getNextPageParam: nextOwnListOffset,
  });

export function useMyWants() {
  return useInfiniteQuery(myWantsQuery());
}

/**
 * After a want changed: the Want List, Barter Match (its matches come from wants) and the guided
 * start's step read again.
 */
function refreshAfterWantChange(queryClient: QueryClient) {
  return Promise.all(
    [wantKeys.all, feedKeys.all, gettingStartedKeys.all].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
}

/** POST /api/wants; on success the my-wants list is refetched (spec section 7). */
export function useCreateWant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: WantFormValues) => {
      await apiRequest('POST', '/api/wants', input);
    },
    onSuccess: () => refreshAfterWantChange(queryClient),
  });
}

/** PATCH /api/wants/:id. */
export function useUpdateWant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, changes }: { id: number; changes: WantUpdateValues }) => {
      await apiRequest('PATCH', `/api/wants/${id}`, changes);
    },
    onSuccess: () => refreshAfterWantChange(queryClient),
  });
}

/** DELETE /api/wants/:id. */
export function useDeleteWant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await apiRequest('DELETE', `/api/wants/${id}`);
    },
    onSuccess: () => refreshAfterWantChange(queryClient),
  });
}
