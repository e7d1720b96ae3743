import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Want, WantFormValues, WantUpdateValues } from '../../../../common/schemas/listings';
import { apiGet, apiRequest } from '../../../lib/api-client';

export const wantKeys = {
  all: ['wants'] as const,
  mine: () => [...wantKeys.all, 'mine'] as const,
};

/** GET /api/wants/my: the member's own wants, newest first. */
export const myWantsQuery = () =>
  queryOptions({
    queryKey: wantKeys.mine(),
    queryFn: async () => (await apiGet<Want[]>('/api/wants/my')) ?? [],
  });

export function useMyWants() {
  return useQuery(myWantsQuery());
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
