import type { SQL } from 'drizzle-orm';
import type { FeedItem, FeedSort } from '#common/schemas/feed.ts';
import type { ItemCondition } from '#common/schemas/listings.ts';
import type { Db } from '../../db/client';
import type { Point } from '../../geo/earth';
import type { CardOrder } from './feed-types';
import type { Search } from './search';

/**
 * What a feed is (ADR 064): one definition per feed in `feeds/`, registered in the one table of
 * feed-registry.ts that the route, the caches and search read.
 */

/** Everything a feed's ranking depends on, and the page wanted. */
export interface FeedPageParams {
  /** A registered feed's name (feed-registry.ts). */
  feed: string;
  viewerId: string;
  /** The viewer's own point; null when they have no location. */
  origin: Point | null;
  radiusMiles: number;
  sort: FeedSort;
  /** The search text as typed (part of a kept ranking's key). */
  q?: string;
  /** The search text resolved (resolveSearch): findRanking resolves `q` when this is missing. */
  search?: Search;
  /** Goods in this condition or better only (ADR 082, addendum): part of a kept ranking's key. */
  condition?: ItemCondition;
  /** With search text on a feed that reads postings: read the text index instead (for the equivalence test). */
  postings?: boolean;
  seed: number;
  limit: number;
  offset: number;
  lookingFor: number;
  /** barter-match: read from the viewer's built match graph (ADR 022) instead of ranking every candidate. */
  graph?: boolean;
  /**
   * Sort by distance: how many of the nearest members the walk reads (their items follow each of
   * them); default offset + limit, null for all within the radius (see findRanking).
   */
  memberLimit?: number | null;
}

/** What a server keeps of a feed between pages (ADR 012). */
export interface FeedCaching {
  /** Its rankings are kept between pages (with FEED_RANKING_CACHE_SECONDS above 0). */
  rankings: boolean;
  /** Ranked entries kept from a page on (rankingWindow). */
  window: number;
  /** The seed is part of what its order depends on (a kept ranking's key). */
  bySeed: boolean;
}

/** Ranked entries kept from a page on: five pages. */
export const RANKING_WINDOW = 100;

/** How the three feeds of the home screen are kept: rankings of five pages, cards. */
export const RANKINGS_KEPT: FeedCaching = { rankings: true, window: RANKING_WINDOW, bySeed: false };

export interface FeedDefinition {
  /** Its name in GET /api/feed/:feedName. */
  name: string;
  /** Why an item is on it, in one sentence (the route's description lists them). */
  reason: string;
  /**
   * Its order after the search tier (with search text, title hits come first), ending in a key
   * no two items share, so offset paging never repeats or skips: output columns of `candidates`.
   */
  order(params: FeedPageParams): CardOrder;
  /**
   * Its candidate source: the page subquery (columns id, distance and those `order` names), one
   * page of candidates in `order`. feed-candidates.ts has the sources the feeds compose.
   */
  candidates(params: FeedPageParams, order: CardOrder): SQL;
  /**
   * Without search text, the plan of `candidates` does not depend on the values: it runs as a
   * prepared statement, planned once per connection.
   */
  prepared(params: FeedPageParams): boolean;
  /**
   * With search text, candidates come from the postings of its words (search_postings, ADR 023)
   * where the search allows; otherwise the feed's own source filters by the text index.
   */
  searchPostings: boolean;
  /** When `candidates` came back short of the window: read once more with these (none: the end). */
  readAgain?(params: FeedPageParams): Partial<FeedPageParams> | null;
  /** Its cards say why each item is on it (feedMatchSchema): the reason columns of a ranked row. */
  reasons?: SQL;
  /** What it keeps between pages. */
  caching: FeedCaching;
  /** Before ranking a page: what depends on the viewer's state (Barter Match: their match graph). */
  prepare?(db: Db, viewerId: string): Promise<Partial<FeedPageParams>>;
  /** After a page's cards are read: what the feed adds to them (Barter Match: trade circles). */
  finish?(db: Db, viewerId: string, items: FeedItem[]): Promise<FeedItem[]>;
}
