import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { circleListQuerySchema, circleListSchema, circleSchema } from '#common/schemas/circles.ts';
import { apiErrorSchema } from '#common/schemas/errors.ts';
import { listingIdParamsSchema } from '#common/schemas/listings.ts';
import { presentCircle } from './circles-presenter';
import * as circles from './circles-service';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema };

/**
 * Trade circles (issue 16, ADR 029): the circles the finder proposed to the member, and their
 * answers. A circle the member is not part of answers 404, like an unknown one.
 */
export async function circlesRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const present = async (memberId: string, id: number) =>
    presentCircle(await circles.getCircle(app.db, { id: memberId }, id), memberId, new Date());

  routes.get(
    '/api/circles',
    {
      schema: {
        tags: ['circles'],
        summary: 'Your trade circles: those waiting for answers, or past ones',
        description:
          'box: proposed (waiting for every member to accept, within 3 days) or past (accepted, ' +
          'completed, declined, expired, cancelled). Newest first; `limit` and `offset` page it.',
        querystring: circleListQuerySchema,
        response: { 200: circleListSchema, 400: apiErrorSchema, 401: apiErrorSchema },
      },
    },
    async (request) => {
      const now = new Date();
      const { box, limit, offset } = request.query;
      const views = await circles.listCircles(app.db, request.member, box, { limit, offset }, now);
      return views.map((view) => presentCircle(view, request.member.id, now));
    },
  );

  routes.get(
    '/api/circles/:id',
    {
      schema: {
        tags: ['circles'],
        summary: 'A trade circle you are part of',
        params: listingIdParamsSchema,
        response: { 200: circleSchema, 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => present(request.member.id, request.params.id),
  );

  const actions = {
    accept: {
      summary: 'Accept a proposed circle; when everyone has, its hand-overs become accepted barters',
      run: circles.acceptCircle,
    },
    decline: { summary: 'Decline a proposed circle: it dissolves for everyone', run: circles.declineCircle },
  } as const;
  for (const [action, { summary, run }] of Object.entries(actions)) {
    routes.post(
      `/api/circles/:id/${action}`,
      {
        schema: {
          tags: ['circles'],
          summary,
          description:
            '409 CIRCLE_TRANSITION once the circle is no longer proposed (or you accepted already); ' +
            '409 CIRCLE_ITEM_UNAVAILABLE when an item can no longer change hands (the circle dissolves).',
          params: listingIdParamsSchema,
          response: { 200: circleSchema, ...errors },
        },
      },
      async (request) => {
        await run(app.db, request.member, request.params.id);
        return present(request.member.id, request.params.id);
      },
    );
  }
}
