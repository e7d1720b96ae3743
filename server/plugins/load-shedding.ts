import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
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
  /** Event-loop delay (ms, see EventLoopDelay) at or above which requests are shed; 0: never. */
  eventLoopDelayMs: number;
  /** Callers already waiting for a database connection at which requests are shed; 0: never. */
  dbWaiting: number;
  /** How long the caller first in line for a connection may have waited (ms) before requests are shed; 0: never. PGlite only. */
  dbWaitMs: number;
}

export interface LoadShedding {
  /** Why a request arriving now would be shed, or null when it would be served. */
  pressure(): ShedReason | null;
  /** Requests shed since start, by reason (read by the metrics when scraped). */
  shedCounts(): Record<ShedReason, number>;
  /** The event-loop delay the last sample saw, in ms. */
  eventLoopDelayMs(): number;
}

/** How often the event-loop delay is sampled; shedding for it lasts about this long after a stall. */
export const EVENT_LOOP_SAMPLE_MS = 250;
/** The event-loop delay monitor's own timer, in ms. */
const RESOLUTION_MS = 10;
/** While closing, how often connections that went idle are closed. */
const REAP_IDLE_MS = 100;
/** `Retry-After` of a shed request, in seconds: an overload passes quickly, or the retries spread it. */
export const SHED_RETRY_AFTER_SECONDS = 2;
/** `Retry-After` while the process closes: a restart takes a few seconds. */
export const CLOSING_RETRY_AFTER_SECONDS = 5;

/**
 * How late the event loop runs, sampled every EVENT_LOOP_SAMPLE_MS: the larger of the mean delay of
 * Node's event-loop delay monitor over the sample (a loop busy with many short tasks) and how late
 * the sampling timer itself fired (one long stall, which the mean of many short ticks would hide),
 * the way @fastify/under-pressure measures it.
 */
export class EventLoopDelay {
  #delayMs = 0;
  #last = performance.now();
  readonly #histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  readonly #timer: NodeJS.Timeout;

  constructor(readonly sampleMs = EVENT_LOOP_SAMPLE_MS) {
    this.#histogram.enable();
    this.#timer = setInterval(() => this.#sample(), sampleMs);
    this.#timer.unref();
  }

  /** The delay the last sample saw, in ms. */
  get ms(): number {
    return this.#delayMs;
  }

  #sample(): void {
    const now = performance.now();
    const late = now - this.#last - this.sampleMs;
    this.#last = now;
    const mean = this.#histogram.count > 0 ? this.#histogram.mean / 1e6 - RESOLUTION_MS : 0;
    this.#histogram.reset();
    this.#delayMs = Math.max(0, late, mean);
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#histogram.disable();
  }
}

/** Which limit `stats` and `eventLoopDelayMs` break, if any (the database's first: it says more). */
export function pressureOf(
  limits: LoadSheddingLimits,
  stats: PoolStats,
  eventLoopDelayMs: number,
): ShedReason | null {
  if (limits.dbWaiting > 0 && stats.waiting >= limits.dbWaiting) return 'db_waiting';
  if (limits.dbWaitMs > 0 && (stats.oldestWaitMs ?? 0) >= limits.dbWaitMs) return 'db_wait';
  if (limits.eventLoopDelayMs > 0 && eventLoopDelayMs >= limits.eventLoopDelayMs) return 'event_loop_delay';
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
 *   SHED_DB_WAITING), the first of them has waited SHED_DB_WAIT_MS (PGlite), or the event loop runs
 *   SHED_EVENT_LOOP_DELAY_MS late, a request gets an immediate 503 SERVICE_UNAVAILABLE with
 *   `Retry-After` instead of joining the line; the next request that finds the line short again is
 *   served (nothing to reset). Routes with `config: { loadShedding: false }` are never shed.
 * - once the app is closing (SIGTERM), every new request, probes included, gets 503 with
 *   `Connection: close`, and answers to requests already in flight close their connection too, so
 *   keep-alive connections do not hold the close up. This replaces Fastify's `return503OnClosing`,
 *   whose body is not in the contract's `{ message, code }` shape.
 */
export function loadSheddingPlugin(app: FastifyInstance, limits: LoadSheddingLimits): void {
  const delay = limits.eventLoopDelayMs > 0 ? new EventLoopDelay() : null;
  const counts = Object.fromEntries(SHED_REASONS.map((reason) => [reason, 0])) as Record<ShedReason, number>;
  const { database } = app;
  let closing = false;

  const pressure = () => pressureOf(limits, database.poolStats(), delay?.ms ?? 0);
  app.decorate('loadShedding', {
    pressure,
    shedCounts: () => ({ ...counts }),
    eventLoopDelayMs: () => delay?.ms ?? 0,
  } satisfies LoadShedding);

  app.addHook('onRequest', async (request, reply) => {
    if (closing) {
      counts.closing++;
      reply.header('connection', 'close');
      return refuse(reply, CLOSING_RETRY_AFTER_SECONDS);
    }
    if (request.routeOptions.config.loadShedding === false) return;
    const reason = pressure();
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
    closing = true;
    // Node closes the connections idle when the server closes, not those that go idle afterwards
    // (a request in flight answered, an event stream ended): those would hold the close up until
    // their keep-alive timeout (REQUEST_TIMEOUT_MS).
    reaper = setInterval(() => app.server.closeIdleConnections(), REAP_IDLE_MS);
    reaper.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(reaper);
    delay?.stop();
  });
}
