import { createHash } from 'node:crypto';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { DatabaseHandle } from '../db/client';
import { periodicJob } from '../jobs/jobs-plugin';

/** How often ended windows are deleted (once across every process, ADR 040). */
const SWEEP_SECONDS = 60 * 60;

/** Longest key stored as it is (a route and an address or a member); longer ones are hashed. */
const MAX_KEY_LENGTH = 300;

/**
 * One request counted in PostgreSQL: a fixed window per key, started by its first request, the same
 * rule as the in-memory store. One statement, atomic under any number of processes and requests at
 * once (the row's lock orders them). Times are the server's clock ($3, milliseconds), like the
 * in-memory store's, so both read a window the same way.
 */
const INCREMENT = `
INSERT INTO rate_limit_counters AS c (key, count, window_ends_at)
VALUES ($1, 1, to_timestamp(($3::double precision + $2::double precision) / 1000))
ON CONFLICT (key) DO UPDATE SET
  count = CASE WHEN c.window_ends_at <= to_timestamp($3::double precision / 1000) THEN 1 ELSE c.count + 1 END,
  window_ends_at = CASE WHEN c.window_ends_at <= to_timestamp($3::double precision / 1000)
                        THEN excluded.window_ends_at ELSE c.window_ends_at END
RETURNING count, (extract(epoch FROM c.window_ends_at) * 1000 - $3::double precision)::float8 AS ttl`;

/**
 * The key as stored: printable and at most MAX_KEY_LENGTH characters as it is, else a hash of it (a
 * NUL cannot go into PostgreSQL text, and a 10 KB address should not become a 10 KB row).
 */
function storedKey(key: string): string {
  return key.length <= MAX_KEY_LENGTH && /^[\x20-\x7e]*$/.test(key)
    ? key
    : `sha256:${createHash('sha256').update(key).digest('hex')}`;
}

type ExecuteSql = NonNullable<DatabaseHandle['executeSql']>;

/**
 * @fastify/rate-limit's store for several processes on one PostgreSQL (issue 18, ADR 044): every
 * per-address and per-member limit counts across all of them, so two processes do not each allow
 * the full limit. Keys are prefixed by the route (method and path), as the plugin's Redis store does.
 * A database error fails the request (503 from the error handler when the database is unreachable),
 * never lets it through uncounted.
 */
export function sharedRateLimitStore(executeSql: ExecuteSql): FastifyRateLimitStoreCtor {
  class SharedStore implements FastifyRateLimitStore {
    constructor(private readonly prefix = '') {}

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      executeSql(INCREMENT, [storedKey(`${this.prefix}${key}`), timeWindow, Date.now()]).then(
        ({ rows }) => {
          const row = rows[0] as { count: number; ttl: number };
          // At most the window: a request stamped a moment before the one that opened it (they reach
          // the row in any order) would otherwise read a little more.
          const ttl = Math.min(timeWindow, Math.max(0, Math.round(Number(row.ttl))));
          callback(null, { current: Number(row.count), ttl });
        },
        (error: Error) => callback(error),
      );
    }

    child(options: ChildOptions): FastifyRateLimitStore {
      const { routeInfo } = options as unknown as RouteStoreOptions;
      const method = [routeInfo?.method ?? ''].flat().join(',');
      return new SharedStore(`${method} ${routeInfo?.url ?? ''} `);
    }
  }
  return SharedStore as unknown as FastifyRateLimitStoreCtor;
}

/** Keys remembered per route in memory unless the route says (`cache`); @fastify/rate-limit's default. */
const DEFAULT_KEYS_REMEMBERED = 5000;

/**
 * What @fastify/rate-limit hands a store's `child`: the route's merged limit settings with the route
 * under `routeInfo` (its types say RouteOptions, which is not what it passes).
 */
type RouteStoreOptions = {
  cache?: number;
  timeWindow?: unknown;
  routeInfo?: { method?: string | string[]; url?: string };
};
type ChildOptions = Parameters<FastifyRateLimitStore['child']>[0];

/**
 * The same fixed windows in process memory, for PGlite (one process). Not @fastify/rate-limit's own
 * LocalStore: that hands every caller the one record it keeps mutating, so when requests arrive
 * together each reads the count after all of them were added, and a burst of 10 against a limit of 5
 * was refused whole instead of 5 let through (server/plugins/rate-limit-store.test.ts).
 */
export function memoryRateLimitStore(): FastifyRateLimitStoreCtor {
  class MemoryStore implements FastifyRateLimitStore {
    private readonly windows: LRUCache<string, { count: number; endsAt: number }>;

    constructor(options: RouteStoreOptions = {}) {
      const windowMs = typeof options.timeWindow === 'number' ? options.timeWindow : 60_000;
      // Bounded by maxSize (each window counting 1) rather than max: with max, lru-cache allocates
      // its arrays for every key at once: about 12 MB of heap for the server's empty routes (issue 32).
      this.windows = new LRUCache({
        maxSize: options.cache ?? DEFAULT_KEYS_REMEMBERED,
        sizeCalculation: () => 1,
        ttl: windowMs,
      });
    }

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      const now = Date.now();
      const open = this.windows.get(key);
      const window =
        open && open.endsAt > now
          ? { ...open, count: open.count + 1 }
          : { count: 1, endsAt: now + timeWindow };
      this.windows.set(key, window);
      callback(null, { current: window.count, ttl: window.endsAt - now });
    }

    child(options: ChildOptions): FastifyRateLimitStore {
      return new MemoryStore(options as unknown as RouteStoreOptions);
    }
  }
  return MemoryStore as unknown as FastifyRateLimitStoreCtor;
}

/** The rate-limit store for the app's database: shared on PostgreSQL, in process memory on PGlite. */
export function rateLimitStore(app: FastifyInstance): FastifyRateLimitStoreCtor {
  const { database } = app;
  if (database.kind !== 'postgres' || !database.executeSql) return memoryRateLimitStore();
  const executeSql = database.executeSql;
  periodicJob(app, {
    name: 'rate-limit-sweep',
    seconds: SWEEP_SECONDS,
    run: async () => {
      try {
        await executeSql('DELETE FROM rate_limit_counters WHERE window_ends_at < now()');
      } catch (error) {
        app.log.warn({ err: error }, 'could not sweep ended rate-limit windows');
      }
    },
  });
  return sharedRateLimitStore(executeSql);
}
