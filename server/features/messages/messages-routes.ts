import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { unreadCountSchema } from '../../../common/schemas/auth';
import { apiErrorSchema } from '../../../common/schemas/errors';
import { countUnreadMessages } from './messages-repository';

/** Messages between members; for now the header's unread badge (spec section 7). */
export async function messagesRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
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
}
