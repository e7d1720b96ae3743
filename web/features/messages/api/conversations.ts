import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { Conversation } from '#common/schemas/conversations.ts';
import { fetchOwnListPage, nextOwnListOffset } from '#web/lib/own-list.ts';
import { barterKeys } from '#web/lib/query-keys.ts';

/**
 * GET /api/messages/conversations: the inbox, newest message first, a page at a time (ADR 076). Its key
 * sits under the barter lists', so a message arriving live, a conversation read and a barter's step
 * make it stale as they do the lists.
 */
export const conversationsQuery = () =>
  infiniteQueryOptions({
    queryKey: barterKeys.conversations(),
    initialPageParam: 0,
    queryFn: ({ pageParam }) => fetchOwnListPage<Conversation>('/api/messages/conversations', pageParam),
    getNextPageParam: nextOwnListOffset,
  });

export function useConversations() {
  return useInfiniteQuery(conversationsQuery());
}
