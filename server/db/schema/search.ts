import { sql } from 'drizzle-orm';
import { boolean, index, integer, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Search postings (ADR 023): one row per (listed item, word of its title, description or category),
 * the word as the full-text lexeme of `items.search_vector`, kept by triggers on items in the
 * writer's own transaction (migration 0012). A search walks the postings of its words newest first
 * (title hits, then the rest) through an index that stops after the page, instead of ranking every
 * item the text index finds. Only listed items (active, not reserved) have postings.
 */
export const searchPostings = pgTable(
  'search_postings',
  {
    lexeme: text('lexeme').notNull(),
    itemId: integer('item_id').notNull(),
    /** The word is in the title (weight A of the item's search_vector). */
    inTitle: boolean('in_title').notNull(),
    /** The item's owner (a member never finds their own items), creation time and value. */
    userId: uuid('user_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    value: numeric('value', { precision: 10, scale: 2, mode: 'number' }),
    /** The item's copy of its owner's PUBLIC point (never the exact one), for the radius. */
    latitude: numeric('latitude', { precision: 10, scale: 8, mode: 'number' }),
    longitude: numeric('longitude', { precision: 11, scale: 8, mode: 'number' }),
  },
  (t) => [
    // Newest first per word, title hits and the rest apart; the radius and owner are tested on
    // the index entry itself (index-only scans), so only entries within the radius reach the item.
    index('search_postings_title_recent_idx')
      .on(t.lexeme, t.createdAt.desc().nullsLast(), t.itemId.desc().nullsLast())
      .where(sql`${t.inTitle}`),
    index('search_postings_other_recent_idx')
      .on(t.lexeme, t.createdAt.desc().nullsLast(), t.itemId.desc().nullsLast())
      .where(sql`NOT ${t.inTitle}`),
    index('search_postings_item_idx').on(t.itemId),
  ],
);

/**
 * Every word (lexeme) ever listed, for correcting a search word no listing has to its near
 * spellings (pg_trgm word similarity). Insert-only, written by the same triggers.
 */
export const searchWords = pgTable(
  'search_words',
  {
    lexeme: text('lexeme').primaryKey(),
  },
  (t) => [index('search_words_trgm_idx').using('gin', t.lexeme.op('gin_trgm_ops'))],
);
