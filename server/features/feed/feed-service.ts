import { ERROR_CODES } from '../../../common/error-codes';
import {
  FEED_NAMES,
  type FeedItem,
  type FeedName,
  type FeedQuery,
  type ItemDetail,
  LOOKING_FOR_ON_CARD,
  LOOKING_FOR_ON_DETAIL,
} from '../../../common/schemas/feed';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema/users';
import { notFound } from '../../errors';
import type { TtlCache } from '../../lib/ttl-cache';
import type { Ranking } from './feed-cache';
import { presentFeedItem, presentItemDetail } from './feed-presenter';
import {
  countView,
  type FeedPageParams,
  type FeedRow,
  findCards,
  findItemDetail,
  findRanking,
  readListingVersion,
} from './feed-repository';
import type { Origin } from './feed-sql';

/** The member's saved coordinates, or null when they have not set a location with coordinates. */
export function originOf(user: Pick<UserRow, 'latitude' | 'longitude'>): Origin | null {
  if (user.latitude === null || user.longitude === null) return null;
  return { latitude: Number(user.latitude), longitude: Number(user.longitude) };
}

export function isFeedName(name: string): name is FeedName {
  return (FEED_NAMES as readonly string[]).includes(name);
}

/** Ranked entries kept from a page on for the cheap orders (recent, value, random, distance, search): five pages. */
export const RANKING_WINDOW = 100;
/**
 * Barter Match ranks every candidate to order them, whatever the page, so its ranking keeps more:
 * ten pages of Load More from one ranking.
 */
export const MATCH_RANKING_WINDOW = 200;

/** The longest ranking kept (about 50 pages); deeper pages are ranked one at a time. */
export const RANKING_KEEP_MAX = 1_000;

/** What a feed's order depends on: everything but the page. */
function rankingKey(params: FeedPageParams): string {
  const { feed, viewerId, origin, radiusMiles, sort, q, seed } = params;
  const randomSeed = feed === 'random-barter' ? seed : null;
  return JSON.stringify([
    feed,
    viewerId,
    origin?.latitude,
    origin?.longitude,
    radiusMiles,
    sort,
    q ?? '',
    randomSeed,
  ]);
}

/**
 * One page of a feed for the member (docs/matching.md). `fallbackSeed` orders random-barter when
 * the query brings no seed (derived from the session, so one browsing session keeps one order).
 *
 * The feed's order comes from the ranking cache when it holds a current ranking that reaches this
 * page (ADR 012), otherwise from the database, which ranks a window of several pages and keeps
 * it; the page's cards are then read fresh by id.
 */
export async function getFeed(
  db: Db,
  rankings: TtlCache<Ranking> | null,
  viewer: UserRow,
  feedName: string,
  query: FeedQuery,
  fallbackSeed: number,
): Promise<FeedItem[]> {
  if (!isFeedName(feedName)) {
    throw notFound('There is no such feed.', ERROR_CODES.feedNotFound);
  }
  const params: FeedPageParams = {
    feed: feedName,
    viewerId: viewer.id,
    origin: originOf(viewer),
    radiusMiles: query.radius,
    sort: query.sort,
    q: query.q,
    seed: query.seed ?? fallbackSeed,
    limit: query.limit,
    offset: query.offset,
    lookingFor: LOOKING_FOR_ON_CARD,
  };
  const end = query.offset + query.limit;
  const withMatch = feedName === 'barter-match';
  const present = (rows: FeedRow[]) => rows.map((row) => presentFeedItem(row, { withMatch }));
  const key = rankingKey(params);
  const kept = rankings?.get(key);
  if (kept && (kept.complete || kept.items.length >= end)) {
    const page = await findCards(db, viewer.id, kept.items.slice(query.offset, end), LOOKING_FOR_ON_CARD);
    if (page.version === kept.version) return present(page.rows);
    rankings?.delete(key);
  }
  // A window of several pages from this one (deep pages: just this one, and nothing kept).
  const window = Math.max(end, query.offset + (withMatch ? MATCH_RANKING_WINDOW : RANKING_WINDOW));
  const keep = rankings !== null && window <= RANKING_KEEP_MAX;
  // Read before ranking: a change made meanwhile makes the ranking look older, never newer.
  const version = keep ? await readListingVersion(db) : 0;
  const ranking = await findRanking(db, params, keep ? window : end, version);
  if (keep) rankings?.set(key, ranking);
  const page = await findCards(db, viewer.id, ranking.items.slice(query.offset, end), LOOKING_FOR_ON_CARD);
  return present(page.rows);
}

/**
 * An item's detail: anyone's active item, or any of the member's own (inactive included); 404
 * otherwise, alike for missing and hidden. A view by someone else counts (one UPDATE).
 */
export async function getItemDetail(db: Db, viewer: UserRow, itemId: number): Promise<ItemDetail> {
  const row = await findItemDetail(db, viewer.id, originOf(viewer), itemId, LOOKING_FOR_ON_DETAIL);
  if (!row) throw notFound('Item not found.');
  if (row.userId !== viewer.id) await countView(db, itemId, viewer.id);
  return presentItemDetail(row, viewer.id);
}
