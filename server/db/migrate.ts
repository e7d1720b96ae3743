import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { DatabaseHandle } from './client';

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

/** Arbitrary key for the advisory lock that keeps two servers from migrating the same database at once. */
const MIGRATION_LOCK_KEY = 7_245_001;

/** Apply the committed SQL migrations in `drizzle/` (idempotent). */
export async function migrateDatabase(handle: DatabaseHandle, databaseUrl?: string): Promise<void> {
  if (handle.kind === 'pglite') {
    if (!handle.pglite) throw new Error('PGlite handle without its client');
    await migratePglite(drizzlePglite(handle.pglite), { migrationsFolder: MIGRATIONS_DIR });
    return;
  }
  if (!databaseUrl) throw new Error('migrateDatabase needs the database URL for PostgreSQL');
  // One dedicated connection, so the advisory lock and the migration share a session.
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS_DIR });
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
    await client.end();
  }
}
