import { describe, expect, it } from 'vitest';
import { CardCache } from './feed-cache';
import type { FeedRow } from './feed-types';

const card = (id: number, title = `Card ${id}`) => ({ id, title }) as FeedRow;

describe('CardCache', () => {
  it('serves kept cards only at the card version they were read at', () => {
    const cache = new CardCache(10, 60_000);
    cache.set([card(1), card(2)], 5);
    expect(cache.get([1, 2], 5)?.get(2)?.title).toBe('Card 2');
    expect(cache.get([1, 2], 6)).toBeNull();
  });

  it('serves nothing when one of the cards is missing', () => {
    const cache = new CardCache(10, 60_000);
    cache.set([card(1)], 5);
    expect(cache.get([1, 3], 5)).toBeNull();
    expect(cache.get([], 5)?.size).toBe(0);
  });

  it('drops every card on a newer version and ignores reads older than what it keeps', () => {
    const cache = new CardCache(10, 60_000);
    cache.set([card(1), card(2)], 5);
    cache.set([card(3)], 7);
    expect(cache.size).toBe(1);
    expect(cache.get([3], 7)).not.toBeNull();
    cache.set([card(1, 'Stale')], 6);
    expect(cache.get([1], 7)).toBeNull();
    expect(cache.size).toBe(1);
  });

  it('forgets cards after the TTL', () => {
    // lru-cache's clock: an entry is stale once older than its TTL (and a start of 0 reads as "none").
    let now = 5_000;
    const cache = new CardCache(10, 1_000, () => now);
    cache.set([card(1)], 1);
    now = 6_000;
    expect(cache.get([1], 1)).not.toBeNull();
    now = 6_001;
    expect(cache.get([1], 1)).toBeNull();
    expect(cache.size).toBe(0);
  });
});
