import type { FastifyInstance } from 'fastify';
import { TtlCache } from '../../lib/ttl-cache';
import type { MatchRow } from './feed-repository';

/**
 * Feed rankings kept in memory (ADR 012): the ordered item ids of a member's feed (with each one's
 * distance and, on Barter Match, why it matched), so Load More and coming back to a feed read a
 * slice of the ranking instead of ranking every candidate again. Only the order is kept: the
 * cards themselves (title, photo, saved flag, owner, rating, wants) are read fresh for every page.
 *
 * A ranking records the database's listing version (table listing_changes, moved on by triggers
 * whenever items, wants or a member's location are written, by anyone) and is used only while
 * that version is still current: the page's cards are read in the same statement as the version,
 * so a change made by this server, another one, a script or a test retires it at once.
 */

/** One ranked item: its id, the viewer's distance to it, and on Barter Match its match. */
export interface RankedItem {
  id: number;
  distanceMiles: number | null;
  match: MatchRow | null;
}

export interface Ranking {
  items: RankedItem[];
  /** True when `items` is the whole feed; otherwise pages past its end must be ranked again. */
  complete: boolean;
  /** The listing version the ranking was made at. */
  version: number;
}

/** Rankings kept at once; the least recently used goes first. */
export const FEED_CACHE_MAX_RANKINGS = 1_000;

declare module 'fastify' {
  interface FastifyInstance {
    /** This server's kept feed rankings; null when FEED_CACHE_SECONDS is 0. */
    feedRankings: TtlCache<Ranking> | null;
  }
}

/** This server's feed ranking cache (FEED_CACHE_SECONDS; none when 0). */
export function feedCachePlugin(app: FastifyInstance): void {
  const seconds = app.config.feedCacheSeconds;
  app.decorate(
    'feedRankings',
    seconds > 0 ? new TtlCache<Ranking>(FEED_CACHE_MAX_RANKINGS, seconds * 1000) : null,
  );
}
