/**
 * PostgreSQL through node-postgres (DATABASE_URL): the app's pool, the job queue's, LISTEN, and the
 * migrations. Its own module, loaded only when the database is PostgreSQL: the embedded database's
 * start never loads node-postgres (ADR 122).
 */
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import {
  type DatabaseHandle,
  type Db,
  DEFAULT_ACQUIRE_TIMEOUT_MS,
  type ListenHandlers,
  namedStatements,
} from './client';
import * as schema from './schema/index';
import { sessionSettingArgs } from './session-settings';
import { DRIZZLE_TEXT_TYPES, keepText } from './text-types';

export interface PostgresOptions {
  url: string;
  poolMax: number;
  statementTimeoutMs: number;
  /** Longest wait for a pooled connection, or to open one (default DEFAULT_ACQUIRE_TIMEOUT_MS). */
  acquireTimeoutMs?: number;
  onPoolError?: (error: Error) => void;
}

/**
 * The job queue's connections, beside DB_POOL_MAX: pg-boss's statements are short (a fetch, a
 * completion, a schedule), and its workers poll several times a second. On the requests' pool those
 * polls joined the line whenever the database was slow, and a standard request was shed for work
 * that no member was waiting for (ADR 072).
 */
export const JOB_QUEUE_POOL_MAX = 2;

/** A bounded node-postgres pool whose connection failures are reported, never thrown. */
function boundedPool(options: PostgresOptions, max: number, name: string): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.url,
    max,
    // Without a limit a request waits forever when the server is gone or the pool is exhausted;
    // past it node-postgres throws "timeout exceeded when trying to connect", answered 503.
    connectionTimeoutMillis: options.acquireTimeoutMs ?? DEFAULT_ACQUIRE_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    statement_timeout: options.statementTimeoutMs,
    // The app's session settings (server/db/session-settings.ts): no JIT, the trigram threshold.
    options: sessionSettingArgs().join(' '),
    application_name: name,
  });
  // An idle client losing its connection emits 'error' on the pool; unhandled, it would kill the process.
  pool.on('error', (error) => options.onPoolError?.(error));
  // A checked-out client whose connection dies between two queries (a backend terminated, the
  // network cut) emits 'error' on itself, where the pool does not listen: unheard, it ended the
  // process (npm run test:faults, pg-backends-killed and pg-connection-cut). Its query fails (503)
  // and the pool drops it when released.
  pool.on('connect', (client) => {
    client.on('error', (error) => options.onPoolError?.(error));
  });
  return pool;
}

/** drizzle's parsers for prepared statements' rows (DRIZZLE_TEXT_TYPES as text; ADR 126). */
const DRIZZLE_TYPES = {
  getTypeParser: (typeId: number, format?: 'text' | 'binary') =>
    DRIZZLE_TEXT_TYPES.has(typeId) ? keepText : pg.types.getTypeParser(typeId, format),
} as pg.CustomTypesConfig;

/** A PostgreSQL server through a bounded node-postgres pool, and a small one for the job queue. */
export function openPostgres(options: PostgresOptions): DatabaseHandle {
  const pool = boundedPool(options, options.poolMax, 'barterhood');
  const jobQueuePool = boundedPool(options, JOB_QUEUE_POOL_MAX, 'barterhood-jobs');
  // node-postgres keeps a named statement per connection, parsed once on each.
  namedStatements.set(pool, {
    queryNamed: async <T>(name: string, text: string, values: unknown[]) => ({
      rows: (await pool.query({ name, text, values, types: DRIZZLE_TYPES })).rows as T[],
    }),
  });
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  let closed = false;
  return {
    kind: 'postgres',
    db,
    async ping() {
      await db.execute(sql`SELECT 1`);
    },
    listen(channel, handlers) {
      return listenOnPostgres(options, channel, handlers);
    },
    executeSql: (text, values) => pool.query(text, values),
    jobQueueSql: (text, values) => jobQueuePool.query(text, values),
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: options.poolMax,
    }),
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([pool.end(), jobQueuePool.end()]);
    },
  };
}

/** First and longest wait before the listening connection is opened again after it failed. */
export const LISTEN_RETRY_FIRST_MS = 250;
export const LISTEN_RETRY_MAX_MS = 10_000;
/**
 * How often the listening connection is asked a trivial query, and how long it may take: a
 * connection that died silently (a network partition sends no error) is found within about 40 s
 * instead of TCP keep-alive's many minutes.
 */
const LISTEN_PING_MS = 30_000;
const LISTEN_PING_TIMEOUT_MS = 10_000;

/**
 * LISTEN on a dedicated node-postgres client (a pooled connection would be handed to other queries,
 * and LISTEN belongs to its session). A ping every LISTEN_PING_MS finds a silently dead connection;
 * any error, end or failed ping reopens it after a backoff that doubles up to LISTEN_RETRY_MAX_MS,
 * then `onReconnect` says that notices may have been missed.
 */
async function listenOnPostgres(
  options: PostgresOptions,
  channel: string,
  handlers: ListenHandlers,
): Promise<() => Promise<void>> {
  let stopped = false;
  let current: pg.Client | null = null;
  let retryTimer: NodeJS.Timeout | undefined;
  let delay = LISTEN_RETRY_FIRST_MS;

  /** Give up on `which` (once) and, unless stopped, open another later. */
  const drop = (which: pg.Client, error: Error) => {
    if (which !== current) return;
    current = null;
    void which.end().catch(() => {});
    if (stopped) return;
    handlers.onError?.(error);
    retryLater();
  };

  const open = async (): Promise<void> => {
    const client = new pg.Client({
      connectionString: options.url,
      connectionTimeoutMillis: options.acquireTimeoutMs ?? DEFAULT_ACQUIRE_TIMEOUT_MS,
      keepAlive: true,
      query_timeout: LISTEN_PING_TIMEOUT_MS,
      application_name: `barterhood-listen:${channel}`,
    });
    current = client;
    client.on('notification', (message) => {
      if (client === current && message.channel === channel && message.payload !== undefined) {
        handlers.onNotify(message.payload);
      }
    });
    client.on('error', (error) => drop(client, error));
    client.on('end', () => drop(client, new Error('the listening connection closed')));
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
    } catch (error) {
      drop(client, error as Error);
      throw error;
    }
  };

  const retryLater = () => {
    if (stopped || retryTimer) return;
    const wait = delay;
    delay = Math.min(delay * 2, LISTEN_RETRY_MAX_MS);
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      open().then(
        () => {
          delay = LISTEN_RETRY_FIRST_MS;
          if (!stopped) handlers.onReconnect?.();
        },
        // drop() has already scheduled the next attempt.
        () => {},
      );
    }, wait);
  };

  const ping = setInterval(() => {
    const client = current;
    client?.query('SELECT 1').catch((error: Error) => drop(client, error));
  }, LISTEN_PING_MS);
  ping.unref();

  // A failed first attempt is retried like a lost connection: the app starts, live events follow.
  await open().catch(() => {});
  return async () => {
    stopped = true;
    clearInterval(ping);
    clearTimeout(retryTimer);
    const client = current;
    current = null;
    await client?.end().catch(() => {});
  };
}

/** Arbitrary key for the advisory lock that keeps two servers from migrating the same database at once. */
const MIGRATION_LOCK_KEY = 7_245_001;

/** Apply the committed SQL migrations in `folder` to the database at `url` (server/db/migrate.ts). */
export async function migratePostgres(url: string, folder: string): Promise<void> {
  // One dedicated connection, so the advisory lock and the migration share a session.
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await migratePg(drizzlePg(client), { migrationsFolder: folder });
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
    await client.end();
  }
}
