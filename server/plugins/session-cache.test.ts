import { afterEach, describe, expect, it } from 'vitest';
import type { UserRow } from '../db/schema/users';
import {
  type CachedSession,
  forgetCachedUser,
  registerSessionCache,
  SESSION_CACHE_MS,
  SessionCache,
} from './session-cache';

const START = Date.UTC(2025, 0, 1);
const HOUR = 60 * 60 * 1000;

/** A cache on a clock the test moves by hand. */
function cacheAt(options: { maxEntries?: number } = {}) {
  const clock = { now: START };
  const cache = new SessionCache({ ...options, now: () => clock.now });
  return { cache, clock };
}

function session(userId: string, expire = new Date(START + HOUR)): CachedSession {
  const user = { id: userId, firstName: `Name of ${userId}`, location: null } as UserRow;
  return { user, sess: { userId, createdAt: START }, expire };
}

describe('SessionCache', () => {
  it('serves an entry for less than the TTL, then not', () => {
    const { cache, clock } = cacheAt();
    cache.set('a', session('u1'), cache.generation());
    clock.now = START + SESSION_CACHE_MS - 1;
    expect(cache.get('a')?.user.id).toBe('u1');
    clock.now = START + SESSION_CACHE_MS;
    expect(cache.get('a')).toBeNull();
    expect(cache.size).toBe(0);
  });

  it('does not serve an entry when the clock went backwards', () => {
    const { cache, clock } = cacheAt();
    cache.set('a', session('u1'), cache.generation());
    clock.now = START - 1;
    expect(cache.get('a')).toBeNull();
  });

  it('never serves a session whose expiry has passed, even within the TTL', () => {
    const { cache, clock } = cacheAt();
    cache.set('a', session('u1', new Date(START + 1000)), cache.generation());
    clock.now = START + 999;
    expect(cache.get('a')).not.toBeNull();
    clock.now = START + 1000;
    expect(cache.get('a')).toBeNull();
  });

  it('touch moves the cached expiry but not the load time', () => {
    const { cache, clock } = cacheAt();
    cache.set('a', session('u1', new Date(START + 1000)), cache.generation());
    cache.touch('a', new Date(START + HOUR));
    clock.now = START + 2000;
    expect(cache.get('a')?.expire.getTime()).toBe(START + HOUR);
    clock.now = START + SESSION_CACHE_MS;
    expect(cache.get('a')).toBeNull();
    cache.touch('missing', new Date(START + HOUR));
    expect(cache.size).toBe(0);
  });

  it('evicts the oldest entries beyond the size bound', () => {
    const { cache } = cacheAt({ maxEntries: 3 });
    for (const sid of ['a', 'b', 'c']) cache.set(sid, session(`user-${sid}`), cache.generation());
    cache.set('a', session('user-a'), cache.generation()); // reloaded: now the newest
    cache.set('d', session('user-d'), cache.generation());
    expect(cache.size).toBe(3);
    expect(cache.get('b')).toBeNull();
    expect(cache.get('a')).not.toBeNull();
    expect(cache.get('c')).not.toBeNull();
    expect(cache.get('d')).not.toBeNull();
    cache.set('e', session('user-e'), cache.generation());
    expect(cache.get('c')).toBeNull();
    expect(cache.size).toBe(3);
  });

  it('delete drops one session; forgetUser drops all of a member and only theirs', () => {
    const { cache } = cacheAt();
    cache.set('a1', session('alice'), cache.generation());
    cache.set('a2', session('alice'), cache.generation());
    cache.set('b1', session('bob'), cache.generation());
    cache.set('b2', session('bob'), cache.generation());
    cache.delete('b2');
    expect(cache.get('b2')).toBeNull();
    cache.forgetUser('alice');
    expect(cache.get('a1')).toBeNull();
    expect(cache.get('a2')).toBeNull();
    expect(cache.get('b1')?.user.id).toBe('bob');
  });

  it('refuses to keep a read that overlapped an invalidation', () => {
    const { cache } = cacheAt();
    // A request starts reading alice's session; meanwhile her profile changes, or a session is deleted.
    const before = cache.generation();
    cache.forgetUser('alice');
    cache.set('a1', session('alice'), before);
    expect(cache.get('a1')).toBeNull();
    const beforeDelete = cache.generation();
    cache.delete('a1');
    cache.set('a1', session('alice'), beforeDelete);
    expect(cache.get('a1')).toBeNull();
    cache.set('a1', session('alice'), cache.generation());
    expect(cache.get('a1')).not.toBeNull();
  });

  it('hands out copies of the user row', () => {
    const { cache } = cacheAt();
    const original = session('u1');
    cache.set('a', original, cache.generation());
    original.user.firstName = 'Changed after caching';
    const served = cache.get('a');
    if (!served) throw new Error('expected a cached session');
    served.user.firstName = 'Changed by a handler';
    expect(cache.get('a')?.user.firstName).toBe('Name of u1');
  });

  describe('forgetCachedUser', () => {
    const unregister: Array<() => void> = [];
    afterEach(() => {
      for (const fn of unregister.splice(0)) fn();
    });

    it('reaches every registered cache, and none after unregistering', () => {
      const first = cacheAt().cache;
      const second = cacheAt().cache;
      unregister.push(registerSessionCache(first), registerSessionCache(second));
      first.set('a', session('alice'), first.generation());
      second.set('b', session('alice'), second.generation());
      second.set('c', session('carol'), second.generation());
      forgetCachedUser('alice');
      expect(first.get('a')).toBeNull();
      expect(second.get('b')).toBeNull();
      expect(second.get('c')).not.toBeNull();

      for (const fn of unregister.splice(0)) fn();
      first.set('a', session('alice'), first.generation());
      forgetCachedUser('alice');
      expect(first.get('a')).not.toBeNull();
    });
  });
});
