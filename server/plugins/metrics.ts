import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { unauthorized } from '../errors';
import { safeEqual } from '../features/gate';
import type { JobBacklog } from '../jobs/jobs';
import { photoQueue } from '../photos/photo-queue';
import { type WorkerPoolStats, workerPoolStats } from '../workers/pool';
import { sendNotFound } from './error-handler';

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's Prometheus metrics (server/plugins/metrics.ts, ADR 038). */
    metrics: AppMetrics;
  }
}

export interface AppMetrics {
  /** This app's own registry: the HTTP metrics and the gauges read from its parts. */
  registry: Registry;
  /** The text exposition of this app's metrics and the process's. */
  render(): Promise<string>;
  contentType: string;
}

/** The `route` label of a request no route matched (404s, broken URLs): one value, whatever the URL. */
export const UNMATCHED_ROUTE = 'unmatched';

let processRegistry: Registry | undefined;

/**
 * Node's process metrics (CPU, memory, event loop lag, GC, handles), collected once per process:
 * they describe the process, not an app, and prom-client's collectors (a GC observer, an event
 * loop delay monitor) cannot be stopped, so one per app would pile up in tests that build many.
 * Its own registry, never prom-client's global default one.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** How long one read of the job backlog serves both of its gauges (they are collected together). */
const BACKLOG_READ_MS = 1_000;

/**
 * The app's metrics (ADR 038): a registry of its own per app (tests build several apps in one
 * process), HTTP requests counted and timed by route pattern in `onResponse`, and gauges that read
 * the database pool, event streams, job queue and photo queue only when scraped. Call before any
 * route is registered, after the plugins whose state it reads (events, jobs).
 */
export function metricsPlugin(app: FastifyInstance): void {
  const registry = new Registry();
  const labelNames = ['method', 'route', 'status_code'] as const;
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being sent, by route pattern and status.',
    labelNames,
    registers: [registry],
  });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'Requests answered, by route pattern and status.',
    labelNames,
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    // The pattern the request matched (`/api/items/:id`), never the URL: ids and made-up paths
    // would make a series each.
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? UNMATCHED_ROUTE,
      status_code: String(reply.statusCode),
    };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
  });

  new Counter({
    name: 'http_requests_shed_total',
    help: 'Requests answered 503 before they ran: the database line too long, the event loop too late, or the process closing (ADR 041).',
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [reason, count] of Object.entries(app.loadShedding.shedCounts()))
        this.inc({ reason }, count);
    },
  });
  new Counter({
    name: 'http_requests_shed_by_cost_total',
    help: 'Requests answered 503 by load shedding, by the cost of their route (cheap, standard, costly; ADR 051); closing not included.',
    labelNames: ['cost'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [cost, count] of Object.entries(app.loadShedding.shedCountsByCost()))
        this.inc({ cost }, count);
    },
  });

  const { database } = app;
  const poolGauge = (
    name: string,
    help: string,
    read: (stats: ReturnType<typeof database.poolStats>) => number,
  ) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read(database.poolStats()));
      },
    });
  poolGauge('db_pool_connections', 'Database connections open (PGlite: its one connection).', (s) => s.total);
  poolGauge('db_pool_idle_connections', 'Database connections open and not in use.', (s) => s.idle);
  poolGauge('db_pool_waiting', 'Queries waiting for a database connection.', (s) => s.waiting);
  poolGauge('db_pool_max_connections', 'The most database connections there may be.', (s) => s.max);
  if (database.kind === 'pglite') {
    poolGauge(
      'db_pool_oldest_wait_seconds',
      'How long the query first in line for PGlite has waited (0 when none waits).',
      (s) => (s.oldestWaitMs ?? 0) / 1000,
    );
  }

  new Gauge({
    name: 'event_streams_open',
    help: 'Live event streams (GET /api/events) open in this process.',
    registers: [registry],
    collect() {
      this.set(app.eventHub.size);
    },
  });

  let backlogRead: { at: number; result: Promise<JobBacklog[] | null> } | null = null;
  const readBacklog = () => {
    const now = Date.now();
    if (!backlogRead || now - backlogRead.at > BACKLOG_READ_MS) {
      const result = app.jobs.backlog().catch((error: unknown) => {
        app.log.warn({ err: error }, 'metrics: could not read the job backlog');
        return null;
      });
      backlogRead = { at: now, result };
    }
    return backlogRead.result;
  };
  const backlogGauge = (name: string, help: string, read: (queue: JobBacklog) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['queue'],
      registers: [registry],
      async collect() {
        const backlog = await readBacklog();
        this.reset();
        for (const queue of backlog ?? []) this.set({ queue: queue.queue }, read(queue));
      },
    });
  backlogGauge('jobs_pending', 'Background jobs waiting to run, per queue.', (queue) => queue.pending);
  backlogGauge(
    'jobs_oldest_pending_age_seconds',
    'Seconds since the oldest waiting job of the queue was sent (0 when none waits).',
    (queue) => queue.oldestAgeSeconds,
  );

  const photoGauge = (
    name: string,
    help: string,
    read: (stats: ReturnType<typeof photoQueue.stats>) => number,
  ) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read(photoQueue.stats()));
      },
    });
  photoGauge(
    'photo_queue_held',
    'Places taken in the photo queue: uploads arriving, waiting and being processed.',
    (s) => s.held,
  );
  photoGauge('photo_queue_waiting', 'Uploaded photos waiting for a processing slot.', (s) => s.waiting);
  photoGauge('photo_queue_running', 'Photos being decoded, screened and re-encoded now.', (s) => s.running);
  photoGauge('photo_queue_capacity', 'Places in the photo queue (beyond them: 503).', (s) => s.capacity);

  const workerGauge = (name: string, help: string, read: (stats: WorkerPoolStats) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read(workerPoolStats()));
      },
    });
  workerGauge('worker_pool_threads', 'Worker pool threads running (ADR 048; 0 when idle).', (s) => s.threads);
  workerGauge('worker_pool_max_threads', 'The most worker pool threads there may be.', (s) => s.maxThreads);
  workerGauge(
    'worker_pool_running',
    'Heavy tasks (solves, index builds, barcodes) running now.',
    (s) => s.running,
  );
  workerGauge('worker_pool_queued', 'Heavy tasks waiting for a worker pool thread.', (s) => s.queued);

  app.decorate('metrics', {
    registry,
    contentType: registry.contentType,
    render: () => Registry.merge([processMetrics(), registry]).metrics(),
  });
}

/** Whether `authorization` is `Bearer <token>`, compared in constant time. */
export function hasBearerToken(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(authorization ?? '');
  return match?.[1] !== undefined && safeEqual(match[1], token);
}

/**
 * GET /metrics (ADR 038): only with METRICS_TOKEN set, and then only to `Authorization: Bearer
 * <METRICS_TOKEN>` (401 otherwise). Unset, it answers the 404 of an unknown route. Registered in
 * the open scope: neither the site gate nor a session applies, the token does.
 */
export async function metricsRoutes(app: FastifyInstance): Promise<void> {
  // Never shed (ADR 041): an overload is when operators most need to see it.
  app.get(
    '/metrics',
    { config: { loadShedding: false }, schema: { hide: true } },
    async (request: FastifyRequest, reply: FastifyReply) => {
      const token = app.config.metricsToken;
      if (!token) return sendNotFound(request, reply);
      if (!hasBearerToken(request.headers.authorization, token)) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        // Lower case: a text for operators, not one the web app shows (scripts/i18n-known-messages.ts).
        throw unauthorized('metrics need the header Authorization: Bearer <METRICS_TOKEN>');
      }
      const body = await app.metrics.render();
      return reply.header('cache-control', 'no-store').type(app.metrics.contentType).send(body);
    },
  );
}
