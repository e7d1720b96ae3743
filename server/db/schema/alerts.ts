import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { ITEM_CONDITIONS } from '#common/schemas/listings.ts';
import { items, notifications, wants } from './trading';
import { users } from './users';

/**
 * A member's saved searches (issue 31, ADR 084): a feed's filter as it was when saved (the feed, the
 * search text, the radius, the condition: ADR 089), with a name. A new listing that matches one
 * alerts its member.
 */
export const savedSearches = pgTable(
  'saved_searches',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    feed: text('feed').notNull(),
    /** The search text; null: every new listing within the radius. */
    q: text('q'),
    radiusMiles: integer('radius_miles').notNull(),
    /** Goods in this condition or better (ADR 082's filter, ADR 089); null: any item. */
    condition: text('condition', { enum: ITEM_CONDITIONS }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('saved_searches_user_idx').on(t.userId, t.id.desc()),
    check('saved_searches_name', sql`length(${t.name}) between 1 and 60`),
    check(
      'saved_searches_condition',
      sql`${t.condition} IS NULL OR ${t.condition} IN ('new', 'like-new', 'good', 'fair', 'for-parts')`,
    ),
  ],
);

/**
 * A new listing's alerts, sent in waves (ADR 084): when the next wave is due, how many went, and when
 * the alerts stopped (everyone told, or the item reserved or removed).
 */
export const listingAlertRuns = pgTable(
  'listing_alert_runs',
  {
    itemId: integer('item_id')
      .primaryKey()
      .references(() => items.id, { onDelete: 'cascade' }),
    /** When the item was listed: the waves count from it. */
    listedAt: timestamp('listed_at', { withTimezone: true }).notNull(),
    /** Waves sent so far (0 until the first). */
    wavesSent: smallint('waves_sent').notNull().default(0),
    nextAt: timestamp('next_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('listing_alert_runs_due_idx').on(t.nextAt).where(sql`${t.finishedAt} IS NULL`)],
);

/** Who was alerted to a new listing, in which wave and why (the bell's entry reads it). */
export const listingAlerts = pgTable(
  'listing_alerts',
  {
    itemId: integer('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    memberId: uuid('member_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    notificationId: integer('notification_id').references(() => notifications.id, { onDelete: 'cascade' }),
    wave: smallint('wave').notNull(),
    /** What it matched: the saved search's name or the want's title, as they were. */
    matched: text('matched').notNull(),
    savedSearchId: integer('saved_search_id').references(() => savedSearches.id, { onDelete: 'set null' }),
    wantId: integer('want_id').references(() => wants.id, { onDelete: 'set null' }),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.itemId, t.memberId] }),
    index('listing_alerts_notification_idx').on(t.notificationId),
    index('listing_alerts_member_idx').on(t.memberId),
  ],
);

export type SavedSearchRow = typeof savedSearches.$inferSelect;
