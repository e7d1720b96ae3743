import type { FastifyInstance } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { FeedRow, Ranking } from './feed-types';

/**
 * What the feeds keep in memory (ADR 012):
 *
 * - rankings: the ordered item ids of a member's feed (with each one's distance and, on Barter
 *   Match, why it matched), so Load More and coming back to a feed read a slice of the ranking
 *   instead of ranking every candidate again;
 * - cards: what a feed card shows, shared by every member (CardCache).
 *
 * Both are checked on every page against counters the database moves on by itself (table
 * listing_changes, kept by triggers whenever anyone writes what they depend on), read in one
 * statement with the viewer's saved flags: a change made by this server, another one, a script
 * or a test retires them at once.
 */

/** Rankings kept at once; the least recently used goes first. */
export const FEED_CACHE_MAX_RANKINGS = 1_000;
/** Feed cards kept at once (shared by every member); the least recently used goes first. */
export const FEED_CACHE_MAX_CARDS = 10_000;

/**
 * Feed cards kept in memory, shared by every member: what a card shows apart from the viewer's own
 * saved flag, distance and match. They are used only while the database's card version (moved on
 * by triggers whenever an item, its owner's name or picture, a want, a rating or a trade is
 * written) is the one they were read at; a newer version drops them all.
 */
export class CardCache {
  private version = -1;
  private readonly entries: LRUCache<string, FeedRow>;

  /** `now` stands in for the clock in tests (read on every call, not once a millisecond). */
  constructor(maxCards: number, ttlMs: number, now?: () => number) {
    this.entries = new LRUCache<string, FeedRow>({
      max: maxCards,
      ttl: ttlMs,
      ...(now ? { perf: { now }, ttlResolution: 0 } : {}),
    });
  }

  /** The kept cards of every one of `ids`, read at `cardVersion`; null when any is missing. */
  get(ids: readonly number[], cardVersion: number): Map<number, FeedRow> | null {
    if (cardVersion !== this.version) return null;
    const cards = new Map<number, FeedRow>();
    for (const id of ids) {
      const card = this.entries.get(String(id));
      if (!card) return null;
      cards.set(id, card);
    }
    return cards;
  }

  /** Keep cards read at `cardVersion` (an older read than what is kept is ignored). */
  set(cards: readonly FeedRow[], cardVersion: number): void {
    if (cardVersion < this.version) return;
    if (cardVersion > this.version) {
      this.entries.clear();
      this.version = cardVersion;
    }
    for (const card of cards) this.entries.set(String(card.id), card);
  }

  get size(): number {
    return this.entries.size;
  }
}

/** What this server keeps for the feeds (ADR 012). */
export interface FeedCaches {
  /** Null when FEED_RANKING_CACHE_SECONDS is 0: every page is ranked, cards are still kept. */
  rankings: LRUCache<string, Ranking> | null;
  cards: CardCache;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This server's kept feed rankings and cards; null when FEED_CACHE_SECONDS is 0. */
    feedCaches: FeedCaches | null;
  }
}

/** This server's feed caches (FEED_CACHE_SECONDS, none when 0; rankings: FEED_RANKING_CACHE_SECONDS). */
export function feedCachePlugin(app: FastifyInstance): void {
  const ttlMs = app.config.feedCacheSeconds * 1000;
  const rankingTtlMs = app.config.feedRankingCacheSeconds * 1000;
  app.decorate(
    'feedCaches',
    ttlMs > 0
      ? {
          rankings:
            rankingTtlMs > 0
              ? new LRUCache<string, Ranking>({ max: FEED_CACHE_MAX_RANKINGS, ttl: rankingTtlMs })
              : null,
          cards: new CardCache(FEED_CACHE_MAX_CARDS, ttlMs),
        }
      : null,
  );
}
