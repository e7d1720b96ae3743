import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { OWN_LIST_PAGE_SIZE } from '../../../../common/own-lists';
import type { Circle, CircleAction, CircleBox } from '../../../../common/schemas/circles';
import { apiGet, apiRequest } from '../../../lib/api-client';
import { fetchOwnListPage, type OwnListPage } from '../../../lib/own-list';
import { circleKeys } from '../../../lib/query-keys';
import { refreshAfterBarterChange } from '../../barters/api/barters';

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

/** GET /api/circles/:id: a circle the member is part of, as they see it (404 otherwise). */
export const circleQuery = (id: number) =>
  queryOptions({
    queryKey: circleKeys.detail(id),
    queryFn: async () => (await apiGet<Circle>(`${BASE}/${id}`)) as Circle,
  });

/** The circle; `id` null (a barter outside any circle) reads nothing. */
export function useCircle(id: number | null) {
  return useQuery({ ...circleQuery(id ?? 0), enabled: id !== null });
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
    onSuccess: (circle) => {
      queryClient.setQueryData(circleKeys.detail(circle.id), circle);
      return refreshAfterBarterChange(queryClient);
    },
    onError: () => refreshAfterBarterChange(queryClient),
  });
}
