import { sql } from 'drizzle-orm';
import { bigint, check, integer, pgTable } from 'drizzle-orm/pg-core';

/**
 * One row whose `version` moves on with every change that can reorder a feed: items and wants
 * written, a member's location set (statement-level triggers, migration 0006). Feed rankings kept
 * in memory (ADR 012) are used only while the version they were made at is still current, whoever
 * made the change: this server, another one on the same database, a script or a test.
 */
export const listingChanges = pgTable(
  'listing_changes',
  {
    id: integer('id').primaryKey(),
    version: bigint('version', { mode: 'number' }).notNull().default(0),
  },
  (t) => [check('listing_changes_one_row', sql`${t.id} = 1`)],
);
