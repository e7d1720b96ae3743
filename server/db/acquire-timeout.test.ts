import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { DatabaseBusyError } from '../errors';
import { createUser, sessionCookiesFor } from '../test/factories';
import { buildTestApp, holdDatabase, type TestApp } from '../test/helpers';
import { DEFAULT_ACQUIRE_TIMEOUT_MS, openPostgres, WaitLimitedMutex } from './client';

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
