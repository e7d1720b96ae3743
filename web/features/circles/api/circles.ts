import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { OWN_LIST_PAGE_SIZE } from '#common/own-lists.ts';
import type { Circle, CircleAction, CircleBox } from '#common/schemas/circles.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { refreshAfterBarterChange } from '#web/lib/barter-refresh.ts';
import { fetchOwnListPage, type OwnListPage } from '#web/lib/own-list.ts';
import { storeAnswer } from '#web/lib/query-client.ts';
import { circleKeys } from '#web/lib/query-keys.ts';

const BASE = '/api/circles';

/**
 * GET /api/circles?box=: the member's circles waiting for answers, or past ones, newest first. The
 * answer carries no total, so a full page means there may be more.
 */
export const circleListQuery = (box: CircleBox) =>
  infiniteQueryOptions({
    queryKey: circleKeys.list(box),
    initialPageParam: 0,
    queryFn: ({ pageParam }) => fetchOwnListPage<Circle>(BASE, pageParam, { box }),
    getNextPageParam: (last: OwnListPage<Circle>, pages: Array<OwnListPage<Circle>>) =>
      last.rows.length >= OWN_LIST_PAGE_SIZE
        ? pages.reduce((sum, page) => sum + page.rows.length, 0)
        : undefined,
  });

export function useCircleList(box: CircleBox, { enabled = true }: { enabled?: boolean } = {}) {
  return useInfiniteQuery({ ...circleListQuery(box), enabled });
}

/**
 * POST /api/circles/:id/{accept,decline}: answers the circle as it is now. The last accept turns the
 * circle into accepted barters (items reserved), a decline frees its items' Barter Match marks: what
 * a barter's step touches is read again (circles included). So is all of it after a refusal (409: the
 * circle moved on, or an item is gone), since the circle changed under the member.
 */
export function useCircleAction(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (action: CircleAction) =>
      (await apiRequest('POST', `${BASE}/${id}/${action}`)).json() as Promise<Circle>,
    onSuccess: async (circle) => {
      await storeAnswer(queryClient, circleKeys.detail(circle.id), circle);
      return refreshAfterBarterChange(queryClient);
    },
    onError: () => refreshAfterBarterChange(queryClient),
  });
}
