import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import * as schema from './schema/index';

export type Schema = typeof schema;
/** The one database type the repositories take: the same for PGlite and node-postgres. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface DatabaseHandle {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  /** Flush (PGlite: CHECKPOINT) and release every connection. */
  close(): Promise<void>;
  /** The underlying PGlite, for tests that clone a migrated database. */
  pglite?: PGlite;
}

export interface PgliteOptions {
  /** Directory to persist to; undefined keeps the database in memory. */
  dataDir?: string;
  /** A tarball from `dumpDataDir()` to start from (tests clone a migrated database this way). */
  loadDataDir?: Blob;
}

/** Embedded PostgreSQL (PGlite), the default when DATABASE_URL is unset. */
export async function openPglite(options: PgliteOptions = {}): Promise<DatabaseHandle> {
  const client = await PGlite.create({
    // Extensions must be known at construction; migration 0002 runs CREATE EXTENSION for them.
    extensions: { pg_trgm },
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  let closed = false;
  return {
    kind: 'pglite',
    db,
    pglite: client,
    async ping() {
      await client.query('SELECT 1');
    },
    async close() {
      if (closed) return;
      closed = true;
      if (options.dataDir) await client.exec('CHECKPOINT');
      await client.close();
    },
  };
}

export interface PostgresOptions {
  url: string;
  poolMax: number;
  statementTimeoutMs: number;
  onPoolError?: (error: Error) => void;
}

/** A PostgreSQL server through a bounded node-postgres pool. */
export function openPostgres(options: PostgresOptions): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolMax,
    // Without these a request waits forever when the server is gone or the pool is exhausted.
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    statement_timeout: options.statementTimeoutMs,
    application_name: 'barterhood',
  });
  // An idle client losing its connection emits 'error' on the pool; unhandled, it would kill the process.
  pool.on('error', (error) => options.onPoolError?.(error));
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  let closed = false;
  return {
    kind: 'postgres',
    db,
    async ping() {
      await db.execute(sql`SELECT 1`);
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
