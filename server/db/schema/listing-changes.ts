import { sql } from 'drizzle-orm';
import { bigint, check, integer, pgTable } from 'drizzle-orm/pg-core';

/**
 * One row of counters the database moves on by itself (triggers, migrations 0006 and 0008), so
 * what a server keeps in memory for the feeds (ADR 012) is used only while it is current, whoever
 * made the change: this server, another one on the same database, a script or a test.
 *
 * - `version`: every change that can reorder a feed (items and wants written, a member moving);
 *   kept rankings are made at one.
 * - `cardVersion`: every change that can alter what a feed card shows (the above, and photos,
 *   owners' names and pictures, ratings and trades); kept cards are read at one.
 */
export const listingChanges = pgTable(
  'listing_changes',
  {
    id: integer('id').primaryKey(),
    version: bigint('version', { mode: 'number' }).notNull().default(0),
    cardVersion: bigint('card_version', { mode: 'number' }).notNull().default(0),
  },
  (t) => [check('listing_changes_one_row', sql`${t.id} = 1`)],
);
