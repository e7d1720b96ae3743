import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ERROR_CODES } from '#common/error-codes.ts';
import { apiErrorSchema } from '#common/schemas/errors.ts';
import { migrationsApplied } from '../../db/migrate';
import { HttpError, serviceUnavailable } from '../../errors';
import { cachedCheck } from './cached-check';

const okSchema = z.object({ status: z.literal('ok') });

/** Longest wait for the photo store's answer before readiness says no (ADR 053). */
export const PHOTO_STORE_CHECK_TIMEOUT_MS = 2_000;
/** How long the photo store's answer is kept: probes reach the store at most once per this. */
export const PHOTO_STORE_CHECK_KEEP_MS = 5_000;

/**
 * Liveness and readiness probes (docs/contract.md). Never shed under load (ADR 041): a shed liveness
 * probe would get a busy process restarted or taken out of the load balancer, and readiness is about
 * the database answering, which its own query finds out within DB_ACQUIRE_TIMEOUT_MS; failing every
 * busy process's readiness at once would take them all out together. Closing answers both 503.
 * Readiness includes the photo store (ADR 053): a bucket that cannot be reached, or a photo
 * directory the server cannot write to, makes it 503 PHOTO_STORAGE_UNAVAILABLE; its answer is
 * bounded (PHOTO_STORE_CHECK_TIMEOUT_MS) and kept briefly (PHOTO_STORE_CHECK_KEEP_MS).
 */
export async function healthRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const photoStoreReady = cachedCheck(
    () => app.photoStore.check(PHOTO_STORE_CHECK_TIMEOUT_MS),
    PHOTO_STORE_CHECK_KEEP_MS,
  );
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
        summary: 'The database answers and has every migration of this server; the photo store answers',
        response: { 200: okSchema, 503: apiErrorSchema },
      },
    },
    async (request) => {
      // Asked at once, beside the database's statement; answered after it (the database comes first).
      const photoStore = photoStoreReady().then(
        () => null,
        (error: unknown) => error,
      );
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
      const storeError = await photoStore;
      if (storeError) {
        // Where the store is goes to the log only: the probe is open to anyone.
        request.log.warn({ err: storeError, store: app.photoStore.description }, 'photo store not ready');
        // Lower case: a text for operators, not one the web app shows (scripts/i18n-known-messages.ts).
        throw new HttpError(
          503,
          ERROR_CODES.photoStorageUnavailable,
          'the photo store cannot be reached or written to; the log says which and why',
        );
      }
      return { status: 'ok' as const };
    },
  );
}
