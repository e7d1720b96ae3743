import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../config';
import { DatabaseBusyError } from '../errors';
import { createUser, sessionCookiesFor } from '../test/factories';
import { buildTestApp, holdDatabase, type TestApp } from '../test/helpers';
import {
  DEFAULT_ACQUIRE_TIMEOUT_MS,
  type HeldTooLong,
  inBackground,
  openPglite,
  WaitLimitedMutex,
} from './client';
import { openPostgres } from './postgres';

/** A promise and the function that settles it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe('DB_ACQUIRE_TIMEOUT_MS', () => {
  it('defaults to 1.5 s and is the PostgreSQL pool’s connection timeout', async () => {
    expect(DEFAULT_ACQUIRE_TIMEOUT_MS).toBe(1_500);
    expect(loadConfig({ DATA_DIR: '/tmp/unused', SESSION_SECRET: 'x'.repeat(32) }).db.acquireTimeoutMs).toBe(
      1_500,
    );
    expect(
      loadConfig({ DATA_DIR: '/tmp/unused', SESSION_SECRET: 'x'.repeat(32), DB_ACQUIRE_TIMEOUT_MS: '750' }).db
        .acquireTimeoutMs,
    ).toBe(750);
    for (const acquireTimeoutMs of [undefined, 750]) {
      // No connection is made until a query runs.
      const handle = openPostgres({
        url: 'postgres://nobody@127.0.0.1:1/none',
        poolMax: 1,
        statementTimeoutMs: 1_000,
        acquireTimeoutMs,
      });
      const pool = (handle.db as unknown as { $client: pg.Pool }).$client;
      expect(pool.options.connectionTimeoutMillis).toBe(acquireTimeoutMs ?? 1_500);
      await handle.close();
    }
  });
});

describe('WaitLimitedMutex', () => {
  it('runs one task at a time, in order, and drops a waiter that gives up so it never runs', async () => {
    const mutex = new WaitLimitedMutex(50);
    const ran: string[] = [];
    const held = gate();
    const first = mutex.run(async () => {
      ran.push('first');
      await held.opened;
    });
    const second = mutex.run(async () => {
      ran.push('second');
    });
    await expect(second).rejects.toBeInstanceOf(DatabaseBusyError);
    held.open();
    await first;
    await mutex.run(async () => {
      ran.push('third');
    });
    expect(ran).toEqual(['first', 'third']);
  });

  it('hands the mutex to waiters in arrival order within the limit', async () => {
    const mutex = new WaitLimitedMutex(5_000);
    const ran: number[] = [];
    await Promise.all([1, 2, 3].map((n) => mutex.run(async () => void ran.push(n))));
    expect(ran).toEqual([1, 2, 3]);
  });
});

/**
 * ADR 129: the embedded database's thread is given the next statement while one runs there. Two
 * single statements hold the mutex at once; a transaction and background work hold it alone.
 */
describe('WaitLimitedMutex, two statements deep', () => {
  /** A task that records its start and runs until its gate opens. */
  function held(
    mutex: WaitLimitedMutex,
    name: string,
    started: string[],
    options: { exclusive?: boolean; background?: boolean } = {},
  ) {
    const { opened, open } = gate();
    const done = mutex.run(
      async () => {
        started.push(name);
        await opened;
      },
      options.background ?? false,
      options.exclusive ?? false,
    );
    return { open, done };
  }

  it('lets a second statement in while the first runs, and queues the third', async () => {
    const mutex = new WaitLimitedMutex(5_000, 5_000, 2);
    const started: string[] = [];
    const a = held(mutex, 'a', started);
    const b = held(mutex, 'b', started);
    const c = held(mutex, 'c', started);
    await Promise.resolve();
    expect(started).toEqual(['a', 'b']);
    expect(mutex.waiting).toBe(1);
    a.open();
    await a.done;
    expect(started).toEqual(['a', 'b', 'c']);
    b.open();
    c.open();
    await Promise.all([b.done, c.done]);
    expect(mutex.held).toBe(false);
  });

  it('runs a transaction alone: it waits for both statements, and those after it wait for it', async () => {
    const mutex = new WaitLimitedMutex(5_000, 5_000, 2);
    const started: string[] = [];
    const a = held(mutex, 'a', started);
    const transaction = held(mutex, 'transaction', started, { exclusive: true });
    const b = held(mutex, 'b', started);
    await Promise.resolve();
    // The statement that came after the transaction does not overtake it.
    expect(started).toEqual(['a']);
    a.open();
    await a.done;
    expect(started).toEqual(['a', 'transaction']);
    transaction.open();
    await transaction.done;
    expect(started).toEqual(['a', 'transaction', 'b']);
    b.open();
    await b.done;
  });

  it('runs background work alone and only when no request waits', async () => {
    const mutex = new WaitLimitedMutex(5_000, 5_000, 2);
    const started: string[] = [];
    const a = held(mutex, 'a', started);
    const job = held(mutex, 'job', started, { background: true });
    await Promise.resolve();
    // One place is free, but a job never shares the thread with a request's statement.
    expect(started).toEqual(['a']);
    const b = held(mutex, 'b', started);
    await Promise.resolve();
    expect(started).toEqual(['a', 'b']);
    a.open();
    b.open();
    await Promise.all([a.done, b.done]);
    expect(started).toEqual(['a', 'b', 'job']);
    job.open();
    await job.done;
  });

  it('lets those behind a waiter that gave up in, when they fit', async () => {
    const mutex = new WaitLimitedMutex(30, 5_000, 2);
    const started: string[] = [];
    const a = held(mutex, 'a', started);
    const transaction = held(mutex, 'transaction', started, { exclusive: true });
    const b = mutex.run(async () => void started.push('b'));
    await expect(transaction.done).rejects.toBeInstanceOf(DatabaseBusyError);
    // The transaction waited for 'a' and gave up; 'b' fits beside 'a' and must not wait for it.
    await expect(b).resolves.toBeUndefined();
    expect(started).toEqual(['a', 'b']);
    a.open();
    await a.done;
  });
});

/**
 * Issue 12 point 9: with the database held, requests waited 5-10 s for their 503. Now they wait at
 * most DB_ACQUIRE_TIMEOUT_MS (2 s) for a connection, then get 503 with Retry-After; once the
 * database is free again they succeed. On PostgreSQL every pooled client is checked out; on PGlite
 * (one connection) a transaction is held open.
 */
describe('background work on the embedded database (ADR 098)', () => {
  it('waits behind every request, on its own longer limit, and its wait is not the members’', async () => {
    const mutex = new WaitLimitedMutex(1_000, 5_000);
    const ran: string[] = [];
    const held = gate();
    const first = mutex.run(async () => {
      ran.push('request 1');
      await held.opened;
    });
    const job = mutex.run(async () => {
      ran.push('job');
    }, true);
    // A job alone in line: nobody's request waits, so no wait to shed on.
    expect(mutex.waiting).toBe(1);
    expect(mutex.oldestWaitMs()).toBe(0);
    const second = mutex.run(async () => {
      ran.push('request 2');
    });
    expect(mutex.waiting).toBe(2);
    expect(mutex.oldestWaitMs()).toBeGreaterThanOrEqual(0);
    held.open();
    await Promise.all([first, job, second]);
    // The request that came after the job went before it.
    expect(ran).toEqual(['request 1', 'request 2', 'job']);
  });

  it.skipIf(Boolean(inject('pgTemplateUrl')))(
    'runs a job’s queries through inBackground, and a request keeps its place ahead of them',
    async () => {
      const dump = new Blob([readFileSync(inject('pgliteDump'))]);
      const handle = await openPglite({ loadDataDir: dump, acquireTimeoutMs: 10_000 });
      try {
        const order: string[] = [];
        const held = gate();
        const transaction = handle.db.transaction(async (tx) => {
          await tx.execute(sql`SELECT 1`);
          await held.opened;
        });
        const job = inBackground(async () => {
          await handle.db.execute(sql`SELECT 2`);
          order.push('job');
        });
        const request = handle.db.execute(sql`SELECT 3`).then(() => order.push('request'));
        held.open();
        await Promise.all([transaction, job, request]);
        expect(order).toEqual(['request', 'job']);
      } finally {
        await handle.close();
      }
    },
  );
});

describe('a held database answers 503 with Retry-After, then recovers', () => {
  let t: TestApp;
  let cookies: Record<string, string>;
  beforeAll(async () => {
    t = await buildTestApp();
    cookies = await sessionCookiesFor(t.app, await createUser(t.database.db));
  });
  afterAll(() => t.close());

  const myItems = () => t.app.inject({ method: 'GET', url: '/api/items/my', cookies });

  it('on a data route and on /readyz', async () => {
    expect((await myItems()).statusCode).toBe(200);
    const release = await holdDatabase(t.database);
    try {
      const [items, ready] = await Promise.all([myItems(), t.app.inject({ method: 'GET', url: '/readyz' })]);
      for (const response of [items, ready]) {
        expect(response.statusCode).toBe(503);
        expect(response.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
        expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      }
    } finally {
      await release();
    }
    expect((await myItems()).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('never runs a write that was answered 503', async () => {
    const release = await holdDatabase(t.database);
    let refused: Awaited<ReturnType<typeof myItems>>;
    try {
      refused = await t.app.inject({
        method: 'POST',
        url: '/api/wants',
        cookies,
        payload: { title: 'Never stored', category: 'tools', isService: false },
      });
    } finally {
      await release();
    }
    expect(refused.statusCode).toBe(503);
    const listed = (await t.app.inject({ method: 'GET', url: '/api/wants/my', cookies })).json<
      Array<{ title: string }>
    >();
    expect(listed.map((want) => want.title)).not.toContain('Never stored');
  });
});

describe.skipIf(Boolean(inject('pgTemplateUrl')))(
  'DB_SLOW_HOLD_MS: a long hold of the embedded database is reported',
  () => {
    it('names the transaction’s statements, PGlite’s own time and the time held, not a quick query that waited', async () => {
      expect(loadConfig({ DATA_DIR: '/tmp/unused', SESSION_SECRET: 'x'.repeat(32) }).db.slowHoldMs).toBe(250);
      const holds: HeldTooLong[] = [];
      const handle = await openPglite({
        loadDataDir: new Blob([readFileSync(inject('pgliteDump'))]),
        // Long enough for the query behind to wait out the hold on a starved host.
        acquireTimeoutMs: 10_000,
        slowHoldMs: 200,
        onSlowHold: (hold) => holds.push(hold),
      });
      try {
        // A transaction whose main-thread side is busy elsewhere between its statements (a timer
        // stands for that work): PGlite idles, and a query queued behind it waits the whole time.
        const held = gate();
        const transaction = handle.db.transaction(async (tx) => {
          await tx.execute(sql`SELECT 2 AS "first"`);
          await held.opened;
          await tx.execute(sql`SELECT 3 AS "second"`);
        });
        const behind = handle.db.execute(sql`SELECT 4 AS "behind"`);
        setTimeout(held.open, 400);
        await Promise.all([transaction, behind]);

        const [hold, ...others] = holds;
        expect(hold).toMatchObject({ kind: 'transaction', statements: 2 });
        expect(hold?.sql).toEqual(['SELECT 2 AS "first"', 'SELECT 3 AS "second"']);
        expect(hold?.heldMs).toBeGreaterThanOrEqual(390);
        // PGlite's own time is a small part of the hold: the rest was the main thread's.
        expect(hold?.databaseMs).toBeLessThan((hold?.heldMs ?? 0) / 2);
        // The query behind it waited 400 ms but held the connection briefly: waiting is not holding.
        expect(others).toEqual([]);
      } finally {
        await handle.close();
      }
    });

    it('reports a slow statement, not the quick one sent to the thread behind it (ADR 129)', async () => {
      const holds: HeldTooLong[] = [];
      const handle = await openPglite({
        loadDataDir: new Blob([readFileSync(inject('pgliteDump'))]),
        acquireTimeoutMs: 10_000,
        slowHoldMs: 200,
        onSlowHold: (hold) => holds.push(hold),
      });
      try {
        const slow = handle.db.execute(sql`SELECT pg_sleep(0.4) AS "slow"`);
        const quick = handle.db.execute(sql`SELECT 5 AS "quick"`);
        // Both are with the thread: the quick one waits there, not here.
        expect(handle.poolStats().waiting).toBe(0);
        await Promise.all([slow, quick]);
        expect(holds).toHaveLength(1);
        expect(holds[0]).toMatchObject({
          kind: 'query',
          statements: 1,
          sql: ['SELECT pg_sleep(0.4) AS "slow"'],
        });
        expect(holds[0]?.databaseMs).toBeGreaterThanOrEqual(395);
      } finally {
        await handle.close();
      }
    });
  },
);
