import { type SQL, sql } from 'drizzle-orm';
import {
  MATCH_POINTS,
  NEARNESS_SCALE_MILES,
  TEXT_ELSEWHERE,
  TEXT_IN_TITLE,
  TEXT_NEAR_SPELLING,
  VALUE_TOLERANCE_PERCENT,
} from './match-score';

/**
 * The definition of a match in SQL (docs/matching.md), the same formulas as match-score.ts: the
 * match graph (graph-sql.ts) and Barter Match's ranking query (server/features/feed) both use them.
 */

/**
 * The lexemes of a want's title: the stored, generated `title_lexemes` column. A want's words are
 * all in an item exactly when this array is non-empty and contained in the item's lexemes (the
 * same test as `item.search_vector @@ plainto_tsquery('english', want.title)`).
 */
export function wantLexemes(w = 'w'): SQL {
  return sql.raw(`${w}.title_lexemes`);
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
 * The match score of match-score.ts in SQL, from the columns of a want/item
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
