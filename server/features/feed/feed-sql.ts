import { type SQL, sql } from 'drizzle-orm';
import { ITEM_CONDITIONS, type ItemCondition } from '#common/schemas/listings.ts';
import { textArray } from '../../db/arrays';
import type { Point } from '../../geo/earth';
import { itemPoint, withinRadius } from '../../geo/sql';
import { listedItem } from '../items';
import { notHiddenFrom } from '../safety';
import { type Search, searchMatch } from './search';

/**
 * SQL building blocks of the feeds (docs/matching.md). Everything runs in the database with indexes:
 *
 * - candidates: `items_active_*` partial indexes (is_active), tested against the radius on the
 *   item's own copy of its owner's PUBLIC point (kept by triggers, migrations 0007 and 0009): the
 *   one bounding box and distance of server/geo/sql.ts; sorting by distance walks the members
 *   within the radius through `users_public_lat_lon_idx`, nearest first. Every distance and radius
 *   test is from the viewer's own point to another member's public point (server/geo/README.md);
 * - search: the postings of the search's words (search_postings, search.ts, ADR 023), or
 *   `items_active_search_vector_idx` (full text over title, description and category);
 * - want matching: `items_active_category_lat_idx` (category, then the radius's latitude band)
 *   OR the same two text indexes, one probe per want.
 *
 * Works on PostgreSQL 15 and PGlite 0.5 (PostgreSQL 18): only core functions and pg_trgm.
 */

/**
 * Rows of `items i` a viewer may see: listed (listedItem), not their own, within the radius when
 * they have a location (the item's copy of its owner's public point), and matching the search text
 * when there is one.
 */
export interface CandidateFilter {
  viewerId: string;
  /** The viewer's own point (null: no location, so no radius and no distances). */
  origin: Point | null;
  radiusMiles: number;
  /** The search, resolved (search.ts). */
  search?: Search;
  /** Goods in this condition or better only (conditionAtLeast). */
  condition?: ItemCondition;
}

export function candidateWhere(filter: CandidateFilter): SQL {
  const parts: SQL[] = [
    listedItem('i'),
    sql`i.user_id <> ${filter.viewerId}::uuid`,
    notHiddenFrom('i.user_id', filter.viewerId),
  ];
  // The item's copy of its owner's public point (kept by the database, migration 0009).
  if (filter.origin) parts.push(withinRadius(filter.origin, filter.radiusMiles, itemPoint('i')));
  if (filter.search) parts.push(searchMatch(filter.search));
  if (filter.condition) parts.push(conditionAtLeast(filter.condition, 'i'));
  return sql.join(parts, sql` AND `);
}

/** The conditions as good as `condition` or better, best first ('good': new, like-new, good). */
export function conditionsAtLeast(condition: ItemCondition): ItemCondition[] {
  return ITEM_CONDITIONS.slice(0, ITEM_CONDITIONS.indexOf(condition) + 1);
}

/**
 * Goods in `condition` or better (ADR 082, addendum): services (no condition) and goods listed
 * without one do not pass. One parameter (an array), so a prepared plan serves every level.
 */
export function conditionAtLeast(condition: ItemCondition, alias = 'i'): SQL {
  return sql`${sql.raw(`${alias}.condition`)} = ANY(${textArray(conditionsAtLeast(condition))}::text[])`;
}

/**
 * random-barter's order: every active item sits on one fixed pseudo-random cycle (hashint4 of its
 * id, indexed by `items_active_shuffle_idx`); the seed picks where a browsing session enters it.
 * `lap` is 0 from the entry point to the end of the cycle and 1 after wrapping around.
 */
export function shuffleColumns(seed: number, i = 'i'): SQL {
  const key = sql.raw(`hashint4(${i}.id)`);
  return sql`${key} AS shuffle, (CASE WHEN ${key} >= ${shuffleStart(seed)} THEN 0 ELSE 1 END) AS lap`;
}

/** Where on the cycle a seed enters: the seed's own hash, so neighbouring seeds start far apart. */
export function shuffleStart(seed: number): SQL {
  return sql`hashint4(${seed}::int4)`;
}
