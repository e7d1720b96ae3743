import type { FastifyInstance, FastifyReply } from 'fastify';
import type { PoolStats } from '../db/client';
import { serviceUnavailable } from '../errors';
import { databaseCost, isPageNeed, ROUTE_COSTS, type RouteCost, routeCost } from './route-costs';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `false`: never shed this route under load (the health probes and metrics, ADR 041, and what a
     * page needs, ADR 051). Closing still answers it 503.
     */
    loadShedding?: boolean;
    /** What answering costs (server/plugins/route-costs.ts, ADR 051): the costliest are shed first. */
    cost?: RouteCost;
    /** What it costs the database's line, where that is less (route-costs.ts `DATABASE_COSTS`, ADR 114). */
    databaseCost?: RouteCost;
  }
  interface FastifyInstance {
    /** This process's load shedding (server/plugins/load-shedding.ts, ADRs 041 and 051). */
    loadShedding: LoadShedding;
  }
}

/** Why a request was answered 503 before it ran: the `reason` label of `http_requests_shed_total`. */
export type ShedReason = 'event_loop_delay' | 'db_waiting' | 'db_wait' | 'closing';
export const SHED_REASONS: readonly ShedReason[] = ['event_loop_delay', 'db_waiting', 'db_wait', 'closing'];

export interface LoadSheddingLimits {
  /**
   * How long requests may wait for the event loop (ms): the turn that reads them has run this long
   * and as much admitted work is still waiting; 0: never.
   */
  eventLoopDelayMs: number;
  /** Callers already waiting for a database connection at which requests are shed; 0: never. */
  dbWaiting: number;
  /** How long the first caller in line for a connection may have waited (ms) before requests are shed; 0: never; PGlite only. */
  dbWaitMs: number;
}

/**
 * The main-thread and database work a request of each cost adds, in ms: a rough figure from
 * docs/performance.md (PGlite answers an ordinary read in 4-9 ms, a feed in tens), used to weigh
 * the work admitted and not yet answered (`Load.waitingMs`). Cheap requests are not counted: they
 * are never shed, and an event stream's connect would otherwise count for the stream's life.
 */
export const COST_MS: Readonly<Record<RouteCost, number>> = { cheap: 0, standard: 8, costly: 32 };

/**
 * The pressure (1: at a limit) from which each cost is shed: the costly at the limits, the
 * standard at twice them, the cheap never (refusing them saves less than answering them costs,
 * once their retry is counted). ADR 051.
 */
export const SHED_FROM: Readonly<Record<RouteCost, number>> = {
  cheap: Number.POSITIVE_INFINITY,
  standard: 2,
  costly: 1,
};

/** The event loop's side of the pressure at one moment. */
export interface Load {
  /** How long the current turn of the loop has been reading requests (RequestTurn). */
  turnAgeMs: number;
  /** The work admitted and not yet answered (COST_MS of each request in flight). */
  waitingMs: number;
}

/** How hard pressed the process is (1: a limit reached) and by what. */
export interface Pressure {
  level: number;
  reason: ShedReason | null;
}

export interface LoadShedding {
  /**
   * Answer every new request 503 with `Connection: close` from now on (shutdown's drain, before the
   * server stops listening; server/shutdown.ts).
   */
  startClosing(): void;
  /** The pressure a request read now would meet. */
  pressure(): Pressure;
  /** Whether a request of this cost read now would be shed (the page render asks before drawing). */
  wouldShed(cost: RouteCost): boolean;
  /** The event loop's load now. */
  load(): Load;
  /** Requests shed since start, by reason (read by the metrics when scraped). */
  shedCounts(): Record<ShedReason, number>;
  /** Requests shed under pressure since start, by their route's cost (closing not included). */
  shedCountsByCost(): Record<RouteCost, number>;
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
 * what it had to read) stops it. On the embedded database every statement runs on this thread, and
 * a query's work, and the queued queries behind it, run without the loop coming round: a burst of
 * requests is one long turn. A turn's age alone says the loop was late, not that anything still
 * waits: a request read after a stall whose work is done (a photo's analysis, a solve) has already
 * waited, and refusing it shortens nobody's wait. So the age counts only together with the work
 * still waiting (`Load`, `pressureOf`).
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

  /** How long the current turn has run, without starting one (0 when no request was read in it). */
  age(now = performance.now()): number {
    return this.#startedAt === null ? 0 : now - this.#startedAt;
  }
}

/**
 * How hard pressed the process is, as the largest share of a limit reached (1: at a limit), and
 * which limit: the database's line by its length and its first caller's wait, and the event loop by
 * the work that waits for it: the lesser of how long the current turn has run and how much admitted
 * work is still unanswered. A long turn with nothing left waiting (a stall that is over) is no
 * pressure; neither is work in flight while the loop comes round promptly (PostgreSQL's pool doing
 * it elsewhere). On a tie the database's reason is named: it says more.
 */
export function pressureOf(limits: LoadSheddingLimits, stats: PoolStats, load: Load): Pressure {
  let level = 0;
  let reason: ShedReason | null = null;
  const consider = (candidate: ShedReason, share: number) => {
    if (share > level) {
      level = share;
      reason = candidate;
    }
  };
  if (limits.dbWaiting > 0) consider('db_waiting', stats.waiting / limits.dbWaiting);
  if (limits.dbWaitMs > 0) consider('db_wait', (stats.oldestWaitMs ?? 0) / limits.dbWaitMs);
  if (limits.eventLoopDelayMs > 0) {
    consider('event_loop_delay', Math.min(load.turnAgeMs, load.waitingMs) / limits.eventLoopDelayMs);
  }
  return { level, reason };
}

/** Whether a request of `cost` meeting `pressure` is shed. */
export function shedsAt(cost: RouteCost, pressure: Pressure): boolean {
  return pressure.reason !== null && pressure.level >= SHED_FROM[cost];
}

/**
 * Why a request is shed, or null when it is admitted: judged at its cost, except that a route whose
 * cost is the CPU (`onDatabase` lower than `cost`, ADR 114) is judged by the database's line at
 * `onDatabase` and by the event loop alone at `cost`.
 */
export function shedReason(
  cost: RouteCost,
  onDatabase: RouteCost,
  limits: LoadSheddingLimits,
  stats: PoolStats,
  load: Load,
): ShedReason | null {
  const now = pressureOf(limits, stats, load);
  if (!shedsAt(cost, now)) return null;
  if (onDatabase === cost || now.reason === 'event_loop_delay') return now.reason;
  const eventLoop = pressureOf({ ...limits, dbWaiting: 0, dbWaitMs: 0 }, stats, load);
  if (shedsAt(cost, eventLoop)) return eventLoop.reason;
  const database = pressureOf({ ...limits, eventLoopDelayMs: 0 }, stats, load);
  return shedsAt(onDatabase, database) ? database.reason : null;
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
 * Load shedding and the closing answer (ADRs 041 and 051). Register before any other request hook
 * and before any route, so a refused request costs no security headers, session read or body
 * parsing, and every route gets its cost:
 *
 * - each route's `config.cost` is set as it is registered (server/plugins/route-costs.ts), and what
 *   a page needs gets `loadShedding: false`. Requests matching no route (the HTML shell and the
 *   drawn pages, from the not-found handler) and the static files are cheap: never shed.
 * - a request is answered at once with 503 SERVICE_UNAVAILABLE and `Retry-After` when the pressure
 *   (`pressureOf`: the database's line, the event loop's waiting work, against SHED_DB_WAITING,
 *   SHED_DB_WAIT_MS and SHED_EVENT_LOOP_DELAY_MS) reaches its cost's `SHED_FROM`: the costly at the
 *   limits, the standard at twice them, the cheap never. Nothing to reset: the next request that
 *   finds the pressure lower is served.
 * - once the app is closing (SIGTERM), every new request, probes included, gets 503 with
 *   `Connection: close`, and answers to requests already in flight close their connection too, so
 *   keep-alive connections do not hold the close up. This replaces Fastify's `return503OnClosing`,
 *   whose body is not in the contract's `{ message, code }` shape.
 */
export function loadSheddingPlugin(app: FastifyInstance, limits: LoadSheddingLimits): void {
  const turn = new RequestTurn();
  const counts = Object.fromEntries(SHED_REASONS.map((reason) => [reason, 0])) as Record<ShedReason, number>;
  const byCost = Object.fromEntries(ROUTE_COSTS.map((cost) => [cost, 0])) as Record<RouteCost, number>;
  const { database } = app;
  let closing = false;
  /** COST_MS of the requests admitted and not yet answered. */
  let waitingMs = 0;

  const load = (turnAgeMs = turn.age()): Load => ({ turnAgeMs, waitingMs });
  const pressure = (turnAgeMs?: number) => pressureOf(limits, database.poolStats(), load(turnAgeMs));
  const startClosing = () => {
    closing = true;
  };
  app.decorate('loadShedding', {
    startClosing,
    pressure: () => pressure(),
    wouldShed: (cost) => shedsAt(cost, pressure()),
    load: () => load(),
    shedCounts: () => ({ ...counts }),
    shedCountsByCost: () => ({ ...byCost }),
  } satisfies LoadShedding);

  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const config = { ...(route.config ?? {}) } as NonNullable<typeof route.config>;
    config.cost ??= routeCost(methods[0] ?? 'GET', route.url);
    config.databaseCost ??= databaseCost(methods[0] ?? 'GET', route.url, config.cost);
    if (methods.some((method) => isPageNeed(method, route.url))) config.loadShedding = false;
    route.config = config;
  });

  app.addHook('onRequest', async (request, reply) => {
    const turnAgeMs = turn.read();
    if (closing) {
      counts.closing++;
      reply.header('connection', 'close');
      return refuse(reply, CLOSING_RETRY_AFTER_SECONDS);
    }
    const { config } = request.routeOptions;
    if (config.loadShedding === false) return;
    const cost = config.cost ?? 'cheap';
    const reason = shedReason(
      cost,
      config.databaseCost ?? cost,
      limits,
      database.poolStats(),
      load(turnAgeMs),
    );
    if (reason !== null) {
      counts[reason]++;
      byCost[cost]++;
      request.log.debug({ reason, cost }, 'request shed');
      return refuse(reply, SHED_RETRY_AFTER_SECONDS);
    }
    const weight = COST_MS[cost];
    if (weight > 0) {
      // Admitted: its work waits until it is answered (or its client has gone).
      waitingMs += weight;
      reply.raw.once('close', () => {
        waitingMs -= weight;
      });
    }
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
