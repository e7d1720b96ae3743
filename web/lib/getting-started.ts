import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { GettingStarted } from '#common/schemas/getting-started.ts';
import { apiGet, apiRequest } from './api-client';
import { storeAnswer } from './query-client';
import { gettingStartedKeys } from './query-keys';

const URL = '/api/account/getting-started';

/** GET /api/account/getting-started: which steps of the guided start the member has done. */
export const gettingStartedQuery = () =>
  queryOptions({
    queryKey: gettingStartedKeys.all,
    queryFn: async () => (await apiGet<GettingStarted>(URL)) as GettingStarted,
  });

export function useGettingStarted({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...gettingStartedQuery(), enabled });
}

/** Every step done. */
export const allStepsDone = (state: GettingStarted) => state.area && state.want && state.item;

/** PUT /api/account/getting-started: put the guide away (skip, done) or bring it back. */
export function useSetGettingStartedCompleted() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (completed: boolean) =>
      (await apiRequest('PUT', URL, { completed })).json() as Promise<GettingStarted>,
    onSuccess: (state) => storeAnswer(queryClient, gettingStartedKeys.all, state),
  });
}
