import { and, eq, isNull, ne, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { items, wants } from '../../db/schema/trading';
import { users } from '../../db/schema/users';
import type { Point } from '../../geo/earth';
import { usersPublicPoint, withinRadius } from '../../geo/sql';

/** A circle on the map: the asking member's own point and how far they travel. */
export interface Area {
  centre: Point;
  radiusMiles: number;
}

/** An active offer or want as the flyer needs it, with the owner's first name and nothing else of them. */
export interface FlyerListingRow {
  title: string;
  category: string;
  isService: boolean;
  firstName: string | null;
}

export interface NeighborhoodQuery {
  /** The asking member: their own listings are left out. */
  viewerId: string;
  /**
   * Only members whose public point (server/geo/README.md) lies within this area; null: anywhere
   * (the viewer has no position).
   */
  area: Area | null;
  limit: number;
}

const owner = (query: NeighborhoodQuery, userId: typeof items.userId | typeof wants.userId): SQL =>
  and(
    ne(userId, query.viewerId),
    query.area ? withinRadius(query.area.centre, query.area.radiusMiles, usersPublicPoint) : undefined,
  ) as SQL;

/**
 * Newest first, spelled exactly as the partial indexes are built (`DESC NULLS LAST`): a plain
 * `DESC` means NULLS FIRST in PostgreSQL, which those indexes cannot serve.
 */
const newestFirst = (table: typeof items | typeof wants): SQL[] => [
  sql`${table.createdAt} DESC NULLS LAST`,
  sql`${table.id} DESC NULLS LAST`,
];

/**
 * The newest active items of other members in the area that no accepted barter holds, newest
 * first, in one query
 * (items_active_recent_idx for the order, users_public_lat_lon_idx for the box).
 */
export async function findNearbyOffers(db: Db, query: NeighborhoodQuery): Promise<FlyerListingRow[]> {
  return db
    .select({
      title: items.title,
      category: items.category,
      isService: items.isService,
      firstName: users.firstName,
    })
    .from(items)
    .innerJoin(users, eq(users.id, items.userId))
    .where(and(sql`${items.isActive}`, isNull(items.reservedByRequestId), owner(query, items.userId)))
    .orderBy(...newestFirst(items))
    .limit(query.limit);
}

/** The newest active wants of other members in the area, in one query (wants_active_recent_idx). */
export async function findNearbyWants(db: Db, query: NeighborhoodQuery): Promise<FlyerListingRow[]> {
  return db
    .select({
      title: wants.title,
      category: wants.category,
      isService: wants.isService,
      firstName: users.firstName,
    })
    .from(wants)
    .innerJoin(users, eq(users.id, wants.userId))
    .where(and(sql`${wants.isActive}`, owner(query, wants.userId)))
    .orderBy(...newestFirst(wants))
    .limit(query.limit);
}
