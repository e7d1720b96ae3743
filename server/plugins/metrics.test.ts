import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app';
import { photoQueue } from '../photos/photo-queue';
import { buildTestApp, type TestApp, testConfig } from '../test/helpers';
import { workerPoolStats } from '../workers/pool';
import { hasBearerToken } from './metrics';

const TOKEN = 'metrics-token-for-tests-0123456789abcdef';
const bearer = { authorization: `Bearer ${TOKEN}` };

/** One sample line of the text format: a name, optional labels, a number. */
const SAMPLE =
  /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*",?)*\})? (-?[0-9.e+-]+|[Nn]a[Nn]|[+-]Inf)$/;

/** The samples of a scrape as `name{labels}` -> value, after checking every line parses. */
function parse(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    const match = SAMPLE.exec(line);
    expect(match, `not a sample line: ${line}`).not.toBeNull();
    if (match) samples.set(`${match[1]}${match[2] ?? ''}`, Number(match[3]));
  }
  return samples;
}

async function scrape(app: FastifyInstance): Promise<{ text: string; samples: Map<string, number> }> {
  const response = await app.inject({ method: 'GET', url: '/metrics', headers: bearer });
  expect(response.statusCode).toBe(200);
  return { text: response.body, samples: parse(response.body) };
}

describe('GET /metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The gate on: /metrics, /healthz and /readyz must not need its cookie.
    t = await buildTestApp({ METRICS_TOKEN: TOKEN, SITE_PASSWORD: 'open sesame' });
  });
  afterAll(() => t.close());

  it('answers the Prometheus text format, with the process metrics, past the site gate', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers['cache-control']).toBe('no-store');
    const samples = parse(response.body);
    expect(response.body).toContain('# TYPE http_request_duration_seconds histogram');
    expect(response.body).toContain('# TYPE http_requests_total counter');
    // The process ran since the registry began (building the app): its CPU time in all has grown.
    // Not its user time alone: Linux splits the precise total between user and system by sampled
    // ticks, so the user part can stay put for a while (it did, on PostgreSQL, in a CI rehearsal).
    expect(samples.get('process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(samples.has('process_cpu_user_seconds_total')).toBe(true);
    expect(samples.has('nodejs_heap_size_used_bytes')).toBe(true);
    for (const url of ['/healthz', '/readyz']) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
    }
    const gated = await t.app.inject({ method: 'GET', url: '/api/site' });
    expect(gated.json()).toMatchObject({ code: 'GATE_CLOSED' });
  });

  it('refuses a missing, wrong or non-bearer token with 401 in the error shape', async () => {
    for (const authorization of [
      undefined,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      'Bearer ',
      `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`,
      TOKEN,
    ]) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization === undefined ? {} : { authorization },
      });
      expect({ authorization, status: response.statusCode }).toEqual({ authorization, status: 401 });
      expect(response.json()).toEqual({ message: expect.any(String), code: 'UNAUTHORIZED' });
      expect(response.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(response.body).not.toContain('http_requests_total');
    }
  });

  it('counts a request under its route pattern, never its URL', async () => {
    const before = (await scrape(t.app)).samples;
    const key = 'http_requests_total{method="GET",route="/api/items/:id",status_code="403"}';
    for (let i = 0; i < 2; i++) {
      const response = await t.app.inject({ method: 'GET', url: '/api/items/123987' });
      expect(response.statusCode).toBe(403); // the gate, after the route matched
    }
    const { text, samples } = await scrape(t.app);
    expect((samples.get(key) ?? 0) - (before.get(key) ?? 0)).toBe(2);
    expect(
      samples.get(
        'http_request_duration_seconds_count{method="GET",route="/api/items/:id",status_code="403"}',
      ),
    ).toBe(samples.get(key));
    expect(text).not.toContain('123987');
  });

  it('counts requests no route matched under one "unmatched" route', async () => {
    const before = (await scrape(t.app)).samples;
    const key = 'http_requests_total{method="GET",route="unmatched",status_code="404"}';
    for (const url of ['/no/such/place-4711', '/wp-admin/setup-0815.php', '/%2e%2e/etc/passwd-99']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
    }
    const { text, samples } = await scrape(t.app);
    expect((samples.get(key) ?? 0) - (before.get(key) ?? 0)).toBe(3);
    // Whole path pieces: a bare '0815' can turn up inside a number (a byte count, a CPU time).
    for (const part of ['place-4711', 'setup-0815', 'passwd']) expect(text).not.toContain(part);
  });

  it('reads the gauges of the database pool, event streams, job queue and photo queue', async () => {
    // A request that reads the database first: on PostgreSQL the pool connects when first used.
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    const { samples } = await scrape(t.app);
    const stats = photoQueue.stats();
    expect(samples.get('photo_queue_capacity')).toBe(stats.capacity);
    expect(samples.get('photo_queue_held')).toBe(stats.held);
    expect(samples.get('photo_queue_waiting')).toBe(stats.waiting);
    expect(samples.get('photo_queue_running')).toBe(stats.running);
    expect(samples.get('event_streams_open')).toBe(t.app.eventHub.size);
    const workers = workerPoolStats();
    expect(samples.get('worker_pool_threads')).toBe(workers.threads);
    expect(samples.get('worker_pool_max_threads')).toBe(workers.maxThreads);
    expect(samples.get('worker_pool_running')).toBe(workers.running);
    expect(samples.get('worker_pool_queued')).toBe(workers.queued);
    // PostgreSQL: the pool the server ships with (DB_POOL_MAX), which the test apps open too.
    expect(samples.get('db_pool_max_connections')).toBe(
      t.database.kind === 'pglite' ? 1 : t.config.db.poolMax,
    );
    expect(samples.get('db_pool_connections')).toBeGreaterThanOrEqual(1);
    // How many wait depends on the background work of the moment (job workers, the push sender):
    // 'shows a busy database' below checks the count goes up with a waiting query and back to 0.
    expect(samples.get('db_pool_waiting')).toBeGreaterThanOrEqual(0);
    // The match graph's queues exist once the job queue started (pg-boss: in the background).
    await vi.waitFor(
      async () => {
        const again = (await scrape(t.app)).samples;
        expect(again.get('jobs_pending{queue="match-graph"}')).toBeGreaterThanOrEqual(0);
        expect(again.get('jobs_oldest_pending_age_seconds{queue="match-graph"}')).toBeGreaterThanOrEqual(0);
      },
      { timeout: 15_000, interval: 200 },
    );
  });

  it('shows a busy database: connections in use, and on PGlite the queries waiting behind them', async () => {
    const { db } = t.database;
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started: () => void = () => {};
    const inside = new Promise<void>((resolve) => {
      started = resolve;
    });
    const transaction = db.transaction(async (tx) => {
      await tx.execute(sql`SELECT 1`);
      started();
      await held;
    });
    await inside;
    // A drizzle query runs when awaited: then() starts it now.
    const behind = db.execute(sql`SELECT 1`).then(() => {});
    // On PGlite it waits behind the transaction: until it has waited long enough to be seen.
    if (t.database.kind === 'pglite') {
      await expect.poll(() => t.database.poolStats().oldestWaitMs ?? 0, { interval: 5 }).toBeGreaterThan(20);
    }
    try {
      const { samples } = await scrape(t.app);
      const total = samples.get('db_pool_connections') ?? 0;
      const idle = samples.get('db_pool_idle_connections') ?? 0;
      expect(total - idle).toBeGreaterThanOrEqual(1);
      if (t.database.kind === 'pglite') {
        // This query at least (a background job's may wait behind the transaction too).
        expect(samples.get('db_pool_waiting')).toBeGreaterThanOrEqual(1);
        expect(samples.get('db_pool_oldest_wait_seconds')).toBeGreaterThan(0.01);
      }
    } finally {
      release();
      await transaction;
      await behind;
    }
    // Once it ran, nothing waits any more.
    await expect
      .poll(async () => (await scrape(t.app)).samples.get('db_pool_waiting'), { timeout: 10_000 })
      .toBe(0);
  });

  it('keeps each app its own registry (tests build several in one process)', async () => {
    const other = await buildApp({ config: testConfig(), database: t.database });
    try {
      await other.ready();
      await t.app.inject({ method: 'GET', url: '/api/items/55' });
      const own = await other.metrics.render();
      expect(own).not.toContain('route="/api/items/:id"');
      // Without METRICS_TOKEN the route is not there at all.
      const response = await other.inject({ method: 'GET', url: '/metrics', headers: bearer });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'No route for GET /metrics.', code: 'NOT_FOUND' });
    } finally {
      await other.close();
      rmSync(other.config.dataDir, { recursive: true, force: true });
    }
  });

  it('compares the bearer token exactly', () => {
    expect(hasBearerToken(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(hasBearerToken(`bearer  ${TOKEN}`, TOKEN)).toBe(true);
    expect(hasBearerToken(`Bearer ${TOKEN} extra`, TOKEN)).toBe(false);
    expect(hasBearerToken(`Bearer ${TOKEN.toUpperCase()}`, TOKEN)).toBe(false);
    expect(hasBearerToken(undefined, TOKEN)).toBe(false);
  });
});
