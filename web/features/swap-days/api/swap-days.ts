import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SwapDay, SwapDayInput, SwapDayLists, SwapDaySheet } from '#common/schemas/swap-days.ts';
import { apiGet, apiRequest } from '#web/lib/api-client.ts';
import { barterKeys, swapDayKeys } from '#web/lib/query-keys.ts';

const BASE = '/api/swap-days';

/** GET /api/swap-days: yours and open ones near you. */
export const swapDayListsQuery = () =>
  queryOptions({
    queryKey: swapDayKeys.lists(),
    queryFn: async () => (await apiGet<SwapDayLists>(BASE)) as SwapDayLists,
  });

export function useSwapDayLists() {
  return useQuery(swapDayListsQuery());
}

/** GET /api/swap-days/:id: the swap day as the viewer sees it, with what they may do. */
export const swapDayQuery = (id: number) =>
  queryOptions({
    queryKey: swapDayKeys.detail(id),
    queryFn: async () => (await apiGet<SwapDay>(`${BASE}/${id}`)) as SwapDay,
  });

export function useSwapDay(id: number) {
  return useQuery(swapDayQuery(id));
}

/** GET /api/swap-days/:id/sheet: the pick-up sheet (all of it for the organizer, your lines otherwise). */
export const swapDaySheetQuery = (id: number) =>
  queryOptions({
    queryKey: swapDayKeys.sheet(id),
    queryFn: async () => (await apiGet<SwapDaySheet>(`${BASE}/${id}/sheet`)) as SwapDaySheet,
  });

export function useSwapDaySheet(id: number) {
  return useQuery(swapDaySheetQuery(id));
}

/**
 * Keep the swap day the server answered with; the lists show its counts and state, so they are read
 * again. A match makes barters (and reserves items): the barter lists too.
 */
function storeSwapDay(queryClient: QueryClient, swapDay: SwapDay) {
  queryClient.setQueryData(swapDayKeys.detail(swapDay.id), swapDay);
  const stale = [queryClient.invalidateQueries({ queryKey: swapDayKeys.lists() })];
  if (swapDay.status === 'solved') {
    stale.push(queryClient.invalidateQueries({ queryKey: swapDayKeys.sheet(swapDay.id) }));
    stale.push(queryClient.invalidateQueries({ queryKey: barterKeys.all }));
  }
  return Promise.all(stale);
}

/** POST /api/swap-days: organize one; answers it (201). */
export function useCreateSwapDay() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: SwapDayInput) =>
      (await apiRequest('POST', BASE, input)).json() as Promise<SwapDay>,
    onSuccess: (swapDay) => storeSwapDay(queryClient, swapDay),
  });
}

/** The changes of one swap day, each answered with the swap day as it is now. */
export type SwapDayChange =
  | { kind: 'join' | 'leave' | 'close' | 'cancel' }
  | { kind: 'offer'; itemIds: number[] }
  | { kind: 'withdraw'; itemId: number }
  | { kind: 'rank'; itemId: number; wantedItemIds: number[] };

function requestOf(id: number, change: SwapDayChange): [string, string, unknown?] {
  switch (change.kind) {
    case 'offer':
      return ['POST', `${BASE}/${id}/offers`, { itemIds: change.itemIds }];
    case 'withdraw':
      return ['DELETE', `${BASE}/${id}/offers/${change.itemId}`];
    case 'rank':
      return ['PUT', `${BASE}/${id}/offers/${change.itemId}/wants`, { wantedItemIds: change.wantedItemIds }];
    default:
      return ['POST', `${BASE}/${id}/${change.kind}`];
  }
}

/** Join, leave, offer, withdraw, rank, close and match, cancel. */
export function useSwapDayChange(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (change: SwapDayChange) => {
      const [method, url, body] = requestOf(id, change);
      return (await apiRequest(method, url, body)).json() as Promise<SwapDay>;
    },
    onSuccess: (swapDay) => storeSwapDay(queryClient, swapDay),
  });
}
