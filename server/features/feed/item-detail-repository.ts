import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/rows';
import type { Point } from '../../geo/earth';
import { itemPoint } from '../../geo/sql';
import { notHiddenFrom } from '../safety';
import { distanceOrNull, matchPage } from './feed-candidates';
import { MATCH_COLUMNS, type MatchColumns, presentPage, type RawRow, toFeedRow, toMatch } from './feed-cards';
import type { FeedPageParams } from './feed-definition';
import type { FeedRow } from './feed-types';

const run = queryRows;

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
  // One's own item is at home (0 miles), not at the public point others measure it from.
  const distance = origin
    ? sql`CASE WHEN i.user_id = ${viewerId}::uuid THEN 0::float8 ELSE ${distanceOrNull(origin)} END`
    : distanceOrNull(origin);
  const page = sql`SELECT i.id, ${distance} AS distance FROM items i
    WHERE i.id = ${itemId}::int AND (i.is_active OR i.user_id = ${viewerId}::uuid)
      AND ${notHiddenFrom('i.user_id', viewerId)}`;
  const [row] = await run<RawRow>(
    db,
    presentPage({ page, viewerId, order: [['id', 'ASC']], lookingFor, extra: sql`, i.photos` }),
  );
  if (!row) return null;
  const detail = toFeedRow(row);
  if (!match || !detail.isActive || detail.userId === viewerId) return detail;
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
  const [matched] = await run<MatchColumns>(
    db,
    sql`SELECT ${MATCH_COLUMNS} FROM (${matchPage(params, [['id', 'ASC']], itemId)}) p`,
  );
  if (matched) detail.match = toMatch(matched);
  return detail;
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
  const [row] = await run<{ latitude: number | null; longitude: number | null }>(
    db,
    sql`SELECT ${point.latitude}::float8 AS latitude, ${point.longitude}::float8 AS longitude
        FROM items i WHERE i.id = ${itemId}::int`,
  );
  if (!row || row.latitude === null || row.longitude === null) return null;
  return { latitude: Number(row.latitude), longitude: Number(row.longitude) };
}
