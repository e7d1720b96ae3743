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
  },
);
