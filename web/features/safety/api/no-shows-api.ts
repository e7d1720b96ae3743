import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DisputedNoShow, NoShowDecision } from '#common/schemas/no-shows.ts';
import { apiGet, apiRequest } from '#web/lib/api-client.ts';
import { safetyKeys } from '#web/lib/query-keys.ts';

// The moderators' queue of disputed no-show reports (issue 30, ADR 079).

const URL = '/api/moderation/no-shows';
export const disputedNoShowsKey = ['moderation', 'no-shows'] as const;

/** GET /api/moderation/no-shows: answered, undecided reports, oldest answer first. */
export function useDisputedNoShows() {
  return useQuery({
    queryKey: disputedNoShowsKey,
    queryFn: async () => (await apiGet<DisputedNoShow[]>(URL)) ?? [],
  });
}

/** POST /api/moderation/no-shows/:id/decision; the queue and the audit log are read again. */
export function useDecideNoShow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, decision }: { id: number; decision: NoShowDecision }) => {
      await apiRequest('POST', `${URL}/${id}/decision`, { decision });
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: disputedNoShowsKey });
      await queryClient.invalidateQueries({ queryKey: safetyKeys.audit });
    },
  });
}
