import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isDatabaseUnavailable, isUniqueViolation } from '../errors';
import { createUser, sessionCookiesFor } from '../test/factories';
import { buildTestApp, deferred, openTestDatabase, type TestApp } from '../test/helpers';
import type { DatabaseHandle } from './client';
import { queryRows } from './rows';

/** Resolves after `turns` turns of the event loop (each a setImmediate, after I/O and timers). */
async function loopTurns(turns: number): Promise<void> {
  for (let turn = 0; turn < turns; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
}

describe.skipIf(Boolean(inject('pgTemplateUrl')))('PGlite in its own thread (ADR 049)', () => {
  let database: DatabaseHandle;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ handle: database, drop } = await openTestDatabase());
  });
  afterAll(async () => {
    await drop();
  });

  it('leaves the main thread free while a long statement runs', async () => {
    let done = false;
    const statement = queryRows(database.db, sql`SELECT pg_sleep(2) AS slept`).then((rows) => {
      done = true;
      return rows;
    });
    // In the main thread PGlite's statement is one synchronous call: the loop cannot turn until it
    // has finished. In its own thread the loop keeps turning, and timers fire.
    await loopTurns(20);
    const timerFired = await new Promise<boolean>((resolve) => setTimeout(() => resolve(!done), 50));
    expect(timerFired).toBe(true);
    expect(done).toBe(false);
    expect(await statement).toHaveLength(1);
  });

  it('lets the loop turn between the statements of a transaction', async () => {
    let turns = 0;
    let counting = true;
    const count = () => {
      turns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const before = turns;
    const total = await database.db.transaction(async (tx) => {
      let sum = 0;
      for (let i = 1; i <= 30; i++) {
        const [row] = await queryRows<{ n: number }>(tx, sql`SELECT ${i}::int AS n`);
        sum += row?.n ?? 0;
      }
      return sum;
    });
    counting = false;
    expect(total).toBe(465);
    // Each answer arrives as a message, a task of its own: the loop came round many times.
    expect(turns - before).toBeGreaterThanOrEqual(15);
  });

  it('commits, rolls back and keeps PostgreSQL’s error fields across the thread', async () => {
    await database.db.execute(sql`CREATE TABLE thread_probe (id int PRIMARY KEY, at timestamptz)`);
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO thread_probe VALUES (1, now())`);
    });
    const failed = await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO thread_probe VALUES (2, now())`);
        await tx.execute(sql`INSERT INTO thread_probe VALUES (1, now())`);
      })
      .catch((error: unknown) => error);
    expect(isUniqueViolation(failed, 'thread_probe_pkey')).toBe(true);
    const rows = await queryRows<{ id: number; at: unknown }>(
      database.db,
      sql`SELECT id, at FROM thread_probe ORDER BY id`,
    );
    // Rolled back; and drizzle's parsers applied in the thread keep timestamps as text.
    expect(rows.map((row) => row.id)).toEqual([1]);
    expect(typeof rows[0]?.at).toBe('string');
  });

  it('runs a named statement that reaches the thread during a transaction after it, never inside it', async () => {
    const thread = database.pglite;
    if (!thread) throw new Error('no PGlite thread');
    await database.db.execute(sql`CREATE TABLE named_probe (id int)`);
    let counted: Promise<{ rows: Array<{ n: number }> }> | undefined;
    const rolledBack = await thread
      .transaction(async (tx) => {
        await tx.query('INSERT INTO named_probe VALUES (1)');
        counted = thread.queryNamed('named_probe_count', 'SELECT count(*)::int AS n FROM named_probe', []);
        // The statement's message is in the thread while the transaction waits for its next one.
        await loopTurns(10);
        throw new Error('roll back');
      })
      .catch((error: unknown) => error);
    expect(rolledBack).toBeInstanceOf(Error);
    // Inside the transaction it would have counted the uncommitted row.
    expect((await counted)?.rows).toEqual([{ n: 0 }]);
  });

  it('answers statements sent together each with its own rows, and counts the thread’s time once (ADR 129)', async () => {
    const thread = database.pglite;
    if (!thread) throw new Error('no PGlite thread');
    const busyBefore = thread.busyMs;
    const started = performance.now();
    const sent = [1, 2, 3, 4].map((n) =>
      queryRows<{ n: number }>(database.db, sql`SELECT ${n}::int AS n, pg_sleep(0.1)`),
    );
    await loopTurns(1);
    // Two are with the thread (one running, the next queued there), two wait their turn here.
    expect(database.poolStats().waiting).toBe(2);
    const answers = await Promise.all(sent);
    const wall = performance.now() - started;
    expect(answers.map((rows) => rows[0]?.n)).toEqual([1, 2, 3, 4]);
    const busy = thread.busyMs - busyBefore;
    // Four sleeps of 100 ms, one after another in the thread: each timed from its turn, not from
    // when it arrived behind the one before (the three that waited there would count about 200 ms).
    expect(busy).toBeGreaterThanOrEqual(395);
    expect(busy).toBeLessThan(wall);
  });

  it('delivers NOTIFY from the thread', async () => {
    const received: string[] = [];
    const { promise, resolve } = deferred();
    const unlisten = await database.listen('thread_probe_channel', {
      onNotify(payload) {
        received.push(payload);
        resolve();
      },
    });
    await database.db.execute(sql`SELECT pg_notify('thread_probe_channel', 'hello')`);
    await promise;
    await unlisten();
    expect(received).toEqual(['hello']);
  });
});

describe.skipIf(Boolean(inject('pgTemplateUrl')))('a crashed PGlite thread', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('fails what waits and what comes after with 503, never hanging', async () => {
    const thread = t.database.pglite;
    if (!thread) throw new Error('no PGlite thread');
    const cookies = await sessionCookiesFor(t.app, await createUser(t.database.db));
    const running = t.database.db.execute(sql`SELECT pg_sleep(30)`).catch((error: unknown) => error);
    await loopTurns(5);
    await thread.worker.terminate();
    expect(isDatabaseUnavailable(await running)).toBe(true);
    const later = await t.database.db.execute(sql`SELECT 1`).catch((error: unknown) => error);
    expect(isDatabaseUnavailable(later)).toBe(true);
    const response = await t.app.inject({ method: 'GET', url: '/api/feed/everything', cookies });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });
});
