import { type SQL, sql } from 'drizzle-orm';

/** SQL about an item that the lists of items (feeds, search, the match graph, saved items) share. */

/**
 * An item other members may see listed: active, and not reserved by an accepted barter (issue 13;
 * a reservation moves the listing version like an edit, migration 0010, so kept rankings drop it).
 */
export function listedItem(i = 'i'): SQL {
  return sql.raw(`${i}.is_active AND ${i}.reserved_by_request_id IS NULL`);
}

/**
 * The full-text document of an item: the stored, generated `search_vector` column (title weight A,
 * description B, category C), indexed by `items_active_search_vector_idx`.
 */
export function itemDocument(i = 'i'): SQL {
  return sql.raw(`${i}.search_vector`);
}
