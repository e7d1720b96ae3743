import type { FastifyInstance } from 'fastify';

/**
 * The one way a server process drops what it keeps in memory about rows (issue 18, ADR 040).
 *
 * Each in-memory cache of database rows registers here under a name (`onCacheNotice`). Entries are
 * dropped:
 * - in this process at once, by the code that wrote the row (`dropCached`), so a member's next
 *   request never reads what they just changed;
 * - in every process (this one too) when the write commits: triggers on the cached tables (migration
 *   0022) send `{ cache, keys }` with pg_notify on CACHE_CHANNEL, one notice per statement, inside
 *   the writing transaction, whoever wrote (a route, a job, a script, another process);
 * - all of them when the listening connection comes back after a loss (notices may have been missed),
 *   or when a notice names a cache without keys (too many to fit in one NOTIFY).
 *
 * Feed rankings and cards are not here: every page checks them against counters the database keeps
 * (ADR 012), which already holds across processes.
 */

/** The LISTEN/NOTIFY channel of cache notices (the triggers of migration 0022 send on it). */
export const CACHE_CHANNEL = 'barterhood_cache';

/** The caches a notice may name, and what their keys are. */
export type CacheName =
  /** A member's row (key: users.id): their cached sessions carry it (server/plugins/session-cache.ts). */
  | 'member'
  /** A session (key: sessions.sid, the hash of its id). */
  | 'session'
  /** Whether a member's match graph is built (key: the member's id; graph-maintenance.ts). */
  | 'match-graph';

/** A NOTIFY payload on CACHE_CHANNEL; no `keys`: drop the whole cache. */
export interface CacheNotice {
  cache: CacheName;
  keys?: string[];
}

/** What a cache does with a notice. */
export interface CacheTarget {
  forget(key: string): void;
  clear(): void;
}

/** Every live cache in this process by name (one app in production; one per app in tests). */
const targets = new Map<CacheName, Set<CacheTarget>>();

/** Drop entries of `cache` named in notices until the returned function is called (at app close). */
export function onCacheNotice(cache: CacheName, target: CacheTarget): () => void {
  let set = targets.get(cache);
  if (!set) {
    set = new Set();
    targets.set(cache, set);
  }
  set.add(target);
  return () => {
    targets.get(cache)?.delete(target);
  };
}

/**
 * Drop these keys of `cache` in this process now (every app in it: simpler than threading the app
 * through repositories, and an extra miss elsewhere is harmless). Other processes hear of the write
 * from the table's trigger when it commits.
 */
export function dropCached(cache: CacheName, keys: readonly string[]): void {
  for (const target of targets.get(cache) ?? []) {
    for (const key of keys) target.forget(key);
  }
}

/** Drop every entry of every cache in this process (notices may have been missed). */
export function clearCaches(): void {
  for (const set of targets.values()) for (const target of set) target.clear();
}

/** Apply one NOTIFY payload; false (and nothing dropped) when it is not a notice. */
export function applyCacheNotice(payload: string): boolean {
  let notice: CacheNotice;
  try {
    notice = JSON.parse(payload) as CacheNotice;
  } catch {
    return false;
  }
  if (!notice || typeof notice.cache !== 'string') return false;
  if (notice.keys === undefined) {
    for (const target of targets.get(notice.cache) ?? []) target.clear();
    return true;
  }
  if (!Array.isArray(notice.keys)) return false;
  dropCached(
    notice.cache,
    notice.keys.filter((key): key is string => typeof key === 'string'),
  );
  return true;
}

/**
 * Listen for cache notices while the app runs (from `ready` to close). On PostgreSQL a lost listening
 * connection is reopened; when it is, every cache is cleared. Until the first LISTEN succeeds,
 * caches still expire by their own time to live.
 */
export function cacheBusPlugin(app: FastifyInstance): void {
  let unlisten: (() => Promise<void>) | null = null;
  app.addHook('onReady', async () => {
    unlisten = await app.database.listen(CACHE_CHANNEL, {
      onNotify: (payload) => {
        if (!applyCacheNotice(payload)) {
          app.log.warn({ payload: payload.slice(0, 200) }, 'cache bus: ignored a notice it cannot read');
        }
      },
      onReconnect: () => {
        app.log.info('cache bus: listening again; cleared every cache');
        clearCaches();
      },
      onError: (error) => app.log.warn({ err: error }, 'cache bus: the listening connection failed'),
    });
  });
  app.addHook('onClose', async () => {
    const stop = unlisten;
    unlisten = null;
    await stop?.();
  });
}
