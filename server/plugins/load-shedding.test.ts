/**
 * Load shedding (issue 18, ADR 041): with the database's line too long, or its first caller waiting
 * too long, or the event loop running late, a request gets an immediate 503 SERVICE_UNAVAILABLE with
 * Retry-After instead of joining the line; the probes and metrics are never shed; the server serves
 * again by itself once the pressure is gone. On PGlite and, with DATABASE_URL, PostgreSQL.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { PoolStats } from '../db/client';
import { createUser, sessionCookiesFor } from '../test/factories';
import { buildTestApp, holdDatabase, type TestApp } from '../test/helpers';
import { pressureOf, SHED_RETRY_AFTER_SECONDS } from './load-shedding';

/** SHED_DB_WAITING in the held-database tests. */
const WAITING = 2;
const METRICS_TOKEN = 'load-shedding-metrics-token-0123456789abcdef';

/** Poll until `check` holds; fails after `ms`. */
async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const started = performance.now();
  while (!check()) {
    if (performance.now() - started > ms) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Keep the event loop busy for `ms` (nothing else in this process runs meanwhile). */
function blockEventLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
}

function expectShed(response: LightMyRequestResponse): void {
  expect(response.statusCode, response.body).toBe(503);
  expect(response.json()).toEqual({
    message: 'The service is temporarily unavailable. Please try again shortly.',
    code: 'SERVICE_UNAVAILABLE',
  });
  expect(response.headers['retry-after']).toBe(String(SHED_RETRY_AFTER_SECONDS));
}

describe('pressureOf', () => {
  const limits = { dbWaiting: 10, dbWaitMs: 500, eventLoopDelayMs: 200 };
  const stats = (waiting: number, oldestWaitMs?: number): PoolStats => ({
    total: 1,
    idle: 0,
    waiting,
    max: 1,
    oldestWaitMs,
  });

  it('sheds at each limit, not below it, and never for a limit set to 0', () => {
    expect(pressureOf(limits, stats(9, 499), 199)).toBeNull();
    expect(pressureOf(limits, stats(10, 0), 0)).toBe('db_waiting');
    expect(pressureOf(limits, stats(1, 500), 0)).toBe('db_wait');
    // node-postgres does not say how long its first waiter has waited.
    expect(pressureOf(limits, stats(1), 0)).toBeNull();
    expect(pressureOf(limits, stats(0, 0), 200)).toBe('event_loop_delay');
    const off = { dbWaiting: 0, dbWaitMs: 0, eventLoopDelayMs: 0 };
    expect(pressureOf(off, stats(10_000, 60_000), 60_000)).toBeNull();
  });
});

describe('a held database: 503 at once past SHED_DB_WAITING, never a 500, then served again', () => {
  let t: TestApp;
  let cookies: Record<string, string>;
  let release: (() => Promise<void>) | null = null;
  beforeAll(async () => {
    t = await buildTestApp({
      SHED_DB_WAITING: String(WAITING),
      SHED_DB_WAIT_MS: '0',
      SHED_EVENT_LOOP_DELAY_MS: '0',
      METRICS_TOKEN,
    });
    cookies = await sessionCookiesFor(t.app, await createUser(t.database.db));
  });
  afterEach(async () => {
    await release?.();
    release = null;
  });
  afterAll(() => t.close());

  const myItems = () => t.app.inject({ method: 'GET', url: '/api/items/my', cookies });

  /**
   * Requests that join the line until SHED_DB_WAITING callers wait (on PostgreSQL the job queue,
   * which shares the pool, may be one of them).
   */
  async function fillTheLine(): Promise<Array<Promise<LightMyRequestResponse>>> {
    const inLine: Array<Promise<LightMyRequestResponse>> = [];
    while (t.database.poolStats().waiting < WAITING) {
      const now = t.database.poolStats().waiting;
      inLine.push(myItems());
      await until(() => t.database.poolStats().waiting > now, 2_000, 'one more caller waiting');
    }
    return inLine;
  }

  it('sheds new requests while the line is full, answers those in line 503 within DB_ACQUIRE_TIMEOUT_MS, and recovers', async () => {
    // The session is read now, so the requests below wait only for their own query.
    expect((await myItems()).statusCode).toBe(200);
    release = await holdDatabase(t.database);
    const inLine = await fillTheLine();

    const before = t.app.loadShedding.shedCounts().db_waiting;
    const started = performance.now();
    const shed = await myItems();
    const took = performance.now() - started;
    expectShed(shed);
    expect(t.app.loadShedding.shedCounts().db_waiting).toBe(before + 1);
    // Immediate: it never joined the line (those in it are answered after DB_ACQUIRE_TIMEOUT_MS, 2 s).
    expect(took).toBeLessThan(1_000);

    // The probes and metrics are never shed.
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    const metrics = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.body).toMatch(/http_requests_shed_total\{reason="db_waiting"\} [1-9]/);

    // Those that joined the line get the acquire timeout's 503, never a 500.
    for (const waited of await Promise.all(inLine)) {
      expect(waited.statusCode, waited.body).toBe(503);
      expect(waited.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(Number(waited.headers['retry-after'])).toBeGreaterThan(0);
    }

    await release();
    release = null;
    // Nothing to reset: the line is short again, so the next request is served.
    expect((await myItems()).statusCode).toBe(200);
  });

  it('a write refused by shedding never runs', async () => {
    release = await holdDatabase(t.database);
    const inLine = await fillTheLine();
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/wants',
      cookies,
      payload: { title: 'Shed, never stored', category: 'tools', isService: false },
    });
    expectShed(refused);
    await release();
    release = null;
    await Promise.all(inLine);
    const listed = (await t.app.inject({ method: 'GET', url: '/api/wants/my', cookies })).json<
      Array<{ title: string }>
    >();
    expect(listed.map((want) => want.title)).not.toContain('Shed, never stored');
  });
});

// node-postgres does not say how long its first waiter has waited: this limit is PGlite's.
describe.skipIf(!!inject('pgTemplateUrl'))(
  'the embedded database: 503 at once once the first caller in line has waited SHED_DB_WAIT_MS',
  () => {
    let t: TestApp;
    let cookies: Record<string, string>;
    beforeAll(async () => {
      t = await buildTestApp({ SHED_DB_WAITING: '0', SHED_DB_WAIT_MS: '200', SHED_EVENT_LOOP_DELAY_MS: '0' });
      cookies = await sessionCookiesFor(t.app, await createUser(t.database.db));
    });
    afterAll(() => t.close());

    it('sheds while the first waiter has waited too long', async () => {
      const myItems = () => t.app.inject({ method: 'GET', url: '/api/items/my', cookies });
      expect((await myItems()).statusCode).toBe(200);
      // PGlite's release may be called twice.
      const release = await holdDatabase(t.database);
      try {
        const waiting = myItems();
        await until(() => t.database.poolStats().waiting >= 1, 2_000, 'a caller waiting for a connection');
        // A second caller joins the line while the first has waited less than the limit...
        const early = myItems();
        await until(() => t.database.poolStats().waiting >= 2, 2_000, 'a second caller waiting');
        await until(
          () => (t.database.poolStats().oldestWaitMs ?? 0) >= 200,
          2_000,
          'the first waiting 200 ms',
        );
        // ...a third, after it, does not.
        expectShed(await myItems());
        expect(t.app.loadShedding.shedCounts().db_wait).toBe(1);
        await release();
        // The two in line are served once the database is free (well within DB_ACQUIRE_TIMEOUT_MS).
        expect((await waiting).statusCode).toBe(200);
        expect((await early).statusCode).toBe(200);
      } finally {
        await release();
      }
      expect((await myItems()).statusCode).toBe(200);
    });
  },
);

describe('an event loop running late: 503 at once, the probes still answered, then served again', () => {
  let t: TestApp;
  let cookies: Record<string, string>;
  beforeAll(async () => {
    t = await buildTestApp({ SHED_DB_WAITING: '0', SHED_DB_WAIT_MS: '0', SHED_EVENT_LOOP_DELAY_MS: '100' });
    cookies = await sessionCookiesFor(t.app, await createUser(t.database.db));
  });
  afterAll(() => t.close());

  it('sheds requests read after its turn has run that long, and judges the next turn afresh', async () => {
    const myItems = () => t.app.inject({ method: 'GET', url: '/api/items/my', cookies });
    expect((await myItems()).statusCode).toBe(200);
    const before = t.app.loadShedding.shedCounts().event_loop_delay;
    // A new turn of the loop; its first request...
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    // ...then 300 ms of work without the loop coming round (as the statements of a burst of
    // requests are on the embedded database, which runs them on this thread)...
    blockEventLoop(300);
    // ...and the requests read after it in the same turn: shed, except the probes.
    const [late, healthz, readyz] = await Promise.all([
      myItems(),
      t.app.inject({ method: 'GET', url: '/healthz' }),
      t.app.inject({ method: 'GET', url: '/readyz' }),
    ]);
    expectShed(late);
    expect(healthz.statusCode).toBe(200);
    expect(readyz.statusCode).toBe(200);
    expect(t.app.loadShedding.shedCounts().event_loop_delay).toBe(before + 1);
    // The loop has come round: the next request is judged afresh and served.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await myItems()).statusCode).toBe(200);
  });
});
