import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isDatabaseUnavailable } from '../errors';
import { openTestDatabase } from '../test/helpers';
import { openPostgres } from './postgres';
import { queryRows } from './rows';

/**
 * A PostgreSQL connection that dies while a request holds it (its backend terminated, the network
 * cut) fails that request's next query; it must not end the server process, and the pool goes on
 * with new connections (npm run test:faults found the process dying on an unheard 'error' event).
 */
describe.skipIf(!inject('pgTemplateUrl'))('a pooled connection lost while checked out (PostgreSQL)', () => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.drop());

  it('fails the query in flight, reports the error, and the next query gets a new connection', async () => {
    const reported: Error[] = [];
    const handle = openPostgres({
      url: database.url as string,
      poolMax: 2,
      statementTimeoutMs: 5_000,
      onPoolError: (error) => reported.push(error),
    });
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      const transaction = handle.db.transaction(async (tx) => {
        const [row] = await queryRows<{ pid: number }>(tx, sql`SELECT pg_backend_pid()::int AS pid`);
        await admin.query('SELECT pg_terminate_backend($1)', [row?.pid]);
        // The connection's end arrives while the client is checked out and idle between queries: the
        // pool reports it.
        await expect.poll(() => reported.length).toBeGreaterThan(0);
        await tx.execute(sql`SELECT 1`);
      });
      const failed = await transaction.then(
        () => null,
        (error: unknown) => error,
      );
      // The driver's own words for a client whose connection broke, read as "database unavailable" (503).
      expect((failed as Error | null)?.cause).toMatchObject({
        message: 'Client has encountered a connection error and is not queryable',
      });
      expect(isDatabaseUnavailable(failed)).toBe(true);
      await handle.ping();
    } finally {
      await admin.end();
      await handle.close();
    }
  });
});
