import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { DatabaseHandle, Db } from './client';
import { queryRows } from './rows';

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

/** Apply the committed SQL migrations in `drizzle/` (idempotent). */
export async function migrateDatabase(handle: DatabaseHandle, databaseUrl?: string): Promise<void> {
  if (handle.kind === 'pglite') {
    if (!handle.pglite) throw new Error('PGlite handle without its client');
    // In PGlite's own thread (ADR 049).
    await handle.pglite.migrate(MIGRATIONS_DIR);
    return;
  }
  if (!databaseUrl) throw new Error('migrateDatabase needs the database URL for PostgreSQL');
  // node-postgres loads for PostgreSQL only (ADR 122).
  const { migratePostgres } = await import('./postgres');
  await migratePostgres(databaseUrl, MIGRATIONS_DIR);
}

let newestMigration: number | undefined;

/**
 * When the newest migration in `drizzle/` was generated (its journal's `when`): what drizzle's
 * migrator records as `created_at` once it has applied it, and compares to decide what is due.
 */
export function newestMigrationMillis(): number {
  if (newestMigration === undefined) {
    const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
      entries: Array<{ when: number }>;
    };
    newestMigration = Math.max(0, ...journal.entries.map((entry) => entry.when));
  }
  return newestMigration;
}

/** PostgreSQL's codes for a missing table and a missing schema: nothing was ever migrated. */
const NEVER_MIGRATED = new Set(['42P01', '3F000']);

function errorCode(error: unknown): unknown {
  let current: unknown = error;
  for (let depth = 0; current && depth < 6; depth++) {
    const { code } = current as { code?: unknown };
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Whether every migration in `drizzle/` has been applied to `db` (one small statement; /readyz).
 * Throws when the database cannot be asked.
 */
export async function migrationsApplied(db: Db): Promise<boolean> {
  try {
    const [row] = await queryRows<{ newest: string | null }>(
      db,
      sql`SELECT max(created_at)::text AS newest FROM drizzle.__drizzle_migrations`,
    );
    return row?.newest != null && Number(row.newest) >= newestMigrationMillis();
  } catch (error) {
    if (NEVER_MIGRATED.has(errorCode(error) as string)) return false;
    throw error;
  }
}
