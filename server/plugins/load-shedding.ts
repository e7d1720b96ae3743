import type { FastifyInstance, FastifyReply } from 'fastify';
import type { PoolStats } from '../db/client';
import { serviceUnavailable } from '../errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `false`: never shed this route under load (the health probes and metrics, ADR 041). Closing
     * still answers it 503.
     */
    loadShedding?: boolean;
  }
  interface FastifyInstance {
    /** This process's load shedding (server/plugins/load-shedding.ts, ADR 041). */
    loadShedding: LoadShedding;
  }
}

/** Why a request was answered 503 before it ran: the `reason` label of `http_requests_shed_total`. */
export type ShedReason = 'event_loop_delay' | 'db_waiting' | 'db_wait' | 'closing';
export const SHED_REASONS: readonly ShedReason[] = ['event_loop_delay', 'db_waiting', 'db_wait', 'closing'];

export interface LoadSheddingLimits {
  /** How long a turn of the event loop may have been reading requests (ms, RequestTurn) before it sheds them; 0: never. */
  eventLoopDelayMs: number;
  /** Callers already waiting for a database connection at which requests are shed; 0: never. */
  dbWaiting: number;
  /** How long the first caller in line for a connection may have waited (ms) before requests are shed; 0: never; PGlite only. */
  dbWaitMs: number;
}

export interface LoadShedding {
  /**
   * Answer every new request 503 with `Connection: close` from now on (shutdown's drain, before the
   * server stops listening; server/shutdown.ts).
   */
  startClosing(): void;
  /** Why a request read now, after its turn has run `turnAgeMs`, would be shed, or null when it would be served. */
  pressure(turnAgeMs?: number): ShedReason | null;
  /** Requests shed since start, by reason (read by the metrics when scraped). */
  shedCounts(): Record<ShedReason, number>;
}

/** While closing, how often connections that went idle are closed. */
const REAP_IDLE_MS = 100;
/** `Retry-After` of a shed request, in seconds: an overload passes quickly, or the retries spread it. */
export const SHED_RETRY_AFTER_SECONDS = 2;
/** `Retry-After` while the process closes: a restart takes a few seconds. */
export const CLOSING_RETRY_AFTER_SECONDS = 5;

/**
 * How long the event loop has been reading requests without coming round: the first request read
 * in a turn of the loop starts the clock, and a setImmediate (which runs once the loop has read
 * what it had to read) stops it. A request read when the clock shows `ms` has waited at least that
 * long behind the requests of its turn. On the embedded database every statement runs on this
 * thread, and a query's work, and the queued queries behind it, run without the loop coming round:
 * a burst of requests is one long turn. Requests read late in it are shed at once (a fraction of a
 * millisecond each), which keeps the turn, and so every request's wait, short; the next turn starts
 * afresh, so nothing lags behind. A stall outside request work (a background job's statement, a
 * start-up) does not count against the requests read after it.
 */
export class RequestTurn {
  #startedAt: number | null = null;
  readonly #end = () => {
    this.#startedAt = null;
  };

  /** Called as each request is read: how long its turn has run so far, in ms. */
  read(now = performance.now()): number {
    if (this.#startedAt === null) {
      this.#startedAt = now;
      setImmediate(this.#end);
      return 0;
    }
    return now - this.#startedAt;
  }
}

/** Which limit `stats` and the event loop's `turnAgeMs` break, if any (the database's first: it says more). */
export function pressureOf(
  limits: LoadSheddingLimits,
  stats: PoolStats,
  turnAgeMs: number,
): ShedReason | null {
  if (limits.dbWaiting > 0 && stats.waiting >= limits.dbWaiting) return 'db_waiting';
  if (limits.dbWaitMs > 0 && (stats.oldestWaitMs ?? 0) >= limits.dbWaitMs) return 'db_wait';
  if (limits.eventLoopDelayMs > 0 && turnAgeMs >= limits.eventLoopDelayMs) return 'event_loop_delay';
  return null;
}

/**
 * 503 SERVICE_UNAVAILABLE in the contract's shape, sent from the hook rather than thrown: the error
 * handler logs every 5xx as a failure with its stack, thousands of lines a second under overload; the
 * counter and the request's own log line (status 503) say it instead.
 */
function refuse(reply: FastifyReply, retryAfterSeconds: number): FastifyReply {
  const { message, code } = serviceUnavailable();
  return reply
    .code(503)
    .header('retry-after', String(retryAfterSeconds))
    .type('application/json; charset=utf-8')
    .send({ message, code });
}

/**
 * Load shedding and the closing answer (ADR 041). Register before any other request hook, so a
 * refused request costs no security headers, session read or body parsing:
 *
 * - when too many callers already wait for a database connection (PoolStats.waiting at
 *   SHED_DB_WAITING), the first of them has waited SHED_DB_WAIT_MS (PGlite), or the event loop's
 *   current turn has been reading requests for SHED_EVENT_LOOP_DELAY_MS (RequestTurn), a request
 *   gets an immediate 503 SERVICE_UNAVAILABLE with `Retry-After` instead of joining the line; the
 *   next request that finds the line short again is served (nothing to reset). Routes with
 *   `config: { loadShedding: false }` are never shed.
 * - once the app is closing (SIGTERM), every new request, probes included, gets 503 with
 *   `Connection: close`, and answers to requests already in flight close their connection too, so
 *   keep-alive connections do not hold the close up. This replaces Fastify's `return503OnClosing`,
 *   whose body is not in the contract's `{ message, code }` shape.
 */
export function loadSheddingPlugin(app: FastifyInstance, limits: LoadSheddingLimits): void {
  const turn = new RequestTurn();
  const counts = Object.fromEntries(SHED_REASONS.map((reason) => [reason, 0])) as Record<ShedReason, number>;
  const { database } = app;
  let closing = false;

  const pressure = (turnAgeMs = 0) => pressureOf(limits, database.poolStats(), turnAgeMs);
  const startClosing = () => {
    closing = true;
  };
  app.decorate('loadShedding', {
    startClosing,
    pressure,
    shedCounts: () => ({ ...counts }),
  } satisfies LoadShedding);

  app.addHook('onRequest', async (request, reply) => {
    const turnAgeMs = turn.read();
    if (closing) {
      counts.closing++;
      reply.header('connection', 'close');
      return refuse(reply, CLOSING_RETRY_AFTER_SECONDS);
    }
    if (request.routeOptions.config.loadShedding === false) return;
    const reason = pressure(turnAgeMs);
    if (reason === null) return;
    counts[reason]++;
    request.log.debug({ reason }, 'request shed');
    return refuse(reply, SHED_RETRY_AFTER_SECONDS);
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  let reaper: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    startClosing();
    // Node closes the connections idle when the server closes, not those that go idle afterwards
    // (a request in flight answered, an event stream ended): those would hold the close up until
    // their keep-alive timeout (REQUEST_TIMEOUT_MS).
    reaper = setInterval(() => app.server.closeIdleConnections(), REAP_IDLE_MS);
    reaper.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(reaper);
  });
}
