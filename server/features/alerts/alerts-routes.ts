import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  SAVED_SEARCHES_MAX,
  savedSearchFormSchema,
  savedSearchListSchema,
  savedSearchParamsSchema,
  savedSearchSchema,
  wantedCountQuerySchema,
  wantedCountSchema,
} from '#common/schemas/alerts.ts';
import { apiErrorSchema } from '#common/schemas/errors.ts';
import { memberRateLimit } from '../../plugins/member-rate-limit';
import * as alerts from './alerts-service';

/** Draft counts a member may ask for a minute (the form asks once the typing pauses). */
export const WANTED_COUNT_PER_MINUTE = 30;

/** Saved searches (list, save, remove) and the item form's "neighbours want this" count (ADR 084). */
export async function alertsRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/saved-searches',
    {
      schema: {
        tags: ['alerts'],
        summary: "The signed-in member's saved searches, newest first",
        response: { 200: savedSearchListSchema, 401: apiErrorSchema },
      },
    },
    async (request) => alerts.listSavedSearches(app.db, request.member),
  );

  routes.post(
    '/api/saved-searches',
    {
      schema: {
        tags: ['alerts'],
        summary: 'Save a search or feed filter: new listings that match it alert you',
        description: `At most ${SAVED_SEARCHES_MAX} per member; one more is 409 SAVED_SEARCH_LIMIT.`,
        body: savedSearchFormSchema,
        response: { 201: savedSearchSchema, 400: apiErrorSchema, 401: apiErrorSchema, 409: apiErrorSchema },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await alerts.saveSearch(app.db, request.member, request.body)),
  );

  routes.delete(
    '/api/saved-searches/:id',
    {
      schema: {
        tags: ['alerts'],
        summary: 'Remove one of your saved searches',
        params: savedSearchParamsSchema,
        response: { 204: z.undefined(), 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      await alerts.removeSavedSearch(app.db, request.member, request.params.id);
      return reply.code(204).send();
    },
  );

  routes.get(
    '/api/alerts/wanted-count',
    {
      config: memberRateLimit({
        name: 'wanted-count',
        max: WANTED_COUNT_PER_MINUTE,
        windowMs: 60_000,
        what: 'counts of neighbours who want an item',
      }),
      schema: {
        tags: ['alerts'],
        summary:
          'How many neighbours nearby want a thing like this draft ("4 neighbours within 2 miles want this")',
        description:
          'Counts other members whose active want or saved search the draft would match within their ' +
          'distance, as a listing alert would; never who. `withinMiles`: the farthest, to the whole mile up.',
        querystring: wantedCountQuerySchema,
        response: { 200: wantedCountSchema, 400: apiErrorSchema, 401: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request) =>
      alerts.wantedCount(app.db, request.member, {
        title: request.query.title,
        category: request.query.category,
        isService: request.query.isService === 'true',
      }),
  );
}
