import { type SQL, sql } from 'drizzle-orm';
import type { Point } from '../../geo/earth';
import { itemPoint, withinRadius } from '../../geo/sql';
import { notHiddenFrom } from '../safety/blocks-sql';
import {
  MATCH_POINTS,
  NEARNESS_SCALE_MILES,
  TEXT_ELSEWHERE,
  TEXT_IN_TITLE,
  TEXT_NEAR_SPELLING,
  VALUE_TOLERANCE_PERCENT,
} from './match-score';
import { itemDocument, type Search, searchMatch } from './search';

export { itemDocument };

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
 * The lexemes of a want's title: the stored, generated `title_lexemes` column. A want's words are
 * all in an item exactly when this array is non-empty and contained in the item's lexemes (the
 * same test as `item.search_vector @@ plainto_tsquery('english', want.title)`).
 */
export function wantLexemes(w = 'w'): SQL {
  return sql.raw(`${w}.title_lexemes`);
}

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
}

/**
 * An item other members may see listed: active, and not reserved by an accepted barter (issue 13;
 * a reservation moves the listing version like an edit, migration 0010, so kept rankings drop it).
 */
export function listedItem(i = 'i'): SQL {
  return sql.raw(`${i}.is_active AND ${i}.reserved_by_request_id IS NULL`);
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
  return sql.join(parts, sql` AND `);
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

const points = (n: number) => sql.raw(String(n));

/** Where both values are known, the item's value is at most the want's maxValue plus the tolerance (exact numerics). */
export function valueFits(w: string, i: string): SQL {
  return sql.raw(
    `(${w}.max_value IS NULL OR ${i}.estimated_value IS NULL OR ${i}.estimated_value * 100 <= ${w}.max_value * ${100 + VALUE_TOLERANCE_PERCENT})`,
  );
}

/**
 * Reciprocity: the owner's want `ow` matches one of the viewer's items `mi` (columns category,
 * is_service, estimated_value, lexemes): both goods or both services, and the same category or all
 * of the want's words in the item, and the value fits. Near spellings (trigrams) are left out in
 * this direction: they would cost a similarity computation per (want, item) pair for every owner
 * on the list, and a want's category nearly always carries the match anyway.
 */
export function ownerWantMatchesMyItem(ow = 'ow', mi = 'mi'): SQL {
  return sql`${sql.raw(`${ow}.is_service = ${mi}.is_service`)}
    AND (${sql.raw(`${ow}.category = ${mi}.category`)}
      OR (cardinality(${wantLexemes(ow)}) > 0 AND ${wantLexemes(ow)} <@ ${sql.raw(`${mi}.lexemes`)}))
    AND ${valueFits(ow, mi)}`;
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

/**
 * Text similarity in whole percent (MatchComponents.textSimilarity, textSimilarityOf) from a pair's
 * boolean columns fts_title (the want's words all in the title), fts (all in the item) and near
 * (the title a near spelling of the want's): no text is compared per row.
 */
export function textPercentSql(): SQL {
  const percent = (n: number) => points(Math.round(n * 100));
  return sql`(CASE WHEN fts_title THEN ${percent(TEXT_IN_TITLE)} WHEN fts THEN ${percent(TEXT_ELSEWHERE)}
    WHEN near THEN ${percent(TEXT_NEAR_SPELLING)} ELSE 0 END)`;
}

/** Value points of a pair: within the want's budget, or unsure (tolerance, or a value unknown). */
export function valuePoints(w: string, i: string): SQL {
  return sql`CASE WHEN ${sql.raw(`${w}.max_value IS NOT NULL AND ${i}.estimated_value IS NOT NULL AND ${i}.estimated_value <= ${w}.max_value`)}
    THEN ${points(MATCH_POINTS.valueWithin)} ELSE ${points(MATCH_POINTS.valueUnsure)} END`;
}
