import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Barter } from '#common/schemas/barters.ts';
import type { HandOverCode } from '#common/schemas/hand-over-codes.ts';
import { apiGet, apiRequest } from '#web/lib/api-client.ts';
import { refreshAfterBarterChange } from '#web/lib/barter-refresh.ts';
import { storeAnswer } from '#web/lib/query-client.ts';
import { barterKeys } from '#web/lib/query-keys.ts';

// Confirm on the spot (issue 30, ADR 075). The code's key is outside barterKeys: marking barters
// stale need not read it again (it never changes while the barter is accepted).

export const handOverCodeKey = (id: number) => ['hand-over-code', id] as const;

/**
 * GET /api/barter-requests/:id/hand-over-code: the viewer's own code, its link and QR; null once the
 * barter is no longer accepted.
 */
export const handOverCodeQuery = (id: number) =>
  queryOptions({
    queryKey: handOverCodeKey(id),
    queryFn: () => apiGet<HandOverCode>(`/api/barter-requests/${id}/hand-over-code`),
    staleTime: Number.POSITIVE_INFINITY,
  });

/** The viewer's code while the page shows the barter accepted; no code means the page is behind. */
export function useHandOverCode(id: number, enabled: boolean) {
  const queryClient = useQueryClient();
  const query = useQuery({ ...handOverCodeQuery(id), enabled });
  const behind = enabled && query.data === null;
  useEffect(() => {
    if (behind) void queryClient.invalidateQueries({ queryKey: barterKeys.detail(id) });
  }, [behind, id, queryClient]);
  return query;
}

/** POST /api/barter-requests/:id/hand-over-code: the other member's code; the right one completes it. */
export function useEnterHandOverCode(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (code: string) =>
      (
        await apiRequest('POST', `/api/barter-requests/${id}/hand-over-code`, { code })
      ).json() as Promise<Barter>,
    onSuccess: async (barter) => {
      await storeAnswer(queryClient, barterKeys.detail(barter.id), barter);
      queryClient.removeQueries({ queryKey: handOverCodeKey(barter.id) });
      return refreshAfterBarterChange(queryClient);
    },
  });
}
