import type { UserRow } from '../db/schema/users';
import { dropCached, onCacheNotice } from '../lib/cache-bus';
import type { SessionData } from './session-store';

/**
 * How long a loaded session and its member may be served without asking the database again.
 *
 * Nothing is served stale for long: sign-out and sign-in drop their session's entry, and every write
 * to a member's row drops all of that member's entries, in this process at once (forgetCachedUser)
 * and in every process sharing the database when the write commits (the triggers of migration 0022
 * notify the cache bus, server/lib/cache-bus.ts; ADR 040). This time to live is what is left: it
 * bounds staleness while a process's listening connection is down. Five seconds turns the burst of
 * API calls a page makes into one query (docs/decisions/011-session-cache.md).
 */
export const SESSION_CACHE_MS = 5_000;
/** Entries kept at most; the oldest loaded goes first. Roughly 1 KB each. */
export const SESSION_CACHE_MAX_ENTRIES = 10_000;

/** What the session plugin needs from a session: the same shape findSessionWithUser returns. */
export interface CachedSession {
  user: UserRow;
  sess: SessionData;
  /** The session's idle expiry as last read or written by this process. */
  expire: Date;
}

interface Entry extends CachedSession {
  /** When it was read from the database, by the cache's clock. */
  loadedAt: number;
}

export interface SessionCacheOptions {
  ttlMs?: number;
  maxEntries?: number;
  /** Epoch milliseconds; Date.now unless a test injects a clock. */
  now?: () => number;
}

/**
 * Sessions by the hash of their id (hashSessionId), in load order in a Map, so the first key is the
 * oldest and eviction is O(1). Not an LRU on purpose: every entry is reloaded within the TTL anyway.
 */
export class SessionCache {
  readonly #entries = new Map<string, Entry>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;
  /** Bumped by every invalidation; see generation(). */
  #generation = 0;

  constructor(options: SessionCacheOptions = {}) {
    this.#ttlMs = options.ttlMs ?? SESSION_CACHE_MS;
    this.#maxEntries = options.maxEntries ?? SESSION_CACHE_MAX_ENTRIES;
    this.#now = options.now ?? (() => Date.now());
  }

  get size(): number {
    return this.#entries.size;
  }

  /**
   * Take this before reading the database and hand it to set(): a read that overlapped a sign-out or
   * a profile change may carry the old row, and set() then declines to keep it.
   */
  generation(): number {
    return this.#generation;
  }

  /**
   * The session, when loaded less than the TTL ago and not expired; otherwise null (and the entry
   * goes). The user row is a copy, so a handler that changes request.user cannot change the cache.
   */
  get(sid: string): CachedSession | null {
    const entry = this.#entries.get(sid);
    if (!entry) return null;
    const now = this.#now();
    // A clock that went backwards (now < loadedAt) makes the age unknown: reload.
    if (now < entry.loadedAt || now - entry.loadedAt >= this.#ttlMs || entry.expire.getTime() <= now) {
      this.#entries.delete(sid);
      return null;
    }
    return { user: { ...entry.user }, sess: entry.sess, expire: entry.expire };
  }

  /** Keep a session just read from the database, unless something was invalidated since `generation`. */
  set(sid: string, session: CachedSession, generation: number): void {
    if (generation !== this.#generation) return;
    this.#entries.delete(sid);
    this.#entries.set(sid, {
      user: { ...session.user },
      sess: session.sess,
      expire: session.expire,
      loadedAt: this.#now(),
    });
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value);
    }
  }

  /** The idle expiry was moved in the database: move it here too (the load time stays). */
  touch(sid: string, expire: Date): void {
    const entry = this.#entries.get(sid);
    if (entry) entry.expire = expire;
  }

  /** The session was deleted (sign-out, or replaced at sign-in). */
  delete(sid: string): void {
    this.#generation++;
    this.#entries.delete(sid);
  }

  /** The member's row changed: drop every session of theirs. A scan; writes to users are rare. */
  forgetUser(userId: string): void {
    this.#generation++;
    for (const [sid, entry] of this.#entries) {
      if (entry.user.id === userId) this.#entries.delete(sid);
    }
  }

  clear(): void {
    this.#generation++;
    this.#entries.clear();
  }
}

/**
 * Make the cache bus reach this cache until the returned function is called (at app close): a
 * member's row changed (key: their id) or a session ended (key: its hashed id), here or elsewhere.
 */
export function registerSessionCache(cache: SessionCache): () => void {
  const offMember = onCacheNotice('member', {
    forget: (userId) => cache.forgetUser(userId),
    clear: () => cache.clear(),
  });
  const offSession = onCacheNotice('session', {
    forget: (sid) => cache.delete(sid),
    clear: () => cache.clear(),
  });
  return () => {
    offMember();
    offSession();
  };
}

/**
 * Call after writing to a member's `users` row (repositories do, whatever the outcome), so the next
 * request of any of their sessions in this process reads the new row. Reaches every app in the
 * process; other processes hear of it from the trigger on `users` when the write commits.
 */
export function forgetCachedUser(userId: string): void {
  dropCached('member', [userId]);
}
