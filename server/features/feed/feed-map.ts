import { sql } from 'drizzle-orm';
import type { FeedQuery } from '#common/schemas/feed.ts';
import { FEED_MAP_MAX_ITEMS, type FeedMap, type FeedMapItem } from '#common/schemas/maps.ts';
import { intArray } from '../../db/arrays';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/rows';
import type { UserRow } from '../../db/schema/users';
import { approximateArea } from '../../geo/approximate-area';
import { viewerPoint } from '../../geo/earth';
import { itemPoint } from '../../geo/sql';
import type { FeedCaches } from './feed-cache';
import { getFeed } from './feed-service';

/**
 * The items' PUBLIC points (the owner's, copied onto the item: never the exact one), by id, in one
 * statement; items whose owner has no location are left out.
 */
export async function findItemPublicPoints(
  db: Db,
  ids: readonly number[],
): Promise<Map<number, { latitude: number; longitude: number }>> {
  if (ids.length === 0) return new Map();
  const point = itemPoint('i');
  const rows = await queryRows<{ id: number; latitude: number | null; longitude: number | null }>(
    db,
    sql`SELECT i.id, ${point.latitude}::float8 AS latitude, ${point.longitude}::float8 AS longitude
        FROM items i WHERE i.id = ANY(${intArray(ids)}::int[])`,
  );
  const points = new Map<number, { latitude: number; longitude: number }>();
  for (const row of rows)
    if (row.latitude !== null && row.longitude !== null)
      points.set(Number(row.id), { latitude: Number(row.latitude), longitude: Number(row.longitude) });
  return points;
}

/**
 * A feed's map (ADR 086): its first FEED_MAP_MAX_ITEMS items in the feed's own order, filters and
 * sort, each at its owner's public point rounded to 0.01 degree, the centre of the area maps'
 * circle (server/geo/approximate-area.ts), so a map tells nothing an item's detail does not.
 */
export async function getFeedMap(
  db: Db,
  caches: FeedCaches | null,
  viewer: UserRow,
  feedName: string,
  query: Pick<FeedQuery, 'radius' | 'sort' | 'q' | 'seed' | 'condition'>,
  fallbackSeed: number,
): Promise<FeedMap> {
  const items = await getFeed(
    db,
    caches,
    viewer,
    feedName,
    { ...query, limit: FEED_MAP_MAX_ITEMS, offset: 0 },
    fallbackSeed,
  );
  const points = await findItemPublicPoints(
    db,
    items.map((item) => item.id),
  );
  const placed: FeedMapItem[] = [];
  for (const item of items) {
    const area = approximateArea(points.get(item.id) ?? null);
    if (area) placed.push({ ...item, point: { latitude: area.latitude, longitude: area.longitude } });
  }
  const own = approximateArea(viewerPoint(viewer));
  return {
    items: placed,
    withoutPoint: items.length - placed.length,
    centre: own ? { latitude: own.latitude, longitude: own.longitude } : null,
    radiusMiles: query.radius,
  };
}
