import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '#common/schemas/errors.ts';
import { feedListSchema, saveItemResultSchema } from '#common/schemas/feed.ts';
import { listingIdParamsSchema, ownListQuerySchema, TOTAL_COUNT_HEADER } from '#common/schemas/listings.ts';
import { listSavedItems, saveItem, unsaveItem } from './saved-service';

/** The member's saved items (spec sections 2, 4 and 7): save, unsave, list. */
export async function savedRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/saved-items',
    {
      schema: {
        tags: ['saved'],
        summary: 'Your saved items that are still active, newest saved first',
        description:
          '`limit` (default 50, at most 100) and `offset` page the list; the X-Total-Count header ' +
          'says how many saved items there are in all.',
        querystring: ownListQuerySchema,
        response: { 200: feedListSchema, 400: apiErrorSchema, 401: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const page = await listSavedItems(app.db, request.member, request.query);
      reply.header(TOTAL_COUNT_HEADER, String(page.total));
      return page.items;
    },
  );

  routes.post(
    '/api/saved-items/:id',
    {
      schema: {
        tags: ['saved'],
        summary: 'Save an item: 201 when newly saved, 200 when it already was',
        description: 'Your own item: 400 CANNOT_SAVE_OWN_ITEM. Missing or inactive: 404.',
        params: listingIdParamsSchema,
        response: {
          200: saveItemResultSchema,
          201: saveItemResultSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          404: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const created = await saveItem(app.db, request.member, request.params.id);
      return reply.code(created ? 201 : 200).send({ saved: true as const });
    },
  );

  routes.delete(
    '/api/saved-items/:id',
    {
      schema: {
        tags: ['saved'],
        summary: 'Unsave an item (204, also when it was not saved)',
        params: listingIdParamsSchema,
        response: { 204: z.undefined(), 400: apiErrorSchema, 401: apiErrorSchema },
      },
    },
    async (request, reply) => {
      await unsaveItem(app.db, request.member, request.params.id);
      return reply.code(204).send();
    },
  );
}
