import {
  infiniteQueryOptions,
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { Want, WantFormValues, WantQuestion, WantUpdateValues } from '#common/schemas/listings.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { fetchOwnListPage, nextOwnListOffset } from '#web/lib/own-list.ts';
import { feedKeys, gettingStartedKeys, notificationKeys, wantKeys } from '#web/lib/query-keys.ts';

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

/**
 * After a want changed: the Want List, Barter Match (its matches come from wants) and the guided
 * start's step read again.
 */
function refreshAfterWantChange(queryClient: QueryClient) {
  return Promise.all(
    [wantKeys.all, feedKeys.all, gettingStartedKeys.all].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
}

/** POST /api/wants; on success the my-wants list is refetched (spec section 7). */
export function useCreateWant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: WantFormValues) => {
      await apiRequest('POST', '/api/wants', input);
    },
    onSuccess: () => refreshAfterWantChange(queryClient),
  });
}

/** PATCH /api/wants/:id. */
export function useUpdateWant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, changes }: { id: number; changes: WantUpdateValues }) => {
      await apiRequest('PATCH', `/api/wants/${id}`, changes);
    },
    onSuccess: () => refreshAfterWantChange(queryClient),
  });
}

/** DELETE /api/wants/:id. */
export function useDeleteWant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await apiRequest('DELETE', `/api/wants/${id}`);
    },
    onSuccess: () => refreshAfterWantChange(queryClient),
  });
}

/** GET /api/wants/questions: "Did this fill your want?" about one completed barter (issue 30). */
export function useWantQuestions(barterRequestId: number) {
  return useQuery({
    queryKey: wantKeys.questions(barterRequestId),
    queryFn: async () =>
      (await (
        await apiRequest('GET', `/api/wants/questions?barterRequestId=${barterRequestId}`)
      ).json()) as WantQuestion[],
  });
}

/**
 * GET /api/wants/questions without a barter: every open "Did this fill your want?" of the member
 * (issue 30), so the Want List asks too, for a member who never goes back to the barter's page.
 */
export function useOpenWantQuestions() {
  return useQuery({
    queryKey: wantKeys.openQuestions(),
    queryFn: async () => (await (await apiRequest('GET', '/api/wants/questions')).json()) as WantQuestion[],
  });
}

/** POST /api/wants/:id/answer: yes fulfils the want (it stops matching), no only drops the question. */
export function useAnswerWantQuestion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (answer: { wantId: number; barterRequestId: number; filled: boolean }) => {
      await apiRequest('POST', `/api/wants/${answer.wantId}/answer`, {
        barterRequestId: answer.barterRequestId,
        filled: answer.filled,
      });
    },
    // The bell's "Did this fill your want?" entry goes once the barter asks nothing more (ADR 078).
    onSettled: () =>
      Promise.all([
        refreshAfterWantChange(queryClient),
        queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
      ]),
  });
}

/** POST /api/wants/:id/keep-open: "I want more of these", active and matching again. */
export function useKeepWantOpen() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await apiRequest('POST', `/api/wants/${id}/keep-open`);
    },
    onSuccess: () => refreshAfterWantChange(queryClient),
  });
}
