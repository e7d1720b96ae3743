import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MESSAGES_PAGE_SIZE } from '#common/constants.ts';
import type { Barter, ChatMessage } from '#common/schemas/barters.ts';
import type { ProposalMessage } from '#common/schemas/conversations.ts';
import type { UnreadCounts } from '#common/schemas/notifications.ts';
import { apiGet, apiRequest } from '#web/lib/api-client.ts';
import { storeAnswer } from '#web/lib/query-client.ts';
import { barterKeys } from '#web/lib/query-keys.ts';
import { setUnreadCounts } from '#web/lib/unread-counts.ts';

const messagesPath = (barterId: number) => `/api/barter-requests/${barterId}/messages`;

/** Two runs of a conversation as one, each message once, oldest first (ids grow with time). */
export function mergeMessages(older: readonly ChatMessage[], newer: readonly ChatMessage[]): ChatMessage[] {
  const byId = new Map<number, ChatMessage>();
  for (const message of older) byId.set(message.id, message);
  for (const message of newer) byId.set(message.id, message);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

async function fetchMessages(barterId: number, before?: number): Promise<ChatMessage[]> {
  const params = new URLSearchParams({ limit: String(MESSAGES_PAGE_SIZE) });
  if (before !== undefined) params.set('before', String(before));
  return (await apiGet<ChatMessage[]>(`${messagesPath(barterId)}?${params}`)) ?? [];
}

/**
 * GET /api/barter-requests/:id/messages: a conversation, cached by its thread id as one array, oldest
 * first. Reading it again keeps the earlier messages already loaded, unless more than a page arrived
 * since (then the newest page stands alone, so "load earlier" never skips a gap).
 */
export const messagesQuery = (barterId: number, threadId: number) =>
  queryOptions({
    queryKey: barterKeys.messages(threadId),
    queryFn: async ({ client }) => {
      const newest = await fetchMessages(barterId);
      const cached = client.getQueryData<ChatMessage[]>(barterKeys.messages(threadId)) ?? [];
      const lastCached = cached.at(-1)?.id ?? 0;
      const gap = newest.length >= MESSAGES_PAGE_SIZE && (newest[0]?.id ?? 0) > lastCached;
      return gap ? newest : mergeMessages(cached, newest);
    },
  });

export function useMessages(barter: Pick<Barter, 'id' | 'threadId'>) {
  return useQuery(messagesQuery(barter.id, barter.threadId));
}

/**
 * GET /api/barter-requests/:id/proposal-messages: what was said with the negotiation's proposal and
 * each counter, oldest first (ADR 076); asked only when `enabled` (a negotiation with counters).
 */
export function useProposalMessages(barterId: number, enabled: boolean) {
  return useQuery({
    queryKey: barterKeys.proposalMessages(barterId),
    queryFn: async () =>
      (await apiGet<ProposalMessage[]>(`/api/barter-requests/${barterId}/proposal-messages`)) ?? [],
    enabled,
  });
}

/**
 * "Load earlier": the page before the oldest loaded message, put in front of the same array.
 * Answers whether there may be more before it.
 */
export function useLoadEarlierMessages(barter: Pick<Barter, 'id' | 'threadId'>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (oldestId: number) => fetchMessages(barter.id, oldestId),
    onSuccess: (page) =>
      storeAnswer<ChatMessage[]>(queryClient, barterKeys.messages(barter.threadId), (current) =>
        mergeMessages(page, current ?? []),
      ),
  });
}

/** POST /api/barter-requests/:id/messages: the sent message is added to the conversation (once). */
export function useSendMessage(barter: Pick<Barter, 'id' | 'threadId'>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (content: string) =>
      (await apiRequest('POST', messagesPath(barter.id), { content })).json() as Promise<ChatMessage>,
    onSuccess: (message) =>
      storeAnswer<ChatMessage[]>(queryClient, barterKeys.messages(barter.threadId), (current) =>
        current ? mergeMessages(current, [message]) : current,
      ),
  });
}

/**
 * POST /api/barter-requests/:id/messages/read: the conversation is read up to the newest message the
 * page shows (`upToId`). The header's counts take the server's answer, those messages and the barter
 * lose their unread marks, and the lists read again (their badges).
 */
export function useMarkMessagesRead(barter: Pick<Barter, 'id' | 'threadId'>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (_upToId: number) =>
      (await apiRequest('POST', `${messagesPath(barter.id)}/read`)).json() as Promise<UnreadCounts>,
    onSuccess: (counts, upToId) => {
      setUnreadCounts(queryClient, counts);
      queryClient.setQueryData<ChatMessage[]>(barterKeys.messages(barter.threadId), (current) =>
        current?.map((message) =>
          !message.fromMe && !message.isRead && message.id <= upToId ? { ...message, isRead: true } : message,
        ),
      );
      queryClient.setQueryData<Barter>(barterKeys.detail(barter.id), (current) =>
        current ? { ...current, unreadMessages: 0 } : current,
      );
      return queryClient.invalidateQueries({ queryKey: barterKeys.lists() });
    },
  });
}
