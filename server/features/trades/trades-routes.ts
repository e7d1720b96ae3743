import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '#common/schemas/errors.ts';
import { tradeListQuerySchema, tradeListSchema, tradeStatsSchema } from '#common/schemas/trades.ts';
import { requireMemberId } from '../member-refs';
import { presentTrade } from './trades-presenter';
import { findCompletedTrades } from './trades-repository';
import { tradeStatsOf } from './trades-service';

const userParamsSchema = z.object({ id: z.string() });

/**
 * Trade history and stats of any member, for signed-in members (spec sections 3, 6 and 7).
 * Unknown and malformed ids answer 404 alike.
 */
export async function tradesRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  const loadMember = (id: string) => requireMemberId(app.db, id);

  routes.get(
    '/api/users/:id/trades',
    {
      schema: {
        tags: ['trades'],
        summary: "A member's completed trades, newest first",
        description:
          'At most `limit` (default 50, at most 100); the total is trade-stats.totalTrades. ' +
          "E-mail fields are null except for the asking member's own side.",
        params: userParamsSchema,
        querystring: tradeListQuerySchema,
        response: { 200: tradeListSchema, 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      const viewer = request.member;
      const userId = await loadMember(request.params.id);
      const rows = await findCompletedTrades(app.db, userId, request.query.limit);
      return rows.map((row) => presentTrade(row, viewer.id));
    },
  );

  routes.get(
    '/api/users/:id/trade-stats',
    {
      schema: {
        tags: ['trades'],
        summary: "A member's completed trades, average rating received and trades this month (UTC)",
        params: userParamsSchema,
        response: { 200: tradeStatsSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      return tradeStatsOf(app.db, await loadMember(request.params.id));
    },
  );
}
