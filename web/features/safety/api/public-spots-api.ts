import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AddPublicSpotInput, EditPublicSpotInput, PublicSpot } from '#common/schemas/public-spots.ts';
import { apiGet, apiRequest } from '#web/lib/api-client.ts';

// The moderators' list of public spots for hand-overs (issue 30, ADR 080).

const URL = '/api/moderation/public-spots';
export const publicSpotsKey = ['moderation', 'public-spots'] as const;

/** GET /api/moderation/public-spots: by area, then name. */
export function usePublicSpots() {
  return useQuery({ queryKey: publicSpotsKey, queryFn: async () => (await apiGet<PublicSpot[]>(URL)) ?? [] });
}

/** POST /api/moderation/public-spots. */
export function useAddPublicSpot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: AddPublicSpotInput) =>
      (await (await apiRequest('POST', URL, input)).json()) as PublicSpot,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: publicSpotsKey }),
  });
}

/** PUT /api/moderation/public-spots/:id: the whole spot, corrected. */
export function useEditPublicSpot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, input }: { id: number; input: EditPublicSpotInput }) =>
      (await (await apiRequest('PUT', `${URL}/${id}`, input)).json()) as PublicSpot,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: publicSpotsKey }),
  });
}

/** DELETE /api/moderation/public-spots/:id. */
export function useRemovePublicSpot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await apiRequest('DELETE', `${URL}/${id}`);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: publicSpotsKey }),
  });
}
