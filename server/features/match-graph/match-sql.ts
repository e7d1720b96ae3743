import { type SQL, sql } from 'drizzle-orm';
import { itemDocument } from '../items';
import { MATCH_POINTS, NEARNESS_SCALE_MILES, TEXT_PERCENT, VALUE_TOLERANCE_PERCENT } from './match-score';

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
 * Whether any of want `w`'s words has a related term (match_related_terms): once per want, as the
 * column `has_related` that textFoundColumns reads.
 */
export function wantHasRelated(w = 'w'): SQL {
  return sql`EXISTS (SELECT 1 FROM match_related_terms r WHERE r.lexeme = ANY(${wantLexemes(w)}))`;
}

/**
 * What the text search finds of want `w`'s words in item `i` (match-score.ts, TextFound), as the
 * column `text_found` that textPercentSql reads: an array of want_words, title_words,
 * related_words, title_within (0 or 1) and fts (0 or 1, all the want's words in the item). The
 * want's words are its stored lexemes (`w` carries has_related, wantHasRelated), the item's title
 * words its stored `title_lexemes` (`i` is a row of items or has that column); a related term is a
 * row of match_related_terms (by primary key). Plain array tests decide most pairs: words are
 * counted one by one only when the title shares some of the want's words but not all (related
 * terms: only when the want has any), and the item's whole document is read only when the title
 * does not hold every word: most pairs a category brings share none.
 */
export function textFoundColumns(w = 'w', i = 'i'): SQL {
  const wanted = wantLexemes(w);
  const title = sql.raw(`${i}.title_lexemes`);
  const hasRelated = sql.raw(`${w}.has_related`);
  const titleWords = sql`CASE WHEN ${wanted} <@ ${title} THEN cardinality(${wanted})
      WHEN ${wanted} && ${title}
        THEN (SELECT count(*) FROM unnest(${wanted}) x(lexeme) WHERE x.lexeme = ANY(${title}))::int
      ELSE 0 END`;
  return sql`ARRAY[cardinality(${wanted}), ${titleWords},
      CASE WHEN ${hasRelated} AND NOT (${wanted} <@ ${title})
        THEN (SELECT count(*) FROM unnest(${wanted}) x(lexeme) WHERE x.lexeme = ANY(${title})
          OR EXISTS (SELECT 1 FROM match_related_terms r WHERE r.lexeme = x.lexeme AND r.related = ANY(${title})))::int
        ELSE ${titleWords} END,
      (${title} <@ ${wanted})::int,
      CASE WHEN cardinality(${wanted}) = 0 THEN 0 WHEN ${wanted} <@ ${title} THEN 1
        ELSE (${wanted} <@ tsvector_to_array(${itemDocument(i)}))::int END] AS text_found`;
}

/**
 * Text similarity in whole percent (match-score.ts, textPercentOf) from a pair's columns
 * (text_found of textFoundColumns, near: the title a near spelling of the want's, same_category):
 * the same levels, in the same order.
 */
export function textPercentSql(): SQL {
  const want = 'text_found[1]';
  const title = 'text_found[2]';
  const related = 'text_found[3]';
  return sql.raw(`(CASE WHEN ${want} > 0 AND ${title} = ${want}
      THEN CASE WHEN text_found[4] = 1 THEN ${TEXT_PERCENT.titleIsWant} ELSE ${TEXT_PERCENT.allInTitle} END
    ELSE greatest(
      CASE WHEN near THEN ${TEXT_PERCENT.nearSpelling} ELSE 0 END,
      CASE WHEN ${want} > 0 AND same_category AND ${related} = ${want} THEN ${TEXT_PERCENT.relatedInTitle} ELSE 0 END,
      CASE WHEN text_found[5] = 1 THEN ${TEXT_PERCENT.elsewhere} ELSE 0 END,
      CASE WHEN ${want} > 0
        THEN (${TEXT_PERCENT.shareInTitle} * CASE WHEN same_category THEN ${related} ELSE ${title} END) / ${want}
        ELSE 0 END)
    END)`);
}

/** Value points of a pair: within the want's budget, or unsure (tolerance, or a value unknown). */
export function valuePoints(w: string, i: string): SQL {
  return sql`CASE WHEN ${sql.raw(`${w}.max_value IS NOT NULL AND ${i}.estimated_value IS NOT NULL AND ${i}.estimated_value <= ${w}.max_value`)}
    THEN ${points(MATCH_POINTS.valueWithin)} ELSE ${points(MATCH_POINTS.valueUnsure)} END`;
}
