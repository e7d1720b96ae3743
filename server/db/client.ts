import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { DatabaseBusyError } from '../errors';
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

/** How long a request may wait for a database connection before it is answered 503 (DB_ACQUIRE_TIMEOUT_MS). */
export const DEFAULT_ACQUIRE_TIMEOUT_MS = 2_000;

/**
 * One holder at a time, and a bounded wait for the others: a waiter still queued after `timeoutMs`
 * leaves the queue with DatabaseBusyError and its work never runs (so a request answered 503
 * never writes later).
 */
export class WaitLimitedMutex {
  #held = false;
  readonly #waiters: Array<() => void> = [];

  constructor(readonly timeoutMs: number) {}

  /** Run `task` once the mutex is free, or throw DatabaseBusyError after waiting `timeoutMs`. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.#acquire();
    try {
      return await task();
    } finally {
      this.#release();
    }
  }

  #acquire(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const index = this.#waiters.indexOf(grant);
        if (index >= 0) this.#waiters.splice(index, 1);
        reject(new DatabaseBusyError(this.timeoutMs));
      }, this.timeoutMs);
      this.#waiters.push(grant);
    });
  }

  #release(): void {
    // Hand over directly, so a newcomer cannot slip in between release and the next waiter.
    const next = this.#waiters.shift();
    if (next) next();
    else this.#held = false;
  }
}

/**
 * What drizzle calls on PGlite (`query`, and `transaction` whose callback then queries through its
 * own handle), behind a WaitLimitedMutex. PGlite has one connection and queues every caller without
 * limit behind a long query or an open transaction; here a caller gives up after the limit with
 * DatabaseBusyError (503), like a pool checkout on PostgreSQL. A class, not a plain object, so
 * drizzle does not mistake it for its own config object.
 */
class WaitLimitedPglite {
  constructor(
    private readonly client: PGlite,
    private readonly mutex: WaitLimitedMutex,
  ) {}

  query: PGlite['query'] = (...args) => this.mutex.run(() => this.client.query(...args));

  transaction: PGlite['transaction'] = (callback) => this.mutex.run(() => this.client.transaction(callback));
}

export interface PgliteOptions {
  /** Directory to persist to; undefined keeps the database in memory. */
  dataDir?: string;
  /** A tarball from `dumpDataDir()` to start from (tests clone a migrated database this way). */
  loadDataDir?: Blob;
  /** Longest wait behind other queries and transactions (default DEFAULT_ACQUIRE_TIMEOUT_MS). */
  acquireTimeoutMs?: number;
}

/** Embedded PostgreSQL (PGlite), the default when DATABASE_URL is unset. */
export async function openPglite(options: PgliteOptions = {}): Promise<DatabaseHandle> {
  const client = await PGlite.create({
    // Extensions must be known at construction; migration 0002 runs CREATE EXTENSION for them.
    extensions: { pg_trgm },
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  const limited = new WaitLimitedPglite(
    client,
    new WaitLimitedMutex(options.acquireTimeoutMs ?? DEFAULT_ACQUIRE_TIMEOUT_MS),
  );
  const db = drizzlePglite(limited as unknown as PGlite, { schema }) as unknown as Db;
  let closed = false;
  return {
    kind: 'pglite',
    db,
    pglite: client,
    async ping() {
      // Through the limit too, so /readyz answers 503 promptly while a transaction holds PGlite.
      await limited.query('SELECT 1');
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
  /** Longest wait for a pooled connection, or to open one (default DEFAULT_ACQUIRE_TIMEOUT_MS). */
  acquireTimeoutMs?: number;
  onPoolError?: (error: Error) => void;
}

/** A PostgreSQL server through a bounded node-postgres pool. */
export function openPostgres(options: PostgresOptions): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolMax,
    // Without a limit a request waits forever when the server is gone or the pool is exhausted;
    // past it node-postgres throws "timeout exceeded when trying to connect", answered 503.
    connectionTimeoutMillis: options.acquireTimeoutMs ?? DEFAULT_ACQUIRE_TIMEOUT_MS,
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
