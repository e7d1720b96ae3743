import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { queryPrepared } from '../../db/prepared';
import { TRIGRAM_CANDIDATE_SIMILARITY } from '../../db/session-settings';
import { itemDocument } from '../items';

/**
 * Search text, resolved once per ranking (ADR 023). The text is a web-search query (quoted phrases,
 * OR, -exclusions: websearch_to_tsquery) over an item's title, description and category. A word no
 * listed item has is corrected to the listed words spelt nearest to it (at most
 * NEAR_SPELLINGS_PER_WORD, pg_trgm word similarity over the vocabulary `search_words`), so "dril"
 * finds drills; one of TWO_EDITS_FROM letters or more also to those within two edits ("gitar" finds
 * guitars, "tunup" a tune-up); a word some listing has is taken as typed.
 */
export interface Search {
  /** The text as typed (trimmed). */
  q: string;
  /** Lexemes no listed item has, each with the near spellings that replace it (ts_rewrite). */
  corrections: Array<[string, string[]]>;
  /**
   * The words every match holds at least one of (after corrections): those outside any exclusion.
   * A page walks their postings (search_postings) instead of every item the text index finds.
   */
  anchors: string[];
  /**
   * The query matches an item with none of its words (only exclusions, as "-drill"): its postings
   * cannot find every match, so the page reads the text index instead.
   */
  matchesEmpty: boolean;
  /** The query holds a phrase ("power drill"): word order matters, so presence alone does not decide. */
  phrase: boolean;
  /** One word, no operators (after corrections, one of its near spellings): a posting is a match. */
  single: boolean;
  /** No words at all (only stop words such as "the"): nothing matches. */
  empty: boolean;
}

/** How many listed words may stand in for a search word no listing has. */
export const NEAR_SPELLINGS_PER_WORD = 3;

/**
 * A word of this many letters or more (as the dictionary reduces it: its lexeme) is corrected to
 * listed words up to two edits away; a shorter one as before, by trigram word similarity alone
 * (ADR 085, addendum on typo tolerance).
 */
export const TWO_EDITS_FROM = 5;

/**
 * How many listed words, the nearest by trigram similarity (pg_trgm's similarity() of
 * TRIGRAM_CANDIDATE_SIMILARITY or more, within two letters of its length), are measured by edit
 * distance for a word of TWO_EDITS_FROM letters or more no listing has: the bound on the work per
 * unknown word. The vocabulary's trigram index finds them through `<<%` (strict word similarity, at
 * least the similarity, at the same threshold: server/db/session-settings.ts), so the vocabulary is
 * not scored word by word (ADR 128). (The `%` operator gave wrong rows and then stalled PGlite.)
 */
const EDIT_CANDIDATES_PER_WORD = 20;

/** Edits and letters beyond which a distance is not worth finishing. */
const MAX_EDITS = 2;
const MAX_MEASURED_LENGTH = 40;

/**
 * The optimal-string-alignment distance (Damerau-Levenshtein where a swap of two neighbouring
 * letters is one edit, as "gutiar" for guitar) between two words, or `limit + 1` once it must exceed
 * `limit`. Words longer than MAX_MEASURED_LENGTH are never near anything.
 */
export function editDistance(a: string, b: string, limit = MAX_EDITS): number {
  const over = limit + 1;
  if (a === b) return 0;
  if (a.length > MAX_MEASURED_LENGTH || b.length > MAX_MEASURED_LENGTH) return over;
  if (Math.abs(a.length - b.length) > limit) return over;
  const x = [...a];
  const y = [...b];
  let before: number[] = [];
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let value = Math.min(
        (previous[j] ?? over) + 1,
        (current[j - 1] ?? over) + 1,
        (previous[j - 1] ?? over) + cost,
      );
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) {
        value = Math.min(value, (before[j - 2] ?? over) + 1);
      }
      current[j] = value;
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return over;
    before = previous;
    previous = current;
  }
  return Math.min(previous[y.length] ?? over, over);
}

/**
 * The listed words that stand in for a word no listing has. A word shorter than TWO_EDITS_FROM keeps
 * the trigram picks (`near`, as before). A longer one puts first the candidates within two edits,
 * nearest first, a hyphenated word measured as well without its hyphens (so "tuneup" and "tunup"
 * reach "tune-up"); then the trigram picks; at most NEAR_SPELLINGS_PER_WORD.
 */
export function nearSpellings(lexeme: string, near: string[], candidates: string[]): string[] {
  if ([...lexeme].length < TWO_EDITS_FROM) return near.slice(0, NEAR_SPELLINGS_PER_WORD);
  const measured = [...new Set([...near, ...candidates])]
    .filter((word) => word !== lexeme)
    .map((word, order) => ({
      word,
      order,
      distance: Math.min(editDistance(lexeme, word), editDistance(lexeme, word.replace(/-/g, ''))),
    }))
    .filter((entry) => entry.distance <= MAX_EDITS)
    .sort((p, q) => p.distance - q.distance || p.order - q.order)
    .map((entry) => entry.word);
  return [...new Set([...measured, ...near])].slice(0, NEAR_SPELLINGS_PER_WORD);
}

/** The lexemes of a tsquery's text form ('drill' & !'cordless'): quoted, '' and \\ escaped. */
function lexemesOf(queryText: string): string[] {
  const found = new Set<string>();
  for (const match of queryText.matchAll(/'((?:[^'\\]|''|\\.)*)'/g)) {
    found.add((match[1] ?? '').replace(/''/g, "'").replace(/\\(.)/g, '$1'));
  }
  return [...found];
}

/** A tsquery literal: the words, OR'd, each quoted as tsquery input wants. */
function tsqueryOf(lexemes: string[]): string {
  return lexemes.map((lexeme) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`).join(' | ');
}

/**
 * The statement that resolves search text (trimmed): its tsquery, the part outside exclusions, whether
 * it matches an empty document, and its words no listed item has, each with its trigram picks and
 * its candidates for the two-edit measure (both found through the vocabulary's trigram index).
 */
export function resolveSearchQuery(text: string): SQL {
  return sql`SELECT t.query::text AS query, querytree(t.query) AS positive, (''::tsvector @@ t.query) AS matches_empty,
      (SELECT coalesce(json_agg(json_build_array(w.lexeme, ARRAY(
          SELECT s.lexeme FROM search_words s
          WHERE w.lexeme <% s.lexeme AND s.lexeme <> w.lexeme
            AND (EXISTS (SELECT 1 FROM search_postings p WHERE p.lexeme = s.lexeme AND p.in_title)
              OR EXISTS (SELECT 1 FROM search_postings p WHERE p.lexeme = s.lexeme AND NOT p.in_title))
          ORDER BY word_similarity(w.lexeme, s.lexeme) DESC, similarity(w.lexeme, s.lexeme) DESC, s.lexeme
          LIMIT ${NEAR_SPELLINGS_PER_WORD}::int), ARRAY(
          SELECT s.lexeme FROM search_words s
          WHERE length(w.lexeme) >= ${TWO_EDITS_FROM}::int AND w.lexeme <<% s.lexeme
            AND similarity(w.lexeme, s.lexeme) >= ${TRIGRAM_CANDIDATE_SIMILARITY}::real AND s.lexeme <> w.lexeme
            AND abs(length(replace(s.lexeme, '-', '')) - length(w.lexeme)) <= 2
            AND (EXISTS (SELECT 1 FROM search_postings p WHERE p.lexeme = s.lexeme AND p.in_title)
              OR EXISTS (SELECT 1 FROM search_postings p WHERE p.lexeme = s.lexeme AND NOT p.in_title))
          ORDER BY similarity(w.lexeme, s.lexeme) DESC, s.lexeme
          LIMIT ${EDIT_CANDIDATES_PER_WORD}::int))), '[]')::text
        FROM unnest(tsvector_to_array(to_tsvector('english', ${text}::text))) w(lexeme)
        WHERE NOT EXISTS (SELECT 1 FROM search_postings p WHERE p.lexeme = w.lexeme AND p.in_title)
          AND NOT EXISTS (SELECT 1 FROM search_postings p WHERE p.lexeme = w.lexeme AND NOT p.in_title)
      ) AS unknown
    FROM (SELECT websearch_to_tsquery('english', ${text}::text) AS query) t`;
}

/**
 * Resolve search text: its words, which of them no listed item has and their near spellings, and
 * how a page can find its matches. One short statement: the query, an index probe per word, and a
 * trigram probe of the vocabulary for each unknown one.
 */
export async function resolveSearch(db: Db, q: string): Promise<Search> {
  const text = q.trim();
  // The same text for every search: prepared once per connection on PostgreSQL.
  const [parsed] = await queryPrepared<{
    query: string;
    positive: string;
    matches_empty: boolean;
    unknown: string;
  }>(db, resolveSearchQuery(text));
  const queryText = parsed?.query ?? '';
  const words = lexemesOf(queryText);
  const base = {
    q: text,
    matchesEmpty: parsed?.matches_empty ?? false,
    phrase: /<\d*-?>/.test(queryText.replace(/'(?:[^'\\]|''|\\.)*'/g, '')),
  };
  if (words.length === 0) {
    return { ...base, corrections: [], anchors: [], single: false, empty: true };
  }
  // The query's words no listed item has (its lexemes are the text's own), with their near spellings.
  const rows = (JSON.parse(parsed?.unknown ?? '[]') as Array<[string, string[] | null, string[] | null]>).map(
    ([lexeme, near, candidates]) => ({ lexeme, near: nearSpellings(lexeme, near ?? [], candidates ?? []) }),
  );
  const corrections = rows.flatMap(
    (row): Array<[string, string[]]> => (row.near && row.near.length > 0 ? [[row.lexeme, row.near]] : []),
  );
  const replaced = new Map(corrections);
  const anchors = [
    ...new Set(lexemesOf(parsed?.positive ?? '').flatMap((word) => replaced.get(word) ?? [word])),
  ];
  const single =
    words.length === 1 && !base.phrase && !/!/.test(queryText.replace(/'(?:[^'\\]|''|\\.)*'/g, ''));
  return { ...base, corrections, anchors, single, empty: false };
}

/** The search as a tsquery: the web-search query with each correction written in (ts_rewrite). */
export function searchQuery(search: Search): SQL {
  let query = sql`websearch_to_tsquery('english', ${search.q}::text)`;
  for (const [lexeme, near] of search.corrections) {
    query = sql`ts_rewrite(${query}, ${tsqueryOf([lexeme])}::tsquery, ${tsqueryOf(near)}::tsquery)`;
  }
  return query;
}

/** The title part of an item's full-text document (itemDocument, weight A). */
const titleOf = (i: string) => sql.raw(`ts_filter(${i}.search_vector, '{a}')`);

/** The search found in items `i`: its title, description or category. */
export function searchMatch(search: Search, i = 'i'): SQL {
  return sql`(${itemDocument(i)} @@ ${searchQuery(search)})`;
}

/** 1 when the search is found in the title itself (those come first), else 0; for matching rows. */
export function searchTier(search: Search, i = 'i'): SQL {
  return sql`(CASE WHEN ${titleOf(i)} @@ ${searchQuery(search)} THEN 1 ELSE 0 END)`;
}

/**
 * A search can walk postings: it has words every match holds one of. Otherwise (only exclusions)
 * the text index decides.
 */
export function walksPostings(search: Search): boolean {
  return !search.empty && !search.matchesEmpty && search.anchors.length > 0;
}

/**
 * The walks that find every match of a search, tier by tier (ADR 023), each over one partial index
 * of search_postings for each anchor:
 *  - tier 1 (found in the title): title postings; a title the query matches holds an anchor;
 *  - tier 0 (found elsewhere only): postings outside the title; without phrases an item the query
 *    matches whose title it does not holds an anchor outside its title; with a phrase, title
 *    postings too (the words may all be in the title, in another order).
 * `check` is what the item must satisfy beyond holding the anchor; none for one plain word, whose
 * posting is the match.
 */
export interface PostingWalk {
  /** Title postings, or the rest. */
  inTitle: boolean;
  tier: 0 | 1;
  /** What the item must satisfy beyond holding the anchor (null: nothing). */
  check: SQL | null;
}

export function postingWalks(search: Search, i = 'i'): PostingWalk[] {
  // A scalar subquery: the query is built once per statement, not once per row checked.
  const query = sql`(SELECT ${searchQuery(search)})`;
  const inDocument = sql`${itemDocument(i)} @@ ${query}`;
  const inTitle = sql`${titleOf(i)} @@ ${query}`;
  const titleCheck = search.single ? null : sql`${inDocument} AND ${inTitle}`;
  const elsewhereCheck = search.single ? null : sql`${inDocument} AND NOT (${inTitle})`;
  const walks: PostingWalk[] = [
    { inTitle: true, tier: 1, check: titleCheck },
    { inTitle: false, tier: 0, check: elsewhereCheck },
  ];
  if (search.phrase) walks.push({ inTitle: true, tier: 0, check: elsewhereCheck });
  return walks;
}
