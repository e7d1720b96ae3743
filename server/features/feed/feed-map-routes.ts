import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '#common/schemas/errors.ts';
import { feedParamsSchema } from '#common/schemas/feed.ts';
import { FEED_MAP_MAX_ITEMS, feedMapQuerySchema, feedMapSchema } from '#common/schemas/maps.ts';
import { getFeedMap } from './feed-map';
import { sessionSeed } from './feed-routes';

/** A feed's map (ADR 086), for signed-in members. */
export async function feedMapRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    '/api/feed/:feedName/map',
    {
      schema: {
        tags: ['feed'],
        summary: "A feed's first items at their approximate points, for its map",
        description:
          `The first ${FEED_MAP_MAX_ITEMS} items of the feed with its filters and sort (radius, sort, q, ` +
          "seed, as GET /api/feed/{feedName}), each at its owner's public point rounded to 0.01 degree " +
          "(the area maps' centre, never a home); items whose owner has no location are counted, not " +
          "placed. `centre`: the viewer's own area, rounded the same way. Unknown feed: 404 FEED_NOT_FOUND.",
        params: feedParamsSchema,
        querystring: feedMapQuerySchema,
        response: { 200: feedMapSchema, 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) =>
      getFeedMap(
        app.db,
        app.feedCaches,
        request.member,
        request.params.feedName,
        request.query,
        sessionSeed(request),
      ),
  );
}
