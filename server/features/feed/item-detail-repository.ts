import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { queryPrepared } from '../../db/prepared';
import type { Point } from '../../geo/earth';
import { itemPoint } from '../../geo/sql';
import { notHiddenFrom } from '../safety';
import { distanceOrNull, matchPage } from './feed-candidates';
import { MATCH_COLUMNS, type MatchColumns, presentPage, type RawRow, toFeedRow, toMatch } from './feed-cards';
import type { FeedPageParams } from './feed-definition';
import type { FeedRow } from './feed-types';

/**
 * One item as its detail shows it: an active item of anyone, or any item of the viewer's own;
 * null otherwise. When it matches one of the viewer's wants, the match comes with it, unless
 * `match: false` (a signed-out visitor has no wants: the match statement, planned afresh for every
 * item, cost PostgreSQL about 10 ms a public item page under load for nothing, bench:feed 2026-12-04).
 */
export async function findItemDetail(
  db: Db,
  viewerId: string,
  origin: Point | null,
  itemId: number,
  lookingFor: number,
  { match = true }: { match?: boolean } = {},
): Promise<FeedRow | null> {
  // Prepared: PostgreSQL planned this statement afresh for every item, 17 ms of planning for 0.3 ms of
  // work (bench:feed, 2026-12-04); by primary key, the plan kept for the connection is the same.
  const [row] = await queryPrepared<RawRow>(db, itemDetailQuery(viewerId, origin, itemId, lookingFor));
  if (!row) return null;
  const detail = toFeedRow(row);
  if (!match || !detail.isActive || detail.userId === viewerId) return detail;
  // Prepared: planned with its values, this statement cost PostgreSQL about 30 ms an item page; the plan
  // kept for the connection (every probe restricted to the item's primary key) about 2 ms.
  const [matched] = await queryPrepared<MatchColumns>(
    db,
    itemMatchQuery(viewerId, origin, itemId, lookingFor),
  );
  if (matched) detail.match = toMatch(matched);
  return detail;
}

/** The statement of findItemDetail's card: the item by primary key, with the card's fields and photos. */
export function itemDetailQuery(
  viewerId: string,
  origin: Point | null,
  itemId: number,
  lookingFor: number,
): SQL {
  // One's own item is at home (0 miles), not at the public point others measure it from.
  const distance = origin
    ? sql`CASE WHEN i.user_id = ${viewerId}::uuid THEN 0::float8 ELSE ${distanceOrNull(origin)} END`
    : distanceOrNull(origin);
  const page = sql`SELECT i.id, ${distance} AS distance FROM items i
    WHERE i.id = ${itemId}::int AND (i.is_active OR i.user_id = ${viewerId}::uuid)
      AND ${notHiddenFrom('i.user_id', viewerId)}`;
  return presentPage({ page, viewerId, order: [['id', 'ASC']], lookingFor, extra: sql`, i.photos` });
}

/** The statement of findItemDetail's match: the viewer's wants the item matches, the best first. */
export function itemMatchQuery(
  viewerId: string,
  origin: Point | null,
  itemId: number,
  lookingFor: number,
): SQL {
  const params: FeedPageParams = {
    feed: 'barter-match',
    viewerId,
    origin,
    radiusMiles: 0,
    sort: 'recent',
    seed: 0,
    limit: 1,
    offset: 0,
    lookingFor,
  };
  return sql`SELECT ${MATCH_COLUMNS} FROM (${matchPage(params, [['id', 'ASC']], itemId)}) p`;
}

/** Count a view by someone other than the owner, in one statement; updated_at stays as it was. */
export async function countView(db: Db, itemId: number, viewerId: string): Promise<void> {
  await db.execute(
    sql`UPDATE items SET view_count = view_count + 1
        WHERE id = ${itemId}::int AND user_id <> ${viewerId}::uuid AND is_active`,
  );
}

/**
 * The item's copy of its owner's PUBLIC point (never the exact one), for the detail's map area;
 * null when the owner has no location.
 */
export async function findItemPublicPoint(db: Db, itemId: number): Promise<Point | null> {
  const point = itemPoint('i');
  const [row] = await queryPrepared<{ latitude: number | null; longitude: number | null }>(
    db,
    sql`SELECT ${point.latitude}::float8 AS latitude, ${point.longitude}::float8 AS longitude
        FROM items i WHERE i.id = ${itemId}::int`,
  );
  if (!row || row.latitude === null || row.longitude === null) return null;
  return { latitude: Number(row.latitude), longitude: Number(row.longitude) };
}
