import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '#common/schemas/errors.ts';
import {
  FEED_SEED_MAX,
  feedListSchema,
  feedParamsSchema,
  feedQuerySchema,
  itemDetailSchema,
  showingForQuerySchema,
  showingForSchema,
} from '#common/schemas/feed.ts';
import { listingIdParamsSchema } from '#common/schemas/listings.ts';
import { sessionCookieOf } from '../../plugins/session';
import { registeredFeeds } from './feed-registry';
import { getFeed, getItemDetail, getPublicItemDetail } from './feed-service';
import { showingFor } from './showing-for';

/** A random-barter seed that stays the same for one session (its cookie), when the client sends none. */
export function sessionSeed(request: FastifyRequest): number {
  const cookie = sessionCookieOf(request);
  return createHash('sha256').update(cookie).digest().readUInt32BE(0) % (FEED_SEED_MAX + 1);
}

/** The home feeds (docs/matching.md) and an item's detail, for signed-in members. */
export async function feedRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  // The feeds registered (feed-registry.ts): the route serves whichever the table holds.
  const names = registeredFeeds().map((feed) => feed.name);
  const feedList = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names.join('');

  routes.get(
    '/api/feed/:feedName',
    {
      schema: {
        tags: ['feed'],
        summary: `One page of a feed: ${feedList}`,
        description:
          'Candidates are active items of other members within `radius` miles (no distance filter ' +
          'when the member has no location). `q` searches titles, descriptions and categories ' +
          '(web-search syntax: quoted phrases, OR, -exclusions; a word no listing has is corrected to ' +
          'its near spellings); with it, title hits come first, then the chosen sort. ' +
          '`sort`: recent, distance (recent without a location), value (unknown last), match ' +
          '(barter-match only; recent elsewhere). random-barter follows `seed` (or the session). ' +
          'Unknown feed: 404 FEED_NOT_FOUND.',
        params: feedParamsSchema,
        querystring: feedQuerySchema,
        response: {
          200: feedListSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          404: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const viewer = request.member;
      return getFeed(
        app.db,
        app.feedCaches,
        viewer,
        request.params.feedName,
        request.query,
        sessionSeed(request),
      );
    },
  );

  routes.get(
    '/api/search/showing-for',
    {
      schema: {
        tags: ['feed'],
        summary: 'The search text as the results read it: "Showing results for guitar"',
        description:
          'Each word no listing has replaced by its first near spelling (the feed search corrects it the ' +
          'same way), spelt as a listed title spells it; `showingFor` is null when no word was corrected.',
        querystring: showingForQuerySchema,
        response: { 200: showingForSchema, 400: apiErrorSchema, 401: apiErrorSchema },
      },
    },
    async (request) => ({ showingFor: await showingFor(app.db, request.query.q) }),
  );

  routes.get(
    '/api/items/:id',
    {
      schema: {
        tags: ['feed'],
        summary: "An item's detail: anyone's active item, or any of your own",
        description: 'Counts a view when someone other than the owner opens it. Missing or hidden: 404.',
        params: listingIdParamsSchema,
        response: { 200: itemDetailSchema, 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      const detail = await getItemDetail(app.db, request.member, request.params.id);
      return detail;
    },
  );
}

/**
 * An item's page for anyone who passed the site gate, signed in or not (issue 31, ADR 083): what a
 * shared link shows a visitor, and what the served page's Open Graph tags are made of.
 */
export async function publicItemRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    '/api/public/items/:id',
    {
      schema: {
        tags: ['feed'],
        summary: 'An active item as its shared page shows it to anyone past the site gate',
        description:
          "No distance, match, saved mark or open barter (those are the signed-in detail's, " +
          "GET /api/items/{id}); the area is the owner's public point and town, never the exact " +
          'position. Unknown, hidden, removed or traded: 404. No view is counted.',
        params: listingIdParamsSchema,
        response: { 200: itemDetailSchema, 400: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => getPublicItemDetail(app.db, request.params.id),
  );
}
