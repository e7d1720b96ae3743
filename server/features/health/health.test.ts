import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newestMigrationMillis } from '../../db/migrate';
import { queryRows } from '../../db/rows';
import { buildTestApp, type TestApp } from '../../test/helpers';

describe('health probes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('healthz answers while the process is up', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('readyz answers when the database does', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(200);
  });

  it('readyz answers 503 MIGRATIONS_PENDING while the newest migration is not applied', async () => {
    const { db } = t.database;
    const newest = newestMigrationMillis();
    const [applied] = await queryRows<{ hash: string }>(
      db,
      sql`SELECT hash FROM drizzle.__drizzle_migrations WHERE created_at = ${newest}`,
    );
    expect(applied, 'the test database has the newest migration').toBeDefined();
    await db.execute(sql`DELETE FROM drizzle.__drizzle_migrations WHERE created_at = ${newest}`);
    try {
      const response = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        message: expect.stringContaining('migrations'),
        code: 'MIGRATIONS_PENDING',
      });
      // Never migrated at all: no migrations table.
      await db.execute(sql`ALTER TABLE drizzle.__drizzle_migrations RENAME TO moved_away`);
      try {
        const never = await t.app.inject({ method: 'GET', url: '/readyz' });
        expect(never.statusCode).toBe(503);
        expect(never.json()).toMatchObject({ code: 'MIGRATIONS_PENDING' });
      } finally {
        await db.execute(sql`ALTER TABLE drizzle.moved_away RENAME TO __drizzle_migrations`);
      }
    } finally {
      await db.execute(
        sql`INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES (${applied?.hash}, ${newest})`,
      );
    }
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('sends the security headers: strict CSP, no framing', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/healthz' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});
