import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Want, WantFormValues, WantUpdateValues } from '../../../../common/schemas/listings';
import { apiRequest } from '../../../lib/api-client';
import { fetchOwnListPage, nextOwnListOffset } from '../../../lib/own-list';

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

/** POST /api/wants; on success the my-wants list is refetched (spec section 7). */
export function useCreateWant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: WantFormValues) => {
      await apiRequest('POST', '/api/wants', input);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: wantKeys.all }),
  });
}

/** PATCH /api/wants/:id. */
export function useUpdateWant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, changes }: { id: number; changes: WantUpdateValues }) => {
      await apiRequest('PATCH', `/api/wants/${id}`, changes);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: wantKeys.all }),
  });
}

/** DELETE /api/wants/:id. */
export function useDeleteWant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await apiRequest('DELETE', `/api/wants/${id}`);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: wantKeys.all }),
  });
}
