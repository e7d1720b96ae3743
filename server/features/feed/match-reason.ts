import { type SQL, sql } from 'drizzle-orm';
import type { MatchReason } from '#common/schemas/feed.ts';
import { TEXT_PERCENT } from '../match-graph';
import type { MatchRow } from './feed-types';

/**
 * Why an item matched the viewer's want, in words a card can name (issue 31, ADR 089): the levels of
 * the match's text similarity (docs/matching.md) told apart, with the words that matched.
 */

/** The text similarity levels (the match graph's TEXT_PERCENT) the reason tells apart. */
const TITLE_IS_WANT = TEXT_PERCENT.titleIsWant;
const ALL_IN_TITLE = TEXT_PERCENT.allInTitle;
/** A near spelling and a related term in the title score the same; the words tell them apart. */
const NEAR_OR_RELATED = TEXT_PERCENT.nearSpelling;
const ELSEWHERE = TEXT_PERCENT.elsewhere;

/** A title or want split into words as typed (letters, digits, apostrophes and hyphens kept). */
const words = (column: string) =>
  `regexp_split_to_table(${column}, '[^[:alnum:]''-]+') WITH ORDINALITY x(word, n)`;

/**
 * The words a card names for the want `p.want_id` and item `p.id` of a page subquery `p` (its
 * text_pct and same_category too), as JSON text `[words, related]`:
 *  - words: the want's own words, as its member typed them, that the item's title holds (all the
 *    item's text when only there: similarity 30);
 *  - related: the item's title words that are a related term of a want word the title lacks
 *    (match_related_terms), within the want's category only, as the score counts them.
 * Read on the page's rows by primary key (the item and the want) and only where the level leaves
 * something to name (not a title that is the want, not a category guess alone): no per-card query.
 */
export function matchWordsColumn(p = 'p'): SQL {
  const title = 'ri.title_lexemes';
  const wanted = `(CASE WHEN ${p}.text_pct = ${ELSEWHERE} THEN tsvector_to_array(ri.search_vector) ELSE ${title} END)`;
  return sql.raw(`(CASE WHEN ${p}.text_pct > 0 AND ${p}.text_pct < ${TITLE_IS_WANT} THEN (
      SELECT json_build_array(
        (SELECT coalesce(json_agg(x.word ORDER BY x.n), '[]') FROM ${words('rw.title')}
          WHERE x.word <> '' AND tsvector_to_array(to_tsvector('english', x.word)) && ${wanted}),
        CASE WHEN ${p}.same_category AND ${p}.text_pct < ${ALL_IN_TITLE} THEN
          (SELECT coalesce(json_agg(x.word ORDER BY x.n), '[]') FROM ${words('ri.title')}
            WHERE x.word <> '' AND EXISTS (SELECT 1 FROM match_related_terms r
              WHERE r.lexeme = ANY(rw.title_lexemes) AND NOT (r.lexeme = ANY(${title}))
                AND r.related = ANY(tsvector_to_array(to_tsvector('english', x.word)))))
        ELSE '[]'::json END)::text
      FROM items ri JOIN wants rw ON rw.id = ${p}.want_id WHERE ri.id = ${p}.id) END) AS match_words`);
}

/** The column of matchWordsColumn as JSON text: [words, related], each once (case aside). */
export function parseMatchWords(text: string | null | undefined): { words: string[]; related: string[] } {
  if (!text) return { words: [], related: [] };
  const [found, related] = JSON.parse(text) as [string[] | null, string[] | null];
  return { words: distinct(found ?? []), related: distinct(related ?? []) };
}

function distinct(list: string[]): string[] {
  const seen = new Set<string>();
  return list.filter((word) => {
    const key = word.toLocaleLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * What the card says matched (ADR 089), from the match's stored parts (text similarity, same
 * category) and the words of matchWordsColumn:
 *  - title: the title is the want;
 *  - all-words: all the want's words in the title, and more ("mountain, bike in the title");
 *  - related: within the category, the title names it by a related term ("related: bicycle");
 *  - near-spelling: the title is spelt near the want's;
 *  - elsewhere: all the want's words in the description or category;
 *  - some-words: some of the want's words in the title (and related terms);
 *  - category: the same category, nothing of the words.
 * Null when there is nothing to say (no match).
 */
export function matchReason(match: MatchRow): MatchReason | null {
  const pct = match.textPercent;
  const found = match.words ?? [];
  const related = match.related ?? [];
  if (pct >= TITLE_IS_WANT) return { kind: 'title', words: [], related: [] };
  if (pct >= ALL_IN_TITLE && found.length > 0) return { kind: 'all-words', words: found, related: [] };
  if (pct === NEAR_OR_RELATED) {
    return related.length > 0 && match.sameCategory
      ? { kind: 'related', words: found, related }
      : { kind: 'near-spelling', words: [], related: [] };
  }
  if (pct === ELSEWHERE && found.length > 0) return { kind: 'elsewhere', words: found, related: [] };
  if (pct > 0 && (found.length > 0 || related.length > 0))
    return { kind: 'some-words', words: found, related };
  if (match.sameCategory) return { kind: 'category', words: [], related: [] };
  return null;
}
