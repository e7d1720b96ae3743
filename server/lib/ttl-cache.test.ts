import { describe, expect, it } from 'vitest';
import { TtlCache } from './ttl-cache';

describe('TtlCache', () => {
  it('drops the least recently used entry beyond its size', () => {
    const cache = new TtlCache<number>(2, 1000);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1); // now b is the least recently used
    cache.set('c', 3);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
    expect(cache.size).toBe(2);
  });

  it('forgets entries older than their time to live', () => {
    let now = 0;
    const cache = new TtlCache<string>(10, 100, () => now);
    cache.set('k', 'v');
    now = 99;
    expect(cache.get('k')).toBe('v');
    now = 100;
    expect(cache.get('k')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps falsy values such as null and empty lists', () => {
    const cache = new TtlCache<unknown>(10, 100);
    cache.set('none', null);
    cache.set('empty', []);
    expect(cache.get('none')).toBeNull();
    expect(cache.get('empty')).toEqual([]);
  });
});

describe('TtlCache.delete', () => {
  it('forgets one entry and leaves the others', () => {
    const cache = new TtlCache<number>(10, 1000);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.delete('a');
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBe(2);
    expect(cache.size).toBe(1);
  });
});
