import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ERROR_CODES } from '../../../common/error-codes';
import { apiErrorSchema } from '../../../common/schemas/errors';
import { migrationsApplied } from '../../db/migrate';
import { HttpError, serviceUnavailable } from '../../errors';

const okSchema = z.object({ status: z.literal('ok') });

/**
 * Liveness and readiness probes (docs/contract.md). Never shed under load (ADR 041): a shed liveness
 * probe would get a busy process restarted or taken out of the load balancer, and readiness is about
 * the database answering, which its own query finds out within DB_ACQUIRE_TIMEOUT_MS; failing every
 * busy process's readiness at once would take them all out together. Closing answers both 503.
 */
export async function healthRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    '/healthz',
    {
      config: { loadShedding: false },
      schema: { tags: ['health'], summary: 'The process is up', response: { 200: okSchema } },
    },
    async () => ({ status: 'ok' as const }),
  );
  routes.get(
    '/readyz',
    {
      config: { loadShedding: false },
      schema: {
        tags: ['health'],
        summary: 'The database answers and has every migration of this server',
        response: { 200: okSchema, 503: apiErrorSchema },
      },
    },
    async (request) => {
      let applied: boolean;
      try {
        // One statement: it reaches the database and reads what was migrated.
        applied = await migrationsApplied(app.db);
      } catch (error) {
        request.log.warn({ err: error }, 'database not ready');
        throw serviceUnavailable();
      }
      if (!applied) {
        request.log.warn('database not ready: migrations are not applied');
        // Lower case: a text for operators, not one the web app shows (scripts/i18n-known-messages.ts).
        throw new HttpError(
          503,
          ERROR_CODES.migrationsPending,
          'the database is missing migrations this server needs; they are applied when the server starts',
        );
      }
      return { status: 'ok' as const };
    },
  );
}
