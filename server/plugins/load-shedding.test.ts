/**
 * Load shedding (issue 18, ADR 041; by cost, issue 27, ADR 051): with the database's line too long,
 * or its first caller waiting too long, or work waiting behind a late event loop, a costly request
 * gets an immediate 503 SERVICE_UNAVAILABLE with Retry-After instead of joining the line, a standard
 * one only at twice the limits, a cheap one never; what a page needs (static files, the HTML shell,
 * the drawn first screens, who is signed in, the live stream's connect) is never refused, and a
 * drawn page under load is sent undrawn. The probes and metrics are never shed; the server serves
 * again by itself once the pressure is gone. On PGlite and, with DATABASE_URL, PostgreSQL.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../app';
import type { PoolStats } from '../db/client';
import { createUser, sessionCookiesFor } from '../test/factories';
import { holdDatabase, openTestDatabase, type TestApp, testConfig } from '../test/helpers';
import {
  COST_MS,
  pressureOf,
  SHED_FROM,
  SHED_RETRY_AFTER_SECONDS,
  shedReason,
  shedsAt,
} from './load-shedding';
import { DATABASE_COSTS, DECLARED_COSTS, PAGE_NEEDS } from './route-costs';

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

/** A fresh turn of the event loop (the turn's clock starts again at its first request). */
const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 20));

function expectShed(response: LightMyRequestResponse): void {
  expect(response.statusCode, response.body).toBe(503);
  expect(response.json()).toEqual({
    message: 'The service is temporarily unavailable. Please try again shortly.',
    code: 'SERVICE_UNAVAILABLE',
  });
  expect(response.headers['retry-after']).toBe(String(SHED_RETRY_AFTER_SECONDS));
}

/**
 * A web build as the server serves it (an entry script, a boot script named by the manifest) and
 * a server entry that draws a page from the API, read through the server as the real one does.
 */
function makeWebBuild(): { webDist: string; remove(): void } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'bh-shed-build-'));
  const webDist = path.join(root, 'web');
  mkdirSync(path.join(webDist, 'assets'), { recursive: true });
  mkdirSync(path.join(webDist, '.vite'));
  writeFileSync(
    path.join(webDist, 'index.html'),
    '<!doctype html><html lang="en"><head><title>Barterhood</title>' +
      '<script type="module" crossorigin src="/assets/index-abc123.js"></script></head>' +
      '<body><div id="root"></div></body></html>',
  );
  writeFileSync(path.join(webDist, 'assets', 'index-abc123.js'), 'console.log("app")');
  writeFileSync(path.join(webDist, 'assets', 'boot-abc123.js'), 'console.log("boot")');
  writeFileSync(
    path.join(webDist, '.vite', 'manifest.json'),
    JSON.stringify({ 'boot.ts': { file: 'assets/boot-abc123.js' } }),
  );
  mkdirSync(path.join(root, 'server'));
  writeFileSync(path.join(root, 'package.json'), '{"type":"module"}');
  writeFileSync(
    path.join(root, 'server', 'entry-server.js'),
    `export function createQueryClient() { return {}; }
export async function render(request) {
  const answer = await request.fetch('/api/auth/user', { headers: { accept: 'application/json' } });
  const user = await answer.json();
  return { html: '<main>Drawn for ' + user.firstName + '</main>', state: { user }, errors: [] };
}
`,
  );
  return { webDist, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** The app with the web build served, on a fresh database copy. */
async function buildWebTestApp(overrides: Record<string, string>): Promise<TestApp> {
  const config = testConfig({ METRICS_TOKEN, ...overrides });
  const { handle, drop } = await openTestDatabase();
  const build = makeWebBuild();
  const app = await buildApp({ config, database: handle, serveWeb: true, webDist: build.webDist });
  // Listening: the live stream is asked for over a real connection (app.inject cannot stream).
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    database: handle,
    config,
    async close() {
      await app.close();
      await drop();
      build.remove();
      rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The live stream's connect over a real connection, opened now; `ask()` writes the request at once
 * (the server reads it at its next look at its sockets: after whatever the loop is doing now), and
 * `status` is the status line and headers of its answer.
 */
async function streamConnection(app: FastifyInstance, cookies: Record<string, string>) {
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  const socket = net.connect(address.port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const cookie = Object.entries(cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');
  let received = '';
  const head = new Promise<string>((resolve, reject) => {
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      if (end >= 0) resolve(received.slice(0, end));
    });
    socket.once('error', reject);
  });
  return {
    ask: () => socket.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\n\r\n`),
    head,
    stop: () => socket.destroy(),
  };
}

/**
 * What a page needs, asked for at once (in the same turn of the event loop): the entry script, the
 * shell of a page the browser draws, a page the server draws, who is signed in, and the live
 * stream's connect (`stream`, opened beforehand: its request is read right after this turn).
 */
function askForAPage(
  app: FastifyInstance,
  cookies: Record<string, string>,
  stream: Awaited<ReturnType<typeof streamConnection>>,
) {
  stream.ask();
  return {
    asset: app.inject({ method: 'GET', url: '/assets/index-abc123.js' }),
    shell: app.inject({ method: 'GET', url: '/login', headers: { accept: 'text/html' } }),
    drawn: app.inject({ method: 'GET', url: '/', cookies, headers: { accept: 'text/html' } }),
    user: app.inject({ method: 'GET', url: '/api/auth/user', cookies }),
    stream,
  };
}

/** Every part of the page answered, none refused; the drawn page sent undrawn (`drawn`: false) or drawn. */
async function expectPageServed(page: ReturnType<typeof askForAPage>, drawn: boolean): Promise<void> {
  const asset = await page.asset;
  expect(asset.statusCode).toBe(200);
  expect(asset.body).toBe('console.log("app")');
  const shell = await page.shell;
  expect(shell.statusCode).toBe(200);
  expect(shell.body).toContain('<div id="root"></div>');
  const home = await page.drawn;
  expect(home.statusCode).toBe(200);
  if (drawn) expect(home.body).toContain('<main>Drawn for Ann</main>');
  else {
    expect(home.body).toContain('<div id="root"></div>');
    expect(home.body).not.toContain('page-data');
  }
  const user = await page.user;
  expect(user.statusCode, user.body).toBe(200);
  expect(user.json()).toMatchObject({ firstName: 'Ann' });
  const stream = await page.stream.head;
  expect(stream).toMatch(/^HTTP\/1\.1 200 /);
  expect(stream.toLowerCase()).toContain('content-type: text/event-stream');
  page.stream.stop();
}

describe('pressureOf and shedsAt', () => {
  const limits = { dbWaiting: 10, dbWaitMs: 500, eventLoopDelayMs: 200 };
  const stats = (waiting: number, oldestWaitMs?: number): PoolStats => ({
    total: 1,
    idle: 0,
    waiting,
    max: 1,
    oldestWaitMs,
  });
  const idle = { turnAgeMs: 0, waitingMs: 0 };

  it('measures each limit as a share reached, naming the largest', () => {
    expect(pressureOf(limits, stats(5, 100), idle)).toEqual({ level: 0.5, reason: 'db_waiting' });
    expect(pressureOf(limits, stats(10, 0), idle)).toEqual({ level: 1, reason: 'db_waiting' });
    expect(pressureOf(limits, stats(1, 1_000), idle)).toEqual({ level: 2, reason: 'db_wait' });
    // node-postgres does not say how long its first waiter has waited.
    expect(pressureOf(limits, stats(0), idle)).toEqual({ level: 0, reason: null });
    const off = { dbWaiting: 0, dbWaitMs: 0, eventLoopDelayMs: 0 };
    expect(
      pressureOf(off, stats(10_000, 60_000), { turnAgeMs: 60_000, waitingMs: 60_000 }).reason,
    ).toBeNull();
  });

  it('counts a late event loop only with work still waiting: a stall that is over is no pressure', () => {
    expect(pressureOf(limits, stats(0), { turnAgeMs: 5_000, waitingMs: 0 })).toEqual({
      level: 0,
      reason: null,
    });
    // Work in flight while the loop comes round (PostgreSQL's pool doing it) is none either.
    expect(pressureOf(limits, stats(0), { turnAgeMs: 0, waitingMs: 5_000 }).level).toBe(0);
    expect(pressureOf(limits, stats(0), { turnAgeMs: 300, waitingMs: 200 })).toEqual({
      level: 1,
      reason: 'event_loop_delay',
    });
    expect(pressureOf(limits, stats(0), { turnAgeMs: 400, waitingMs: 900 }).level).toBe(2);
  });

  it('sheds the costly at the limits, the standard at twice them, the cheap never', () => {
    expect(SHED_FROM).toEqual({ cheap: Number.POSITIVE_INFINITY, standard: 2, costly: 1 });
    const at = (level: number) => ({ level, reason: 'db_waiting' as const });
    expect(shedsAt('costly', at(0.99))).toBe(false);
    expect(shedsAt('costly', at(1))).toBe(true);
    expect(shedsAt('standard', at(1.99))).toBe(false);
    expect(shedsAt('standard', at(2))).toBe(true);
    expect(shedsAt('cheap', at(1_000_000))).toBe(false);
    expect(shedsAt('costly', { level: 0, reason: null })).toBe(false);
  });

  it('judges a route whose cost is the CPU by the database at its database cost, by the event loop at its own (ADR 114)', () => {
    // A sign-up: costly for the CPU, standard for the database's line.
    const signUp = (waiting: number, oldestWaitMs: number, load = idle) =>
      shedReason('costly', 'standard', limits, stats(waiting, oldestWaitMs), load);
    expect(signUp(10, 0)).toBeNull();
    expect(signUp(1, 999)).toBeNull();
    expect(signUp(20, 0)).toBe('db_waiting');
    expect(signUp(1, 1_000)).toBe('db_wait');
    // The event loop at its own cost, whatever the database's line.
    expect(signUp(15, 0, { turnAgeMs: 300, waitingMs: 200 })).toBe('event_loop_delay');
    expect(signUp(0, 0, { turnAgeMs: 300, waitingMs: 200 })).toBe('event_loop_delay');
    expect(signUp(0, 0, { turnAgeMs: 100, waitingMs: 100 })).toBeNull();
    // Any other route as before: its one cost against the largest share.
    expect(shedReason('costly', 'costly', limits, stats(10, 0), idle)).toBe('db_waiting');
    expect(shedReason('standard', 'standard', limits, stats(10, 0), idle)).toBeNull();
    expect(shedReason('cheap', 'cheap', limits, stats(100, 60_000), idle)).toBeNull();
  });
});

describe('a late event loop with work waiting: the costly shed first, what a page needs always served', () => {
  let t: TestApp;
  let cookies: Record<string, string>;
  let release: (() => Promise<void>) | null = null;
  const inLine: Array<Promise<LightMyRequestResponse>> = [];
  beforeAll(async () => {
    t = await buildWebTestApp({
      SHED_DB_WAITING: '0',
      SHED_DB_WAIT_MS: '0',
      SHED_EVENT_LOOP_DELAY_MS: '100',
    });
    cookies = await sessionCookiesFor(t.app, await createUser(t.database.db, { firstName: 'Ann' }));
  });
  afterEach(async () => {
    await release?.();
    release = null;
    // Those admitted answer once the database is free (or at DB_ACQUIRE_TIMEOUT_MS), never a 500.
    for (const answered of await Promise.all(inLine.splice(0)))
      expect([200, 503]).toContain(answered.statusCode);
  });
  afterAll(() => t.close());

  const myItems = () => t.app.inject({ method: 'GET', url: '/api/items/my', cookies });
  const feed = () => t.app.inject({ method: 'GET', url: '/api/feed/everything', cookies });
  const unread = () => t.app.inject({ method: 'GET', url: '/api/notifications/unread-count', cookies });

  /** Hold the database and admit ordinary reads until `ms` of work waits for it. */
  async function workWaiting(ms: number): Promise<void> {
    release = await holdDatabase(t.database);
    for (let admitted = 0; admitted < ms; admitted += COST_MS.standard) inLine.push(myItems());
    await until(() => t.app.loadShedding.load().waitingMs >= ms, 2_000, 'the reads admitted');
  }

  /** A new turn of the loop whose first request is followed by 250 ms of work without it coming round. */
  async function lateTurn(): Promise<void> {
    await nextTurn();
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    blockEventLoop(250);
  }

  it('a stall with nothing left waiting sheds nothing, and the page is drawn', async () => {
    expect((await myItems()).statusCode).toBe(200);
    const before = t.app.loadShedding.shedCounts().event_loop_delay;
    const stream = await streamConnection(t.app, cookies);
    await lateTurn();
    const costly = feed();
    const page = askForAPage(t.app, cookies, stream);
    expect((await costly).statusCode).not.toBe(503);
    await expectPageServed(page, true);
    expect(t.app.loadShedding.shedCounts().event_loop_delay).toBe(before);
  });

  it('sheds a costly request, not a standard or cheap one, and serves the page undrawn', async () => {
    const before = t.app.loadShedding.shedCountsByCost();
    const stream = await streamConnection(t.app, cookies);
    await workWaiting(100);
    await lateTurn();
    const costly = feed();
    const standard = myItems();
    const cheap = unread();
    const page = askForAPage(t.app, cookies, stream);
    expectShed(await costly);
    expect(t.app.loadShedding.shedCountsByCost()).toEqual({ ...before, costly: before.costly + 1 });
    await release?.();
    release = null;
    expect((await standard).statusCode).toBe(200);
    expect((await cheap).statusCode).toBe(200);
    await expectPageServed(page, false);
  });

  it('sheds a standard request too at twice the limit, never a cheap one or the page', async () => {
    const before = t.app.loadShedding.shedCountsByCost();
    const stream = await streamConnection(t.app, cookies);
    await workWaiting(200);
    await lateTurn();
    const standard = myItems();
    const cheap = unread();
    const page = askForAPage(t.app, cookies, stream);
    expectShed(await standard);
    expect(t.app.loadShedding.shedCountsByCost().standard).toBe(before.standard + 1);
    await release?.();
    release = null;
    expect((await cheap).statusCode).toBe(200);
    await expectPageServed(page, false);
    const metrics = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(metrics.body).toMatch(/http_requests_shed_by_cost_total\{cost="standard"\} [1-9]/);
    expect(metrics.body).toMatch(/http_requests_shed_by_cost_total\{cost="cheap"\} 0/);
    // The work answered, the loop come round: served again.
    await nextTurn();
    expect((await feed()).statusCode).not.toBe(503);
  });
});

describe('a held database: the costly shed at SHED_DB_WAITING, the standard at twice it, never a 500', () => {
  /** SHED_DB_WAITING in these tests. */
  const WAITING = 2;
  let t: TestApp;
  let cookies: Record<string, string>;
  let release: (() => Promise<void>) | null = null;
  const inLine: Array<Promise<LightMyRequestResponse>> = [];
  beforeAll(async () => {
    t = await buildWebTestApp({
      SHED_DB_WAITING: String(WAITING),
      SHED_DB_WAIT_MS: '0',
      SHED_EVENT_LOOP_DELAY_MS: '0',
    });
    cookies = await sessionCookiesFor(t.app, await createUser(t.database.db, { firstName: 'Ann' }));
  });
  afterEach(async () => {
    await release?.();
    release = null;
    for (const answered of await Promise.all(inLine.splice(0))) {
      expect([200, 503], answered.body).toContain(answered.statusCode);
      if (answered.statusCode === 503) expect(answered.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    }
  });
  afterAll(() => t.close());

  const myItems = () => t.app.inject({ method: 'GET', url: '/api/items/my', cookies });
  const feed = () => t.app.inject({ method: 'GET', url: '/api/feed/everything', cookies });

  /**
   * Requests that join the line until `count` callers wait (on PostgreSQL only requests: the job
   * queue's pollers have their own pool).
   */
  async function fillTheLine(count: number): Promise<void> {
    while (t.database.poolStats().waiting < count) {
      const now = t.database.poolStats().waiting;
      inLine.push(myItems());
      await until(() => t.database.poolStats().waiting > now, 2_000, 'one more caller waiting');
    }
  }

  it.skipIf(!inject('pgTemplateUrl'))(
    'PostgreSQL: the job queue works on its own connections, never in the line requests wait in',
    async () => {
      await t.app.jobs.started();
      await t.app.jobs.createQueue('held-pool-probe');
      release = await holdDatabase(t.database);
      // Before ADR 072 pg-boss shared the requests' pool: this send waited in the line (and its
      // pollers counted towards SHED_DB_WAITING) until the acquire timeout.
      expect(await t.app.jobs.send('held-pool-probe', { n: 1 })).not.toBeNull();
      const backlog = await t.app.jobs.backlog();
      expect(backlog.find((queue) => queue.queue === 'held-pool-probe')?.pending).toBe(1);
      expect(t.database.poolStats().waiting).toBe(0);
    },
  );

  it('every route the table names is registered, and gets its cost', () => {
    for (const key of [...Object.keys(DECLARED_COSTS), ...Object.keys(DATABASE_COSTS), ...PAGE_NEEDS]) {
      const [method = '', url = ''] = key.split(' ');
      expect(t.app.hasRoute({ method: method as 'GET', url }), key).toBe(true);
    }
  });

  it('sheds a costly request at once, admits a standard and a cheap one, and serves the page', async () => {
    // The session is read now, so the requests below wait only for their own query.
    expect((await myItems()).statusCode).toBe(200);
    release = await holdDatabase(t.database);
    await fillTheLine(WAITING);

    const before = t.app.loadShedding.shedCounts().db_waiting;
    const started = performance.now();
    expectShed(await feed());
    // Immediate: it never joined the line (those in it are answered after DB_ACQUIRE_TIMEOUT_MS).
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(t.app.loadShedding.shedCounts().db_waiting).toBe(before + 1);

    const standard = myItems();
    const cheap = t.app.inject({ method: 'GET', url: '/api/notifications/unread-count', cookies });
    const page = askForAPage(t.app, cookies, await streamConnection(t.app, cookies));
    // The probes are never shed.
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    await page.drawn;
    await release();
    release = null;
    expect((await standard).statusCode).toBe(200);
    expect((await cheap).statusCode).toBe(200);
    await expectPageServed(page, false);
    // Nothing to reset: the line is short again, so the next costly request is served.
    expect((await feed()).statusCode).not.toBe(503);
  });

  it('admits a sign-in with the costly shed: the database judges it standard, its cost is the hashing (ADR 114)', async () => {
    expect((await myItems()).statusCode).toBe(200);
    release = await holdDatabase(t.database);
    await fillTheLine(WAITING);
    expectShed(await feed());
    const shed = t.app.loadShedding.shedCounts().db_waiting;
    // Admitted: it joins the line, and is answered once the database is free.
    const signIn = t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'nobody@example.com', password: 'not the password' },
    });
    await until(() => t.database.poolStats().waiting > WAITING, 2_000, 'the sign-in waiting in the line');
    expect(t.app.loadShedding.shedCounts().db_waiting).toBe(shed);
    await release();
    release = null;
    expect((await signIn).statusCode).toBe(401);
  });

  it('sheds a standard request at twice the limit, and a write refused never runs', async () => {
    expect((await myItems()).statusCode).toBe(200);
    release = await holdDatabase(t.database);
    await fillTheLine(2 * WAITING);
    expectShed(await myItems());
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/wants',
      cookies,
      payload: { title: 'Shed, never stored', category: 'tools', isService: false },
    });
    expectShed(refused);
    const page = askForAPage(t.app, cookies, await streamConnection(t.app, cookies));
    // Drawn or not is decided before the page reads anything: here, under the pressure.
    await page.drawn;
    await release();
    release = null;
    await expectPageServed(page, false);
    const listed = (await t.app.inject({ method: 'GET', url: '/api/wants/my', cookies })).json<
      Array<{ title: string }>
    >();
    expect(listed.map((want) => want.title)).not.toContain('Shed, never stored');
  });
});

// node-postgres does not say how long its first waiter has waited: this limit is PGlite's.
describe.skipIf(!!inject('pgTemplateUrl'))(
  'the embedded database: the costly shed once the first caller in line has waited SHED_DB_WAIT_MS, the standard at twice it',
  () => {
    let t: TestApp;
    let cookies: Record<string, string>;
    beforeAll(async () => {
      t = await buildWebTestApp({
        SHED_DB_WAITING: '0',
        SHED_DB_WAIT_MS: '200',
        SHED_EVENT_LOOP_DELAY_MS: '0',
      });
      cookies = await sessionCookiesFor(t.app, await createUser(t.database.db, { firstName: 'Ann' }));
    });
    afterAll(() => t.close());

    it('sheds by cost while the first waiter has waited too long', async () => {
      const myItems = () => t.app.inject({ method: 'GET', url: '/api/items/my', cookies });
      const feed = () => t.app.inject({ method: 'GET', url: '/api/feed/everything', cookies });
      expect((await myItems()).statusCode).toBe(200);
      // PGlite's release may be called twice.
      const release = await holdDatabase(t.database);
      try {
        const waiting = myItems();
        await until(() => t.database.poolStats().waiting >= 1, 2_000, 'a caller waiting for a connection');
        await until(
          () => (t.database.poolStats().oldestWaitMs ?? 0) >= 200,
          2_000,
          'the first waiting 200 ms',
        );
        expectShed(await feed());
        // A standard read still joins the line...
        const early = myItems();
        await until(() => t.database.poolStats().waiting >= 2, 2_000, 'a second caller waiting');
        await until(
          () => (t.database.poolStats().oldestWaitMs ?? 0) >= 400,
          2_000,
          'the first waiting 400 ms',
        );
        // ...until the first has waited twice the limit; what a page needs is still served.
        expectShed(await myItems());
        const page = askForAPage(t.app, cookies, await streamConnection(t.app, cookies));
        await page.drawn;
        expect(t.app.loadShedding.shedCounts().db_wait).toBe(2);
        await release();
        // The two in line are served once the database is free (well within DB_ACQUIRE_TIMEOUT_MS).
        expect((await waiting).statusCode).toBe(200);
        expect((await early).statusCode).toBe(200);
        await expectPageServed(page, false);
      } finally {
        await release();
      }
      expect((await myItems()).statusCode).toBe(200);
    });
  },
);
