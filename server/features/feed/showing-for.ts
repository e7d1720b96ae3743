import { sql } from 'drizzle-orm';
import { textArray } from '../../db/arrays';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/rows';
import { resolveSearch } from './search';

/**
 * "Showing results for guitar" (issue 31, ADR 089): the search text as the feed's search reads it,
 * each word no listing has replaced by its first near spelling (resolveSearch, ADR 085's addendum),
 * written as a listed title spells it ("tune-up", "bicycle", never the lexeme "bicycl"). Null when
 * nothing was corrected. The search's own statement and one more: the typed words' lexemes and, per
 * corrected word, the first title word holding it (search_postings by lexeme, stopping at one).
 */
export async function showingFor(db: Db, q: string): Promise<string | null> {
  const search = await resolveSearch(db, q);
  if (search.empty || search.corrections.length === 0) return null;
  const corrected = new Map(
    search.corrections.flatMap(([lexeme, near]) => (near[0] ? [[lexeme, near[0]]] : [])),
  );
  if (corrected.size === 0) return null;
  const [row] = await queryRows<{ typed: string; spelt: string }>(
    db,
    sql`SELECT (SELECT coalesce(json_agg(json_build_array(x.word, tsvector_to_array(to_tsvector('english', x.word))) ORDER BY x.n), '[]')
          FROM regexp_split_to_table(${search.q}::text, '\\s+') WITH ORDINALITY x(word, n))::text AS typed,
        (SELECT coalesce(json_object_agg(c.lexeme, coalesce((
            SELECT lower(w.word) FROM search_postings p JOIN items i ON i.id = p.item_id
              CROSS JOIN LATERAL regexp_split_to_table(i.title, '[^[:alnum:]''-]+') w(word)
            WHERE p.lexeme = c.lexeme AND p.in_title AND w.word <> ''
              AND c.lexeme = ANY(tsvector_to_array(to_tsvector('english', w.word)))
            LIMIT 1), c.lexeme)), '{}')
          FROM unnest(${textArray([...corrected.values()])}::text[]) c(lexeme))::text AS spelt`,
  );
  const typed = JSON.parse(row?.typed ?? '[]') as Array<[string, string[]]>;
  const spelt = JSON.parse(row?.spelt ?? '{}') as Record<string, string>;
  let changed = false;
  const words = typed.map(([word, lexemes]) => {
    const near = lexemes.map((lexeme) => corrected.get(lexeme)).find((value) => value !== undefined);
    if (near === undefined) return word;
    changed = true;
    return spelt[near] ?? near;
  });
  return changed ? words.join(' ') : null;
}
