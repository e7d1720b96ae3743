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
import { findTraderSummaries } from '../trades/trades-repository';
import { presentFeedItem, presentItemDetail } from './feed-presenter';
import { countView, type FeedRow, findFeedPage, findItemDetail } from './feed-repository';
import type { Origin } from './feed-sql';

/** The member's saved coordinates, or null when they have not set a location with coordinates. */
export function originOf(user: Pick<UserRow, 'latitude' | 'longitude'>): Origin | null {
  if (user.latitude === null || user.longitude === null) return null;
  return { latitude: Number(user.latitude), longitude: Number(user.longitude) };
}

export function isFeedName(name: string): name is FeedName {
  return (FEED_NAMES as readonly string[]).includes(name);
}

/** Feed cards for rows, with their owners' ratings (one query for the whole page). */
export async function presentRows(db: Db, rows: FeedRow[], withMatch = false): Promise<FeedItem[]> {
  const owners = await findTraderSummaries(
    db,
    rows.map((row) => row.userId),
  );
  return rows.map((row) => presentFeedItem(row, owners.get(row.userId), { withMatch }));
}

/**
 * One page of a feed for the member (docs/matching.md). `fallbackSeed` orders random-barter when
 * the query brings no seed (derived from the session, so one browsing session keeps one order).
 */
export async function getFeed(
  db: Db,
  viewer: UserRow,
  feedName: string,
  query: FeedQuery,
  fallbackSeed: number,
): Promise<FeedItem[]> {
  if (!isFeedName(feedName)) {
    throw notFound('There is no such feed.', ERROR_CODES.feedNotFound);
  }
  const rows = await findFeedPage(db, {
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
  });
  return presentRows(db, rows, feedName === 'barter-match');
}

/**
 * An item's detail: anyone's active item, or any of the member's own (inactive included); 404
 * otherwise, alike for missing and hidden. A view by someone else counts (one UPDATE).
 */
export async function getItemDetail(db: Db, viewer: UserRow, itemId: number): Promise<ItemDetail> {
  const row = await findItemDetail(db, viewer.id, originOf(viewer), itemId, LOOKING_FOR_ON_DETAIL);
  if (!row) throw notFound('Item not found.');
  const owners = await findTraderSummaries(db, [row.userId]);
  if (row.userId !== viewer.id) await countView(db, itemId, viewer.id);
  return presentItemDetail(row, owners.get(row.userId), viewer.id);
}
