import net from 'node:net';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { DatabaseHandle } from './db/client';
import { closeWorkerPool } from './workers/pool';

/** The longest a shutdown may take; then the process exits anyway, with code 1 (docs/deploy.md). */
export const SHUTDOWN_LIMIT_MS = 10_000;
/**
 * How long requests in flight may take to finish before their connections are cut, leaving the
 * rest of SHUTDOWN_LIMIT_MS for the embedded database's CHECKPOINT.
 */
export const SHUTDOWN_REQUESTS_GRACE_MS = 7_000;
/**
 * How long the server keeps listening after the signal, answering every request 503 with
 * `Connection: close`, before it stops. Stopping at once closes every idle kept-alive connection at
 * that instant, and a client sending its next request on one just then sees it reset (npm run
 * test:faults, shutdown-under-load); during the drain each such client is told to close instead, and
 * a load balancer's health check sees the 503 and stops sending.
 */
export const SHUTDOWN_DRAIN_MS = 1_000;
/**
 * After the drain the server stops accepting connections, and waits this long before closing: each
 * connection still open gets its last answer (503, `Connection: close`) and is closed after it, so
 * hardly any is idle, and cut, when the server closes the idle ones.
 */
export const SHUTDOWN_LAST_ANSWERS_MS = 300;

export interface ShutdownOptions {
  app: FastifyInstance;
  database: DatabaseHandle;
  logger: FastifyBaseLogger;
  /** Ends the worker pool's threads (ADR 048); the process's pool unless a test says otherwise. */
  closeWorkers?: () => Promise<void>;
  /** process.exit, unless a test says otherwise. */
  exit?: (code: number) => void;
  limitMs?: number;
  requestsGraceMs?: number;
  drainMs?: number;
}

/**
 * What SIGTERM and SIGINT do (ADR 041): answer new requests 503 with `Connection: close` (the load
 * shedding plugin's closing answer) for SHUTDOWN_DRAIN_MS, then stop listening, end event streams, let requests in flight finish (their
 * connections are cut after `requestsGraceMs`), end the worker pool's threads, close the database (PGlite: CHECKPOINT, close, lock
 * released), exit 0. Past `limitMs` the process exits 1, and says so. A second signal is only logged:
 * a terminal's Ctrl-C reaches both npm and the server, and cutting the CHECKPOINT short helps nobody.
 */
export function gracefulShutdown(options: ShutdownOptions): (signal: string) => Promise<void> {
  const {
    app,
    database,
    logger,
    closeWorkers = closeWorkerPool,
    exit = (code: number) => process.exit(code),
    limitMs = SHUTDOWN_LIMIT_MS,
    requestsGraceMs = SHUTDOWN_REQUESTS_GRACE_MS,
    drainMs = SHUTDOWN_DRAIN_MS,
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
    app.loadShedding.startClosing();
    await new Promise((resolve) => setTimeout(resolve, drainMs));
    // Stop listening without closing the idle connections yet (http.Server.close does both at once;
    // Fastify's close below accepts a server that already stopped listening).
    if (app.server.listening) {
      net.Server.prototype.close.call(app.server);
      await new Promise((resolve) => setTimeout(resolve, Math.min(drainMs, SHUTDOWN_LAST_ANSWERS_MS)));
    }
    try {
      await app.close();
    } catch (error) {
      logger.error({ err: error }, 'closing the server failed');
      code = 1;
    } finally {
      clearTimeout(grace);
    }
    // Requests and jobs have ended: a task still in the pool has no one waiting for its answer.
    try {
      await closeWorkers();
    } catch (error) {
      logger.error({ err: error }, 'closing the worker pool failed');
      code = 1;
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
