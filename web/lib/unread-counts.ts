import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import type { UnreadCounts } from '#common/schemas/notifications.ts';
import { apiGet } from './api-client';
import { unreadKeys } from './query-keys';

/** GET /api/notifications/unread-count: a plain number, 0 by default (spec section 7). */
export const unreadNotificationsQuery = () =>
  queryOptions({
    queryKey: unreadKeys.notifications,
    queryFn: async () => (await apiGet<number>('/api/notifications/unread-count')) ?? 0,
  });

/** GET /api/messages/unread-count: a plain number, 0 by default (spec section 7). */
export const unreadMessagesQuery = () =>
  queryOptions({
    queryKey: unreadKeys.messages,
    queryFn: async () => (await apiGet<number>('/api/messages/unread-count')) ?? 0,
  });

export function useUnreadCounts() {
  const notifications = useQuery(unreadNotificationsQuery());
  const messages = useQuery(unreadMessagesQuery());
  return { notifications: notifications.data ?? 0, messages: messages.data ?? 0 };
}

/** Put counts the server sent (an event, a mark-read answer) into the badges' queries. */
export function setUnreadCounts(queryClient: QueryClient, counts: UnreadCounts): void {
  queryClient.setQueryData(unreadKeys.notifications, counts.notifications);
  queryClient.setQueryData(unreadKeys.messages, counts.messages);
}
