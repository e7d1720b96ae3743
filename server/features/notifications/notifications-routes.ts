import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { unreadCountSchema } from '#common/schemas/auth.ts';
import { apiErrorSchema } from '#common/schemas/errors.ts';
import { listingIdParamsSchema, TOTAL_COUNT_HEADER } from '#common/schemas/listings.ts';
import {
  notificationListQuerySchema,
  notificationListSchema,
  notificationReadAllQuerySchema,
  unreadCountsSchema,
} from '#common/schemas/notifications.ts';
import { notificationPage, readAllNotifications, readNotification } from './notifications-service';
import { unreadCounts } from './notify';

/** The bell (issue 13): the member's notifications, marking them read, and the unread badge. */
export async function notificationsRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/notifications/unread-count',
    {
      schema: {
        tags: ['notifications'],
        summary: 'How many notifications of the signed-in member are unread',
        response: { 200: unreadCountSchema, 401: apiErrorSchema },
      },
    },
    async (request) => (await unreadCounts(app.db, request.member.id)).notifications,
  );

  routes.get(
    '/api/notifications',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Your notifications, newest first',
        description:
          '`limit` (default 50, at most 100) and `offset` page the list; the X-Total-Count header ' +
          'says how many there are in all. Each links to the barter it is about.',
        querystring: notificationListQuerySchema,
        response: { 200: notificationListSchema, 400: apiErrorSchema, 401: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const page = await notificationPage(app.db, request.member.id, request.query);
      reply.header(TOTAL_COUNT_HEADER, String(page.total));
      return page.rows;
    },
  );

  routes.post(
    '/api/notifications/read-all',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Mark all your notifications read; answers your unread counts',
        description:
          'With `upTo` (a notification id), only those up to it: the bell marks what it shows when ' +
          'it opens, and an entry that arrived meanwhile stays unread.',
        querystring: notificationReadAllQuerySchema,
        response: { 200: unreadCountsSchema, 400: apiErrorSchema, 401: apiErrorSchema },
      },
    },
    async (request) => readAllNotifications(app.db, request.member.id, request.query.upTo),
  );

  routes.post(
    '/api/notifications/:id/read',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Mark one of your notifications read; answers your unread counts',
        description: 'Another member’s notification, or an unknown id: 404.',
        params: listingIdParamsSchema,
        response: { 200: unreadCountsSchema, 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => readNotification(app.db, request.member.id, request.params.id),
  );
}
