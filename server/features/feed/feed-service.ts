import { ERROR_CODES } from '#common/error-codes.ts';
import {
  type FeedItem,
  type FeedQuery,
  type ItemDetail,
  LOOKING_FOR_ON_CARD,
  LOOKING_FOR_ON_DETAIL,
} from '#common/schemas/feed.ts';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema/users';
import { notFound } from '../../errors';
import { approximateArea } from '../../geo/approximate-area';
import { viewerPoint } from '../../geo/earth';
import { nearestPlace } from '../places';
import type { FeedCaches } from './feed-cache';
import { findCardRows, readPageState } from './feed-cards';
import { type FeedDefinition, type FeedPageParams, RANKING_WINDOW } from './feed-definition';
import { presentFeedItem, presentItemDetail } from './feed-presenter';
import { findRanking, readListingVersion } from './feed-ranking';
import { findFeed } from './feed-registry';
import type { FeedRow, Ranking } from './feed-types';
import { countView, findItemDetail, findItemPublicPoint } from './item-detail-repository';
import { markViewerRelations } from './viewer-marks';

/** The longest ranking kept (about 50 pages); deeper pages are ranked one at a time. */
export const RANKING_KEEP_MAX = 1_000;

/** How many entries to rank for a page at `offset`: several pages from it (`window`: the feed's). */
export function rankingWindow(offset: number, limit: number, window = RANKING_WINDOW): number {
  return Math.max(offset + limit, offset + window);
}

/** What a feed's order depends on: everything but the page (the seed where the feed's order reads it). */
function rankingKey(params: FeedPageParams, feed: FeedDefinition): string {
  const { viewerId, origin, radiusMiles, sort, q, seed, condition } = params;
  const bySeed = feed.caching.bySeed ? seed : null;
  return JSON.stringify([
    feed.name,
    viewerId,
    origin?.latitude,
    origin?.longitude,
    radiusMiles,
    sort,
    q ?? '',
    bySeed,
    condition ?? '',
  ]);
}

/** A page of a feed's cards, and where a map places each of them (FeedRow.mapPoint, by item id). */
export interface PlacedFeedPage {
  items: FeedItem[];
  mapPoints: Map<number, FeedRow['mapPoint']>;
}

/**
 * One page of a feed for the member (docs/matching.md). `fallbackSeed` orders random-barter when
 * the query brings no seed (derived from the session, so one browsing session keeps one order).
 * Each card carries the viewer's marks (open barters, the item of theirs a mutual match wants) and
 * what the feed adds (Barter Match: trade circles).
 */
export async function getFeed(
  db: Db,
  caches: FeedCaches | null,
  viewer: UserRow,
  feedName: string,
  query: FeedQuery,
  fallbackSeed: number,
): Promise<FeedItem[]> {
  const feed = requireFeed(feedName);
  const { items } = await feedPage(db, caches, viewer, feed, query, fallbackSeed);
  const marked = await markViewerRelations(db, viewer.id, items);
  return feed.finish ? await feed.finish(db, viewer.id, marked) : marked;
}

/**
 * A page of a feed's cards with where a map places each of them, without the viewer's marks or what
 * the feed adds: for the map (ADR 086), whose items show neither, so it spends no statement on them.
 *
 * With the feed caches (ADR 012): a kept ranking that reaches this page gives its order, and kept
 * cards its content, both only while the database's counters, read in one statement with the
 * viewer's saved flags, still stand. Otherwise the database ranks a window of several pages and
 * the page's cards are read by id; both are kept for the next page. Each card comes with where the
 * feed's map places it (ADR 086), read and kept with the card.
 */
export async function getPlacedFeedPage(
  db: Db,
  caches: FeedCaches | null,
  viewer: UserRow,
  feedName: string,
  query: FeedQuery,
  fallbackSeed: number,
): Promise<PlacedFeedPage> {
  return feedPage(db, caches, viewer, requireFeed(feedName), query, fallbackSeed);
}

function requireFeed(feedName: string): FeedDefinition {
  const feed = findFeed(feedName);
  if (!feed) throw notFound('There is no such feed.', ERROR_CODES.feedNotFound);
  return feed;
}

async function feedPage(
  db: Db,
  caches: FeedCaches | null,
  viewer: UserRow,
  feed: FeedDefinition,
  query: FeedQuery,
  fallbackSeed: number,
): Promise<PlacedFeedPage> {
  const params: FeedPageParams = {
    feed: feed.name,
    viewerId: viewer.id,
    origin: viewerPoint(viewer),
    radiusMiles: query.radius,
    sort: query.sort,
    q: query.q,
    ...(query.condition ? { condition: query.condition } : {}),
    seed: query.seed ?? fallbackSeed,
    limit: query.limit,
    offset: query.offset,
    lookingFor: LOOKING_FOR_ON_CARD,
    ...(await feed.prepare?.(db, viewer.id)),
  };
  const end = query.offset + query.limit;
  const withMatch = feed.reasons !== undefined;
  const page = (ranking: Ranking, cards: Map<number, FeedRow>, saved?: Set<number>): PlacedFeedPage => {
    const mapPoints = new Map<number, FeedRow['mapPoint']>();
    const items = ranking.items.slice(query.offset, end).flatMap((entry) => {
      const card = cards.get(entry.id);
      if (!card) return []; // hidden or deleted since it was ranked
      const row: FeedRow = {
        ...card,
        distanceMiles: entry.distanceMiles,
        match: entry.match,
        isSaved: saved ? saved.has(entry.id) : card.isSaved,
      };
      mapPoints.set(entry.id, card.mapPoint);
      return [presentFeedItem(row, { withMatch })];
    });
    return { items, mapPoints };
  };
  const readCards = async (ranking: Ranking) => {
    const ids = ranking.items.slice(query.offset, end).map((entry) => entry.id);
    const read = await findCardRows(db, viewer.id, ids, LOOKING_FOR_ON_CARD);
    caches?.cards.set(read.cards, read.versions.card);
    return { cards: new Map(read.cards.map((card) => [card.id, card])), versions: read.versions };
  };

  const key = rankingKey(params, feed);
  const rankings = (feed.caching.rankings && caches?.rankings) || null;
  const kept = rankings?.get(key);
  if (caches && rankings && kept && (kept.complete || kept.items.length >= end)) {
    const ids = kept.items.slice(query.offset, end).map((entry) => entry.id);
    const state = await readPageState(db, viewer.id, ids);
    if (state.listing === kept.version) {
      const cards = caches.cards.get(ids, state.card);
      if (cards) return page(kept, cards, state.saved);
      const fresh = await readCards(kept);
      if (fresh.versions.listing === kept.version) return page(kept, fresh.cards);
    }
    rankings.delete(key);
  }
  // A window of several pages from this one (deep pages: just this one, and nothing kept).
  const window = rankingWindow(query.offset, query.limit, feed.caching.window);
  const keep = rankings !== null && window <= RANKING_KEEP_MAX;
  // Read before ranking: a change made meanwhile makes the ranking look older, never newer.
  const version = keep ? await readListingVersion(db) : 0;
  const ranking = await findRanking(db, params, keep ? window : end, version);
  if (keep) rankings?.set(key, ranking);
  if (caches && !keep) {
    // Rankings not kept, cards still are: the page's kept cards, if they stand, with the saved flags.
    const ids = ranking.items.slice(query.offset, end).map((entry) => entry.id);
    const state = await readPageState(db, viewer.id, ids);
    const cards = caches.cards.get(ids, state.card);
    if (cards) return page(ranking, cards, state.saved);
  }
  return page(ranking, (await readCards(ranking)).cards);
}

/**
 * An item's detail: anyone's active item, or any of the member's own (inactive included); 404
 * otherwise, alike for missing and hidden. A view by someone else counts (one UPDATE).
 */
/**
 * No member: the viewer of an item page opened signed out (issue 31). No account has this id, so the
 * detail's reads see nothing saved, no open barter and nobody hidden.
 */
const NO_VIEWER = '00000000-0000-0000-0000-000000000000';

/**
 * An item as a signed-out visitor who passed the site gate sees its page (issue 31, ADR 083): an
 * active item only (a hidden, removed, traded or unknown one is 404), no distance (the visitor has
 * no location), the owner's approximate area (the public point and its town, never the exact one).
 * No view is counted: link previews and crawlers would count.
 */
export async function getPublicItemDetail(db: Db, itemId: number): Promise<ItemDetail> {
  const row = await findItemDetail(db, NO_VIEWER, null, itemId, LOOKING_FOR_ON_DETAIL, { match: false });
  if (!row?.isActive) throw notFound('Item not found.');
  const point = await findItemPublicPoint(db, itemId);
  const town = point ? (nearestPlace(point.latitude, point.longitude)?.displayName ?? null) : null;
  const { match: _match, ...detail } = presentItemDetail(row, NO_VIEWER, approximateArea(point, town));
  return { ...detail, isSaved: false, openBarter: null, distanceMiles: null };
}

export async function getItemDetail(db: Db, viewer: UserRow, itemId: number): Promise<ItemDetail> {
  const row = await findItemDetail(db, viewer.id, viewerPoint(viewer), itemId, LOOKING_FOR_ON_DETAIL);
  if (!row) throw notFound('Item not found.');
  if (row.userId !== viewer.id) await countView(db, itemId, viewer.id);
  // The owner's public point (never the exact one), and the town nearest it, as a member page names it.
  const point = await findItemPublicPoint(db, itemId);
  const town = point ? (nearestPlace(point.latitude, point.longitude)?.displayName ?? null) : null;
  const [detail] = await markViewerRelations(db, viewer.id, [
    presentItemDetail(row, viewer.id, approximateArea(point, town)),
  ]);
  if (!detail) throw notFound('Item not found.');
  return detail;
}
