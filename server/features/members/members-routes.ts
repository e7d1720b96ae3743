import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '#common/schemas/errors.ts';
import { feedListSchema } from '#common/schemas/feed.ts';
import { ownListQuerySchema, TOTAL_COUNT_HEADER } from '#common/schemas/listings.ts';
import {
  MEMBER_ERROR_CODES,
  MEMBER_WANTS_MAX,
  memberParamsSchema,
  memberProfileSchema,
  memberRatingListSchema,
  memberWantListSchema,
} from '#common/schemas/members.ts';
import { forbidden, notFound } from '../../errors';
import { isMemberId } from '../member-refs';
import { areHidden, hasBlocked } from '../safety';
import * as membersService from './members-service';

const PAGED =
  '`limit` (default 50, at most 100) and `offset` page the list; the X-Total-Count header says how ' +
  'many there are in all. Unknown and malformed ids: 404.';

/**
 * A member's public page (issue 13), for signed-in members: who they are (no e-mail, no position),
 * their record, the items they offer, what they want and the ratings they received.
 */
export async function membersRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema };
  // Members who blocked each other do not see each other's page (ADR 025). The blocker is told so
  // (403 MEMBER_BLOCKED_BY_YOU: they know already); the blocked member gets the 404 of an unknown id,
  // which tells them nothing new (issue 28).
  app.addHook('preHandler', async (request) => {
    const id = (request.params as { id?: string } | undefined)?.id;
    if (!id || !isMemberId(id) || !(await areHidden(app.db, request.member.id, id))) return;
    if (await hasBlocked(app.db, request.member.id, id)) {
      throw forbidden('You blocked this member.', MEMBER_ERROR_CODES.blockedByYou);
    }
    throw notFound('Member not found.');
  });

  routes.get(
    '/api/members/:id',
    {
      schema: {
        tags: ['members'],
        summary: "A member's public profile: name, picture, approximate area, member since, trade record",
        description:
          '`area` is the town nearest the public point (never the exact one); `stats` are those of ' +
          'GET /api/users/:id/trade-stats. Unknown and malformed ids: 404.',
        params: memberParamsSchema,
        response: { 200: memberProfileSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => membersService.getMemberProfile(app.db, request.params.id),
  );

  routes.get(
    '/api/members/:id/ratings',
    {
      schema: {
        tags: ['members'],
        summary: 'Ratings the member received, newest first, a page at a time',
        description: PAGED,
        params: memberParamsSchema,
        querystring: ownListQuerySchema,
        response: { 200: memberRatingListSchema, ...errors },
      },
    },
    async (request, reply) => {
      const page = await membersService.listMemberRatings(app.db, request.params.id, request.query);
      reply.header(TOTAL_COUNT_HEADER, String(page.total));
      return page.rows;
    },
  );

  routes.get(
    '/api/members/:id/items',
    {
      schema: {
        tags: ['members'],
        summary: "The member's active items not held by an accepted barter, newest first, as feed cards",
        description: PAGED,
        params: memberParamsSchema,
        querystring: ownListQuerySchema,
        response: { 200: feedListSchema, ...errors },
      },
    },
    async (request, reply) => {
      const page = await membersService.listMemberItems(
        app.db,
        request.member,
        request.params.id,
        request.query,
      );
      reply.header(TOTAL_COUNT_HEADER, String(page.total));
      return page.rows;
    },
  );

  routes.get(
    '/api/members/:id/wants',
    {
      schema: {
        tags: ['members'],
        summary: `The member's active wants, newest first (at most ${MEMBER_WANTS_MAX})`,
        params: memberParamsSchema,
        response: {
          200: memberWantListSchema,
          401: apiErrorSchema,
          403: apiErrorSchema,
          404: apiErrorSchema,
        },
      },
    },
    async (request) => membersService.listMemberWants(app.db, request.params.id),
  );
}
