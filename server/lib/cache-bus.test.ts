/**
 * The cache bus (ADR 040): notices apply to the caches registered under their name; the triggers of
 * migration 0022 send them when a cached row changes, on commit, whoever writes; and two apps on one
 * database (as two processes would be) drop what the other changed. The same file runs on PGlite and
 * on PostgreSQL; server/test/two-processes.test.ts does it with two real processes.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../app';
import type { DatabaseHandle } from '../db/client';
import { queryRows } from '../db/rows';
import { createUser, sessionCookiesFor } from '../test/factories';
import { openTestDatabase, testConfig } from '../test/helpers';
import { applyCacheNotice, CACHE_CHANNEL, clearCaches, dropCached, onCacheNotice } from './cache-bus';

/** Poll until `check` holds; how long it took; fails after `ms`. */
async function within(check: () => Promise<boolean> | boolean, ms = 1_000): Promise<number> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return performance.now() - started;
}

describe('notices', () => {
  const forgotten: string[] = [];
  let cleared = 0;
  let off: () => void;
  beforeAll(() => {
    off = onCacheNotice('match-graph', { forget: (key) => forgotten.push(key), clear: () => cleared++ });
  });
  afterAll(() => off());

  it('drop the keys they name, or the whole cache without keys; anything else is ignored', () => {
    expect(applyCacheNotice(JSON.stringify({ cache: 'match-graph', keys: ['a', 'b'] }))).toBe(true);
    expect(forgotten).toEqual(['a', 'b']);
    expect(applyCacheNotice(JSON.stringify({ cache: 'match-graph' }))).toBe(true);
    expect(cleared).toBe(1);
    // Another cache's notice, and a local drop of another cache, leave this one alone.
    applyCacheNotice(JSON.stringify({ cache: 'session', keys: ['a'] }));
    dropCached('member', ['a']);
    expect(forgotten).toEqual(['a', 'b']);
    expect(applyCacheNotice('not json')).toBe(false);
    expect(applyCacheNotice('{"keys":["a"]}')).toBe(false);
    expect(applyCacheNotice('{"cache":"match-graph","keys":"a"}')).toBe(false);
    expect(forgotten).toEqual(['a', 'b']);
    clearCaches();
    expect(cleared).toBe(2);
  });
});

describe('the triggers', () => {
  let database: { handle: DatabaseHandle; drop(): Promise<void> };
  let unlisten: () => Promise<void>;
  const notices: Array<{ cache: string; keys?: string[] }> = [];

  beforeAll(async () => {
    database = await openTestDatabase();
    unlisten = await database.handle.listen(CACHE_CHANNEL, {
      onNotify: (payload) => notices.push(JSON.parse(payload)),
    });
  });
  afterAll(async () => {
    await unlisten();
    await database.drop();
  });

  /**
   * The notices a write sends (after it commits): `expected` of them, and no late one. A marker
   * notified after the write's commit arrives after every notice of the write (notices come in commit
   * order), so once it is in, there is nothing more to wait for.
   */
  async function noticesOf(write: () => Promise<unknown>, expected: number) {
    notices.length = 0;
    await write();
    await database.handle.db.execute(sql`SELECT pg_notify(${CACHE_CHANNEL}, '{"cache":"test-marker"}')`);
    await within(() => notices.some((notice) => notice.cache === 'test-marker'));
    const sent = notices.slice(
      0,
      notices.findIndex((notice) => notice.cache === 'test-marker'),
    );
    expect(sent).toHaveLength(expected);
    return sent;
  }

  it("a member's row: its id, once per statement; presence alone sends nothing", async () => {
    const { db } = database.handle;
    const [ann, bob] = [await createUser(db), await createUser(db)];
    expect(
      await noticesOf(
        () => db.execute(sql`UPDATE users SET bio = 'Hi' WHERE id IN (${ann.id}::uuid, ${bob.id}::uuid)`),
        1,
      ),
    ).toEqual([{ cache: 'member', keys: expect.arrayContaining([ann.id, bob.id]) }]);
    expect(await noticesOf(() => db.execute(sql`UPDATE users SET last_seen_at = now()`), 0)).toEqual([]);
    expect(await noticesOf(() => db.execute(sql`DELETE FROM users WHERE id = ${bob.id}::uuid`), 1)).toEqual([
      { cache: 'member', keys: [bob.id] },
    ]);
  });

  it('nothing from a rolled-back transaction; on commit from a committed one', async () => {
    const { db } = database.handle;
    const cat = await createUser(db);
    const rolledBack = await noticesOf(
      () =>
        db
          .transaction(async (tx) => {
            await tx.execute(sql`UPDATE users SET bio = 'Never' WHERE id = ${cat.id}::uuid`);
            throw new Error('roll back');
          })
          .catch(() => {}),
      0,
    );
    expect(rolledBack).toEqual([]);
    const committed = await noticesOf(
      () =>
        db.transaction(async (tx) => {
          await tx.execute(sql`UPDATE users SET bio = 'Once' WHERE id = ${cat.id}::uuid`);
          await tx.execute(sql`UPDATE users SET bio = 'Twice' WHERE id = ${cat.id}::uuid`);
        }),
      1,
    );
    // PostgreSQL folds identical notices of one transaction into one.
    expect(committed).toEqual([{ cache: 'member', keys: [cat.id] }]);
  });

  it('too many keys for one NOTIFY: the whole cache', async () => {
    const { db } = database.handle;
    await db.execute(sql`INSERT INTO users (first_name) SELECT 'Many' FROM generate_series(1, 300)`);
    // Past 64 rows the trigger plans its join for the statement (migration 0053): the same notices.
    expect(
      await noticesOf(
        () => db.execute(sql`UPDATE users SET last_seen_at = now() WHERE first_name = 'Many'`),
        0,
      ),
    ).toEqual([]);
    const hundred = await queryRows<{ id: string }>(
      db,
      sql`SELECT id::text AS id FROM users WHERE first_name = 'Many' ORDER BY id LIMIT 100`,
    );
    const ids = hundred.map((row) => row.id);
    expect(
      await noticesOf(
        () => db.execute(sql`UPDATE users SET bio = 'Some' WHERE id = ANY(${`{${ids.join(',')}}`}::uuid[])`),
        1,
      ),
    ).toEqual([{ cache: 'member', keys: expect.arrayContaining(ids) }]);
    expect(
      await noticesOf(() => db.execute(sql`UPDATE users SET bio = 'All' WHERE first_name = 'Many'`), 1),
    ).toEqual([{ cache: 'member' }]);
  });

  it('a session that ended: its hashed id; expired ones (the purge) send nothing', async () => {
    const { db } = database.handle;
    const dan = await createUser(db);
    await db.execute(
      sql`INSERT INTO sessions (sid, sess, expire) VALUES
            ('live-one', ${JSON.stringify({ userId: dan.id, createdAt: 0 })}::jsonb, now() + interval '1 day'),
            ('expired-one', ${JSON.stringify({ userId: dan.id, createdAt: 0 })}::jsonb, now() - interval '1 day')`,
    );
    expect(await noticesOf(() => db.execute(sql`DELETE FROM sessions WHERE sid = 'expired-one'`), 0)).toEqual(
      [],
    );
    expect(await noticesOf(() => db.execute(sql`DELETE FROM sessions WHERE sid = 'live-one'`), 1)).toEqual([
      { cache: 'session', keys: ['live-one'] },
    ]);
  });

  it('a match graph dropped: its member', async () => {
    const { db } = database.handle;
    const eve = await createUser(db);
    await db.execute(sql`INSERT INTO match_graph_members (member_id) VALUES (${eve.id}::uuid)`);
    expect(
      await noticesOf(
        () => db.execute(sql`DELETE FROM match_graph_members WHERE member_id = ${eve.id}::uuid`),
        1,
      ),
    ).toEqual([{ cache: 'match-graph', keys: [eve.id] }]);
  });
});

/**
 * Two apps on one database, each with its own session cache, as two processes behind a load
 * balancer would be (fast; the real processes are in server/test/two-processes.test.ts).
 */
describe('two apps on one database', () => {
  let database: { handle: DatabaseHandle; url?: string; drop(): Promise<void> };
  let one: FastifyInstance;
  let two: FastifyInstance;

  beforeAll(async () => {
    database = await openTestDatabase();
    const config = testConfig();
    one = await buildApp({ config, database: database.handle });
    two = await buildApp({ config, database: database.handle });
    await Promise.all([one.ready(), two.ready()]);
  });
  afterAll(async () => {
    await Promise.all([one?.close(), two?.close()]);
    await database.drop();
  });

  const me = (app: FastifyInstance, cookies: Record<string, string>) =>
    app.inject({ method: 'GET', url: '/api/auth/user', cookies });

  it('signed out through one, refused by the other within a second', async () => {
    const ann = await createUser(database.handle.db);
    const cookies = await sessionCookiesFor(one, ann);
    // Both keep the session (the other's cache would serve it for SESSION_CACHE_MS).
    expect((await me(one, cookies)).statusCode).toBe(200);
    expect((await me(two, cookies)).statusCode).toBe(200);
    const out = await one.inject({ method: 'POST', url: '/api/auth/logout', cookies });
    expect(out.statusCode).toBe(204);
    expect((await me(one, cookies)).statusCode).toBe(401);
    expect(await within(async () => (await me(two, cookies)).statusCode === 401)).toBeLessThan(1_000);
  });

  it("a member's row written anywhere (here a script's UPDATE) is read again by both", async () => {
    const bob = await createUser(database.handle.db, { firstName: 'Bob' });
    const cookies = await sessionCookiesFor(one, bob);
    expect((await me(one, cookies)).json()).toMatchObject({ firstName: 'Bob' });
    expect((await me(two, cookies)).json()).toMatchObject({ firstName: 'Bob' });
    await database.handle.db.execute(sql`UPDATE users SET first_name = 'Robert' WHERE id = ${bob.id}::uuid`);
    for (const app of [one, two]) {
      const took = await within(async () => (await me(app, cookies)).json().firstName === 'Robert');
      expect(took).toBeLessThan(1_000);
    }
  });

  it.skipIf(!inject('pgTemplateUrl'))(
    'PostgreSQL: a lost listening connection, once back, clears every cache (notices may have been missed)',
    async () => {
      let cleared = 0;
      const off = onCacheNotice('match-graph', { forget: () => {}, clear: () => cleared++ });
      try {
        const admin = new pg.Client({ connectionString: database.url });
        await admin.connect();
        try {
          const { rowCount } = await admin.query(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
             WHERE datname = current_database() AND application_name = $1`,
            [`barterhood-listen:${CACHE_CHANNEL}`],
          );
          expect(rowCount).toBe(2); // one per app
        } finally {
          await admin.end();
        }
        // Reopened after LISTEN_RETRY_FIRST_MS (250 ms); each app clears the process's caches.
        expect(await within(() => cleared >= 1, 3_000)).toBeLessThan(3_000);
      } finally {
        off();
      }
    },
  );
});
