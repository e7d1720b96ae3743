import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { DatabaseHandle } from './db/client';

/** The longest a shutdown may take; then the process exits anyway, with code 1 (docs/deploy.md). */
export const SHUTDOWN_LIMIT_MS = 10_000;
/**
 * How long requests in flight may take to finish before their connections are cut, leaving the
 * rest of SHUTDOWN_LIMIT_MS for the embedded database's CHECKPOINT.
 */
export const SHUTDOWN_REQUESTS_GRACE_MS = 7_000;

export interface ShutdownOptions {
  app: FastifyInstance;
  database: DatabaseHandle;
  logger: FastifyBaseLogger;
  /** process.exit, unless a test says otherwise. */
  exit?: (code: number) => void;
  limitMs?: number;
  requestsGraceMs?: number;
}

/**
 * What SIGTERM and SIGINT do (ADR 041): stop listening and answer new requests 503 (the load
 * shedding plugin's closing answer), end event streams, let requests in flight finish (their
 * connections are cut after `requestsGraceMs`), close the database (PGlite: CHECKPOINT, close, lock
 * released), exit 0. Past `limitMs` the process exits 1, and says so. A second signal is only logged:
 * a terminal's Ctrl-C reaches both npm and the server, and cutting the CHECKPOINT short helps nobody.
 */
export function gracefulShutdown(options: ShutdownOptions): (signal: string) => Promise<void> {
  const {
    app,
    database,
    logger,
    exit = (code: number) => process.exit(code),
    limitMs = SHUTDOWN_LIMIT_MS,
    requestsGraceMs = SHUTDOWN_REQUESTS_GRACE_MS,
  } = options;
  let started: number | null = null;
  return async (signal) => {
    if (started !== null) {
      logger.info({ signal }, 'already shutting down');
      return;
    }
    started = performance.now();
    const since = () => Math.round(performance.now() - (started ?? 0));
    logger.info({ signal }, 'shutting down: new requests get 503, requests in flight finish');
    const limit = setTimeout(() => {
      logger.error({ signal, ms: since() }, `shutdown did not finish within ${limitMs} ms; exiting anyway`);
      exit(1);
    }, limitMs);
    limit.unref();
    const grace = setTimeout(() => {
      logger.warn({ ms: since() }, 'requests still in flight; closing their connections');
      app.server.closeAllConnections();
    }, requestsGraceMs);
    grace.unref();

    let code = 0;
    try {
      await app.close();
    } catch (error) {
      logger.error({ err: error }, 'closing the server failed');
      code = 1;
    } finally {
      clearTimeout(grace);
    }
    try {
      await database.close();
    } catch (error) {
      logger.error({ err: error }, 'closing the database failed');
      code = 1;
    }
    clearTimeout(limit);
    logger.info({ ms: since(), code }, 'stopped');
    exit(code);
  };
}
