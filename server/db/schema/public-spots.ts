import { sql } from 'drizzle-orm';
import { check, doublePrecision, index, pgTable, serial, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * Public spots for hand-overs, kept by moderators per area (issue 30, ADR 080): a library, a station,
 * a café, a police "safe trade" spot. Each carries its source (a URL or a citation), who added it and
 * when; the position is a place chosen through the place search, never typed in. Removing a spot sets
 * `removed_at` (plans that chose it keep its name in `hand_over_plans.place_name`); a removed spot is
 * no longer offered nor accepted in a new plan.
 */
export const publicSpots = pgTable(
  'public_spots',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    kind: text('kind').notNull(),
    /** The town the spot is in (the nearest town to its position, named when it was added). */
    areaName: text('area_name').notNull(),
    /** The place the moderator chose in the place search, as it read. */
    placeName: text('place_name').notNull(),
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
    source: text('source').notNull(),
    addedBy: uuid('added_by').references(() => users.id, { onDelete: 'set null' }),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
    removedBy: uuid('removed_by').references(() => users.id, { onDelete: 'set null' }),
    removedAt: timestamp('removed_at', { withTimezone: true }),
  },
  (t) => [
    check(
      'public_spots_kind',
      sql`${t.kind} in ('library', 'station', 'cafe', 'police_safe_trade', 'other')`,
    ),
    check('public_spots_name', sql`length(${t.name}) between 1 and 120`),
    check('public_spots_source', sql`length(${t.source}) between 1 and 500`),
    check(
      'public_spots_position',
      sql`${t.latitude} between -90 and 90 and ${t.longitude} between -180 and 180`,
    ),
    index('public_spots_live_lat_idx').on(t.latitude, t.longitude).where(sql`${t.removedAt} IS NULL`),
  ],
);

export type PublicSpotRow = typeof publicSpots.$inferSelect;
