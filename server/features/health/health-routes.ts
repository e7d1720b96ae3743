import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../../common/schemas/errors';
import { serviceUnavailable } from '../../errors';

const okSchema = z.object({ status: z.literal('ok') });

/** Liveness and readiness probes (docs/contract.md). */
export async function healthRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    '/healthz',
    { schema: { tags: ['health'], summary: 'The process is up', response: { 200: okSchema } } },
    async () => ({ status: 'ok' as const }),
  );
  routes.get(
    '/readyz',
    {
      schema: {
        tags: ['health'],
        summary: 'The database answers',
        response: { 200: okSchema, 503: apiErrorSchema },
      },
    },
    async (request) => {
      try {
        await app.database.ping();
      } catch (error) {
        request.log.warn({ err: error }, 'database not ready');
        throw serviceUnavailable();
      }
      return { status: 'ok' as const };
    },
  );
}
