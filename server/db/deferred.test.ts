import { rmSync } from 'node:fs';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../app';
import { openTestDatabase, testConfig } from '../test/helpers';
import { DatabaseNotOpenError, deferredEmbeddedDatabase } from './deferred';

// The embedded database's path: on PostgreSQL the server opens its database before building the app.
describe.skipIf(Boolean(inject('pgTemplateUrl')))('a deferred embedded database (ADR 116)', () => {
  it('refuses every use before it is open, then is the database it was opened with', async () => {
    const deferred = deferredEmbeddedDatabase();
    const { handle } = deferred;
    expect(handle.kind).toBe('pglite');
    // What a plugin may keep from its registration: a stand-in that refuses until then.
    const kept = handle.db;
    expect(() => kept.execute).toThrow(DatabaseNotOpenError);
    expect(() => handle.pglite).toThrow(DatabaseNotOpenError);
    expect(() => handle.poolStats()).toThrow(DatabaseNotOpenError);
    expect(() => handle.ping()).toThrow(DatabaseNotOpenError);

    const { handle: real, drop } = await openTestDatabase();
    try {
      deferred.open(real);
      expect(handle.db).toBe(real.db);
      expect(handle.pglite).toBe(real.pglite);
      expect(handle.poolStats()).toEqual(real.poolStats());
      await handle.ping();
      // The stand-in kept before is the real database's methods, bound to it (and bound once).
      const result = (await kept.execute('SELECT 40 + 2 AS answer')) as unknown as { rows: unknown[] };
      expect(result.rows).toEqual([{ answer: 42 }]);
      expect(kept.execute).toBe(kept.execute);
      expect('select' in kept).toBe(true);
      await kept.transaction(async (tx) => {
        await tx.execute('SELECT 1');
      });
    } finally {
      await drop();
    }
  });

  describe('the app built before its database opens', () => {
    let close: (() => Promise<void>) | undefined;
    afterAll(() => close?.());

    it('registers without a query, and serves sign-up, sign-in and a session once it is open', async () => {
      const config = testConfig();
      close = async () => rmSync(config.dataDir, { recursive: true, force: true });
      const deferred = deferredEmbeddedDatabase();
      // Any plugin that queried, or read the database's members, while registering throws here.
      const app = await buildApp({ config, database: deferred.handle });
      const { handle, drop } = await openTestDatabase();
      close = async () => {
        await app.close();
        await drop();
        rmSync(config.dataDir, { recursive: true, force: true });
      };
      deferred.open(handle);
      await app.ready();

      const account = { firstName: 'Dee', email: 'dee@example.com', password: 'correct horse' };
      const registered = await app.inject({ method: 'POST', url: '/api/auth/register', payload: account });
      expect(registered.statusCode).toBe(201);
      const signedIn = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: account.email, password: account.password },
      });
      expect(signedIn.statusCode).toBe(200);
      const cookies = Object.fromEntries(signedIn.cookies.map((cookie) => [cookie.name, cookie.value]));
      // The sessions' plugin keeps `app.db` from its registration: the stand-in, the database now.
      const me = await app.inject({ method: 'GET', url: '/api/auth/user', cookies });
      expect(me.statusCode).toBe(200);
      expect(me.json()).toMatchObject({ email: 'dee@example.com' });
      const items = await app.inject({ method: 'GET', url: '/api/items/my', cookies });
      expect(items.statusCode).toBe(200);
    });
  });
});
