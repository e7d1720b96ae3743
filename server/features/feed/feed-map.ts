import type { FeedQuery } from '#common/schemas/feed.ts';
import { FEED_MAP_MAX_ITEMS, type FeedMap, type FeedMapItem } from '#common/schemas/maps.ts';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema/users';
import { approximateArea } from '../../geo/approximate-area';
import { viewerPoint } from '../../geo/earth';
import type { FeedCaches } from './feed-cache';
import { getPlacedFeedPage } from './feed-service';

/**
 * A feed's map (ADR 086): its first FEED_MAP_MAX_ITEMS items in the feed's own order, filters and
 * sort, each at its owner's public point rounded to 0.01 degree, the centre of the area maps'
 * circle (server/geo/approximate-area.ts), so a map tells nothing an item's detail does not. Each
 * carries what its marker and row show (feedMapItemSchema); Details opens the item by id.
 */
export async function getFeedMap(
  db: Db,
  caches: FeedCaches | null,
  viewer: UserRow,
  feedName: string,
  query: Pick<FeedQuery, 'radius' | 'sort' | 'q' | 'seed' | 'condition'>,
  fallbackSeed: number,
): Promise<FeedMap> {
  // Each card's point is read with it and kept with it (FeedRow.mapPoint): the item's public point
  // rounded as approximateArea rounds it.
  const { items, mapPoints } = await getPlacedFeedPage(
    db,
    caches,
    viewer,
    feedName,
    { ...query, limit: FEED_MAP_MAX_ITEMS, offset: 0 },
    fallbackSeed,
  );
  const placed: FeedMapItem[] = [];
  for (const { id, title, distanceMiles, user, match } of items) {
    const point = mapPoints.get(id);
    if (!point) continue;
    placed.push({
      id,
      title,
      distanceMiles,
      user: { id: user.id, firstName: user.firstName, lastName: user.lastName },
      ...(match ? { match: { score: match.score } } : {}),
      point,
    });
  }
  const own = approximateArea(viewerPoint(viewer));
  return {
    items: placed,
    withoutPoint: items.length - placed.length,
    centre: own ? { latitude: own.latitude, longitude: own.longitude } : null,
    radiusMiles: query.radius,
  };
}
