import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { unreadCountSchema } from '#common/schemas/auth.ts';
import { type Conversation, conversationListSchema } from '#common/schemas/conversations.ts';
import { apiErrorSchema } from '#common/schemas/errors.ts';
import { ownListQuerySchema, TOTAL_COUNT_HEADER } from '#common/schemas/listings.ts';
import { presentMemberRef } from '../member-refs';
import { type ConversationRow, findConversations } from './conversations-repository';
import { countUnreadMessages } from './messages-repository';

/** Messages between members: the header's unread badge (spec section 7) and the inbox (ADR 076). */
export async function messagesRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    '/api/messages/unread-count',
    {
      schema: {
        tags: ['messages'],
        summary: 'How many messages to the signed-in member are unread',
        response: { 200: unreadCountSchema, 401: apiErrorSchema },
      },
    },
    async (request) => countUnreadMessages(app.db, request.member.id),
  );

  routes.get(
    '/api/messages/conversations',
    {
      schema: {
        tags: ['messages'],
        summary: 'The inbox: the signed-in member’s conversations, newest message first, a page at a time',
        description:
          'One row per conversation (a barter’s negotiation, a trade circle, a swap-day hand-over) with ' +
          'the other members, the last message (trimmed) and the unread count; their unread counts add ' +
          'up to GET /api/messages/unread-count. `limit` (default 50, at most 100) and `offset` page ' +
          'the list; X-Total-Count says how many there are in all.',
        querystring: ownListQuerySchema,
        response: { 200: conversationListSchema, 400: apiErrorSchema, 401: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const page = await findConversations(app.db, request.member.id, request.query);
      reply.header(TOTAL_COUNT_HEADER, String(page.total));
      return page.rows.map((row) => presentConversation(row, request.member.id));
    },
  );
}

function presentConversation(row: ConversationRow, viewerId: string): Conversation {
  return {
    id: row.threadId,
    kind: row.swapDayId !== null ? 'swapDay' : row.sharedCircle ? 'circle' : 'barter',
    barterId: row.barterId,
    circleId: row.circleId,
    swapDay: row.swapDayId !== null ? { id: row.swapDayId, name: row.swapDayName ?? '' } : null,
    members: row.members.map(presentMemberRef),
    lastMessage: {
      id: row.lastId,
      fromMe: row.lastFromUserId === viewerId,
      fromUserId: row.lastFromUserId,
      preview: row.lastPreview,
      createdAt: row.lastCreatedAt.toISOString(),
    },
    unread: row.unread,
  };
}
