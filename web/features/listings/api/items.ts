import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Item, ItemFormValues, ItemUpdateValues } from '../../../../common/schemas/listings';
import { apiGet, apiRequest } from '../../../lib/api-client';

export const itemKeys = {
  all: ['items'] as const,
  mine: () => [...itemKeys.all, 'mine'] as const,
};

/** GET /api/items/my: the member's own items, newest first. */
export const myItemsQuery = () =>
  queryOptions({
    queryKey: itemKeys.mine(),
    queryFn: async () => (await apiGet<Item[]>('/api/items/my')) ?? [],
  });

export function useMyItems() {
  return useQuery(myItemsQuery());
}

/** POST /api/items (spec section 7); the response is not read, the list is refetched. */
export function useCreateItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: ItemFormValues) => {
      await apiRequest('POST', '/api/items', input);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: itemKeys.all }),
  });
}

/** PATCH /api/items/:id: edit, replace or remove the photo, deactivate or reactivate. */
export function useUpdateItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, changes }: { id: number; changes: ItemUpdateValues }) => {
      await apiRequest('PATCH', `/api/items/${id}`, changes);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: itemKeys.all }),
  });
}

/** DELETE /api/items/:id (its photos go with it). */
export function useDeleteItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await apiRequest('DELETE', `/api/items/${id}`);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: itemKeys.all }),
  });
}
