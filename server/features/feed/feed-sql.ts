import { type SQL, sql } from 'drizzle-orm';
import {
  FULL_TEXT_HIT_SIMILARITY,
  MATCH_POINTS,
  NEARNESS_SCALE_MILES,
  VALUE_TOLERANCE_PERCENT,
} from './match-score';

/**
 * SQL building blocks of the feeds (docs/matching.md). Everything runs in the database with indexes:
 *
 * - candidates: `items_active_*` partial indexes (is_active), the owner's location through
 *   `users_lat_lon_idx` (a bounding box), then the exact haversine distance inline;
 * - search: `items_active_search_idx` (full text over title, description and category) OR
 *   `items_active_title_trgm_idx` (pg_trgm word similarity of the search text to the title);
 * - want matching: `items_active_category_idx` OR the same two text indexes, one probe per want.
 *
 * Works on PostgreSQL 15 and PGlite 0.5 (PostgreSQL 18): only core functions and pg_trgm.
 */

/** Mean earth radius in miles. */
export const EARTH_RADIUS_MILES = 3958.7613;

/** A member's saved coordinates. */
export interface Origin {
  latitude: number;
  longitude: number;
}

/** Degrees around an origin that contain every point within `miles` (longitude null: no useful bound). */
export interface BoundingBox {
  latMin: number;
  latMax: number;
  lon: { min: number; max: number } | null;
}

/**
 * The latitude/longitude box around `origin` containing the whole circle of `miles`. The longitude
 * span is the exact great-circle one (asin(sin(d)/cos(lat))); near a pole, or across the 180th
 * meridian, longitude is left unbounded and the haversine test alone decides.
 */
export function boundingBox(origin: Origin, miles: number): BoundingBox {
  const angular = miles / EARTH_RADIUS_MILES;
  const margin = 1e-6;
  const dLat = (angular * 180) / Math.PI + margin;
  const latMin = Math.max(-90, origin.latitude - dLat);
  const latMax = Math.min(90, origin.latitude + dLat);
  const ratio = Math.sin(angular) / Math.cos((origin.latitude * Math.PI) / 180);
  if (latMin <= -90 || latMax >= 90 || !(ratio < 1)) return { latMin, latMax, lon: null };
  const dLon = (Math.asin(ratio) * 180) / Math.PI + margin;
  const min = origin.longitude - dLon;
  const max = origin.longitude + dLon;
  if (min < -180 || max > 180) return { latMin, latMax, lon: null };
  return { latMin, latMax, lon: { min, max } };
}

/** Great-circle miles from `origin` to the member `u` (haversine), as float8; NULL when u has no location. */
export function distanceFrom(origin: Origin, u = 'u'): SQL {
  const lat = sql`${origin.latitude}::float8`;
  const lon = sql`${origin.longitude}::float8`;
  const uLat = sql.raw(`${u}.latitude::float8`);
  const uLon = sql.raw(`${u}.longitude::float8`);
  return sql`(2 * ${sql.raw(String(EARTH_RADIUS_MILES))} * asin(least(1.0, sqrt(
    power(sin(radians(${uLat} - ${lat}) / 2), 2)
    + cos(radians(${lat})) * cos(radians(${uLat})) * power(sin(radians(${uLon} - ${lon}) / 2), 2)))))`;
}

/**
 * The full-text document of an item. `items_active_search_idx` indexes exactly this expression, so
 * it must stay character-for-character the same as the index in server/db/schema/items.ts.
 */
export function itemDocument(i = 'i'): SQL {
  return sql.raw(`to_tsvector('english', ${i}.title || ' ' || ${i}.description || ' ' || ${i}.category)`);
}

/** Search text as a full-text query: quoted phrases, OR and -exclusions as on a web search box. */
function searchQuery(q: string): SQL {
  return sql`websearch_to_tsquery('english', ${q}::text)`;
}

/**
 * Rows of `items i JOIN users u` a viewer may see: active, not their own, within the radius when
 * they have a location, and matching the search text when there is one.
 */
export interface CandidateFilter {
  viewerId: string;
  origin: Origin | null;
  radiusMiles: number;
  q?: string;
}

export function candidateWhere(filter: CandidateFilter): SQL {
  const parts: SQL[] = [sql`i.is_active`, sql`i.user_id <> ${filter.viewerId}::uuid`];
  if (filter.origin) {
    const box = boundingBox(filter.origin, filter.radiusMiles);
    parts.push(sql`u.latitude BETWEEN ${box.latMin}::numeric AND ${box.latMax}::numeric`);
    if (box.lon) parts.push(sql`u.longitude BETWEEN ${box.lon.min}::numeric AND ${box.lon.max}::numeric`);
    parts.push(sql`${distanceFrom(filter.origin)} <= ${filter.radiusMiles}::float8`);
  }
  if (filter.q) parts.push(searchMatch(filter.q));
  return sql.join(parts, sql` AND `);
}

/** The search text found in an item: full text over title, description and category, or a near spelling of the title. */
export function searchMatch(q: string, i = 'i'): SQL {
  return sql`(${itemDocument(i)} @@ ${searchQuery(q)} OR ${q}::text <% ${sql.raw(`${i}.title`)})`;
}

/** 1 when the search text is found in the title itself (those come first), else 0. */
export function searchTier(q: string, i = 'i'): SQL {
  const title = sql.raw(`${i}.title`);
  return sql`(CASE WHEN to_tsvector('english', ${title}) @@ ${searchQuery(q)} OR ${q}::text <% ${title} THEN 1 ELSE 0 END)`;
}

/** A seeded, stable pseudo-random rank of an item id (PostgreSQL's own seeded integer hash). */
export function shuffleKey(seed: number, i = 'i'): SQL {
  return sql`hashint4extended(${sql.raw(`${i}.id`)}, ${seed}::int8)`;
}

const points = (n: number) => sql.raw(String(n));

/**
 * Want `w` (with `w.tsq` = plainto_tsquery of its title) matches item `i`: both goods or both
 * services; same category, or the want's words found in the item (full text) or its title (near
 * spelling, pg_trgm word similarity >= 0.6, the extension's default threshold); and, where both
 * values are known, the item's value at most maxValue plus the tolerance (exact numeric arithmetic).
 */
export function wantMatchesItem(w: string, i: string, wantQuery: SQL, itemDoc: SQL): SQL {
  const tolerance = points(100 + VALUE_TOLERANCE_PERCENT);
  return sql`${sql.raw(`${i}.is_service = ${w}.is_service`)}
    AND (${sql.raw(`${i}.category = ${w}.category`)} OR ${itemDoc} @@ ${wantQuery} OR ${sql.raw(`${w}.title <% ${i}.title`)})
    AND (${sql.raw(`${w}.max_value IS NULL OR ${i}.estimated_value IS NULL`)}
      OR ${sql.raw(`${i}.estimated_value`)} * 100 <= ${sql.raw(`${w}.max_value`)} * ${tolerance})`;
}

/**
 * The match score of server/features/feed/match-score.ts in SQL, from the columns of a want/item
 * pair: same_category, text_pct (similarity in percent), value_points, distance (miles) and mutual.
 */
export function scoreSql(): SQL {
  const scaleTenths = NEARNESS_SCALE_MILES * 10;
  return sql`least(100, ${wantPointsSql()}
    + CASE WHEN mutual THEN ${points(MATCH_POINTS.mutual)} ELSE 0 END
    + CASE WHEN distance IS NULL THEN 0
        ELSE (greatest(0, ${points(scaleTenths)} - round(distance::numeric * 10)::int) * ${points(MATCH_POINTS.nearness)}) / ${points(scaleTenths)} END)`;
}

/** The points that depend on which want matched: relevance and value fit (columns as in scoreSql). */
export function wantPointsSql(): SQL {
  return sql`(CASE WHEN same_category THEN ${points(MATCH_POINTS.sameCategory)} ELSE 0 END
    + (text_pct * ${points(MATCH_POINTS.text)}) / 100 + value_points)`;
}

/** Text similarity of want `w` to item `i` in whole percent (see MatchComponents.textSimilarity). */
export function textPercent(w: string, i: string, itemDoc: SQL): SQL {
  return sql`round((greatest(
      word_similarity(${sql.raw(`${w}.title`)}, ${sql.raw(`${i}.title`)}),
      CASE WHEN ${itemDoc} @@ ${sql.raw(`${w}.tsq`)} THEN ${points(FULL_TEXT_HIT_SIMILARITY)} ELSE 0 END
    ) * 100)::numeric)::int`;
}

/** Value points of a pair: within the want's budget, or unsure (tolerance, or a value unknown). */
export function valuePoints(w: string, i: string): SQL {
  return sql`CASE WHEN ${sql.raw(`${w}.max_value IS NOT NULL AND ${i}.estimated_value IS NOT NULL AND ${i}.estimated_value <= ${w}.max_value`)}
    THEN ${points(MATCH_POINTS.valueWithin)} ELSE ${points(MATCH_POINTS.valueUnsure)} END`;
}
