import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { unreadCountSchema } from '../../../common/schemas/auth';
import { apiErrorSchema } from '../../../common/schemas/errors';

/** Notifications; for now the header's unread badge (spec section 7). */
export async function notificationsRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/notifications/unread-count',
    {
      schema: {
        tags: ['notifications'],
        summary: 'How many notifications of the signed-in member are unread',
        response: { 200: unreadCountSchema, 401: apiErrorSchema },
      },
    },
    async () => {
      // Always 0 for now: there is no notifications table yet. The issue that adds notifications
      // replaces this with a real count.
      return 0;
    },
  );
}
