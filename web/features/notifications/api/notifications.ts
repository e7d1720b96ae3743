import {
  type InfiniteData,
  infiniteQueryOptions,
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import type { Notification, UnreadCounts } from '#common/schemas/notifications.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { fetchOwnListPage, nextOwnListOffset, type OwnListPage } from '#web/lib/own-list.ts';
import { notificationKeys } from '#web/lib/query-keys.ts';
import { setUnreadCounts } from '#web/lib/unread-counts.ts';

/** GET /api/notifications: the bell's list, newest first, a page at a time with the total. */
export const notificationsQuery = () =>
  infiniteQueryOptions({
    queryKey: notificationKeys.list(),
    initialPageParam: 0,
    queryFn: ({ pageParam }) => fetchOwnListPage<Notification>('/api/notifications', pageParam),
    getNextPageParam: nextOwnListOffset,
  });

/** The bell's list; read only while `enabled` (the bell is open), then kept until an event makes it stale. */
export function useNotifications(enabled: boolean) {
  return useInfiniteQuery({ ...notificationsQuery(), enabled });
}

/**
 * Mark the loaded entries read (all of them, the one with `id`, or with `upTo` those up to that id)
 * without reading the list again.
 */
export function markLoadedRead(queryClient: QueryClient, id?: number, upTo?: number) {
  queryClient.setQueryData<InfiniteData<OwnListPage<Notification>, number>>(
    notificationKeys.list(),
    (data) =>
      data
        ? {
            ...data,
            pages: data.pages.map((page) => ({
              ...page,
              rows: page.rows.map((row) =>
                (upTo === undefined ? id === undefined || row.id === id : row.id <= upTo)
                  ? { ...row, read: true }
                  : row,
              ),
            })),
          }
        : data,
  );
}

/** POST /api/notifications/:id/read: the entry shows as read and the badges take the counts returned. */
export function useMarkNotificationRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) =>
      (await (await apiRequest('POST', `/api/notifications/${id}/read`)).json()) as UnreadCounts,
    onSuccess: (counts, id) => {
      setUnreadCounts(queryClient, counts);
      markLoadedRead(queryClient, id);
    },
  });
}

/** POST /api/notifications/read-all: every entry shows as read and the badges take the counts returned. */
export function useMarkAllNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      (await (await apiRequest('POST', '/api/notifications/read-all')).json()) as UnreadCounts,
    onSuccess: (counts) => {
      setUnreadCounts(queryClient, counts);
      markLoadedRead(queryClient);
    },
  });
}

/**
 * POST /api/notifications/read-all?upTo=: the opened bell marks what it shows read (up to its newest
 * entry, so one that arrives meanwhile still counts); the badges take the counts returned at once. The
 * entries keep their unread marks while the list is open, so the member sees what was new.
 */
export function useMarkShownNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (upTo: number) =>
      (await (await apiRequest('POST', `/api/notifications/read-all?upTo=${upTo}`)).json()) as UnreadCounts,
    onSuccess: (counts) => setUnreadCounts(queryClient, counts),
  });
}
