import {
  infiniteQueryOptions,
  type QueryClient,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { BarterBox } from '../../../../common/barter-machine';
import type { Barter, ProposalInput, RatingInput } from '../../../../common/schemas/barters';
import { apiGet, apiRequest } from '../../../lib/api-client';
import { fetchOwnListPage, nextOwnListOffset } from '../../../lib/own-list';
import { barterKeys, circleKeys } from '../../../lib/query-keys';
import { feedKeys } from '../../feed/api/feed';
import { itemDetailKeys } from '../../feed/api/item-detail';
import { savedKeys } from '../../feed/api/saved-items';
import { itemKeys } from '../../listings/api/items';
import { memberKeys } from '../../members/api/member';
import { tradeKeys } from '../../profile/api/trades';

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
 * What a barter's step can change beyond the barter itself: reserved and traded items leave the
 * feeds, saved lists and member pages; the owner's items show "Reserved"; completions and ratings
 * move trade history, stats and every rating line; a trade circle's hand-over completes or cancels
 * its circle. Marked stale (screens on show read again; the others on their next visit), since
 * queries never go stale by themselves here. Used for the member's own steps and, through live
 * events, for the other member's.
 */
export function refreshAfterBarterChange(queryClient: QueryClient) {
  return Promise.all(
    [
      barterKeys.lists(),
      itemKeys.all,
      feedKeys.all,
      // An item's detail says whether the member has an open barter on it (issue 28).
      itemDetailKeys.all,
      savedKeys.all,
      tradeKeys.all,
      memberKeys.all,
      circleKeys.all,
    ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
}

/**
 * Keep a barter the server just answered with, and read again what it may have changed: the
 * member's other barters (an accept reserves items other proposals use) and everything
 * refreshAfterBarterChange names.
 */
function storeBarter(queryClient: QueryClient, barter: Barter) {
  queryClient.setQueryData(barterKeys.detail(barter.id), barter);
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
