import {
  infiniteQueryOptions,
  type QueryClient,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { BarterBox } from '#common/barter-machine.ts';
import type { Barter, ProposalInput, RatingInput } from '#common/schemas/barters.ts';
import { apiGet, apiRequest } from '#web/lib/api-client.ts';
import { refreshAfterBarterChange } from '#web/lib/barter-refresh.ts';
import { fetchOwnListPage, nextOwnListOffset } from '#web/lib/own-list.ts';
import { storeAnswer } from '#web/lib/query-client.ts';
import { barterKeys } from '#web/lib/query-keys.ts';

const BASE = '/api/barter-requests';

/** GET /api/barter-requests?box=: one of the Barters screen's lists, newest first, a page at a time. */
export const barterListQuery = (box: BarterBox) =>
  infiniteQueryOptions({
    queryKey: barterKeys.list(box),
    initialPageParam: 0,
    queryFn: ({ pageParam }) => fetchOwnListPage<Barter>(BASE, pageParam, { box }),
    getNextPageParam: nextOwnListOffset,
  });

export function useBarterList(box: BarterBox) {
  return useInfiniteQuery(barterListQuery(box));
}

/** GET /api/barter-requests/:id: one barter as the viewer sees it, with the actions they may take. */
export const barterQuery = (id: number) =>
  queryOptions({
    queryKey: barterKeys.detail(id),
    queryFn: async () => (await apiGet<Barter>(`${BASE}/${id}`)) as Barter,
  });

export function useBarter(id: number) {
  return useQuery(barterQuery(id));
}

/**
 * Keep a barter the server just answered with, and read again what it may have changed: the
 * member's other barters (an accept reserves items other proposals use) and everything
 * refreshAfterBarterChange names.
 */
async function storeBarter(queryClient: QueryClient, barter: Barter) {
  await storeAnswer(queryClient, barterKeys.detail(barter.id), barter);
  return Promise.all([
    refreshAfterBarterChange(queryClient),
    queryClient.invalidateQueries({
      queryKey: barterKeys.details(),
      predicate: (query) => query.queryKey[2] !== barter.id,
    }),
  ]);
}

/** POST /api/barter-requests: propose a barter; answers the new barter (201). */
export function useProposeBarter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: ProposalInput) =>
      (await apiRequest('POST', BASE, input)).json() as Promise<Barter>,
    onSuccess: (barter) => storeBarter(queryClient, barter),
  });
}

/** POST /api/barter-requests/:id/counter: answer a proposal with another (201, the new barter). */
export function useCounterBarter(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: ProposalInput) =>
      (await apiRequest('POST', `${BASE}/${id}/counter`, input)).json() as Promise<Barter>,
    onSuccess: (barter) => storeBarter(queryClient, barter),
  });
}

/** The actions that take no input and answer the barter as it is now. */
export type SimpleBarterAction = 'accept' | 'decline' | 'withdraw' | 'confirm';

/** POST /api/barter-requests/:id/{accept,decline,withdraw,confirm}. */
export function useBarterAction(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (action: SimpleBarterAction) =>
      (await apiRequest('POST', `${BASE}/${id}/${action}`)).json() as Promise<Barter>,
    onSuccess: (barter) => storeBarter(queryClient, barter),
  });
}

/** POST /api/barter-requests/:id/cancel with the reason. */
export function useCancelBarter(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (reason: string) =>
      (await apiRequest('POST', `${BASE}/${id}/cancel`, { reason })).json() as Promise<Barter>,
    onSuccess: (barter) => storeBarter(queryClient, barter),
  });
}

/** POST /api/barter-requests/:id/rating: stars and an optional comment, once per side. */
export function useRateBarter(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: RatingInput) =>
      (await apiRequest('POST', `${BASE}/${id}/rating`, input)).json() as Promise<Barter>,
    onSuccess: (barter) => storeBarter(queryClient, barter),
  });
}
