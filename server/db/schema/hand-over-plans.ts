import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { publicSpots } from './public-spots';
import { barterRequests } from './trading';
import { users } from './users';

/**
 * The hand-over plan of one accepted barter (issue 30, ADR 077): a time window and a place, proposed
 * by one member and agreed by the other. One current plan per barter (its key is the barter), replaced
 * in place: `version` grows with every proposal, so an accept names the plan it accepts. Circles' and
 * swap days' hand-overs are barter requests, so one table serves all three.
 *
 * `placeName` is the place as typed; the public-spots step adds a nullable `spot_id` referencing the
 * moderators' list beside it (a spot's name is copied into `placeName`, so the plan reads the same if
 * the spot is later removed). The reminders step adds `reminded_day_at` / `reminded_hour_at` and
 * sweeps agreed plans by `starts_at` (the partial index below).
 */
export const handOverPlans = pgTable(
  'hand_over_plans',
  {
    barterRequestId: integer('barter_request_id')
      .primaryKey()
      .references(() => barterRequests.id, { onDelete: 'cascade' }),
    version: integer('version').notNull().default(1),
    /** Who proposed the current window and place (the other member answers). */
    proposedBy: uuid('proposed_by').references(() => users.id, { onDelete: 'set null' }),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    placeName: text('place_name').notNull(),
    /** The moderators' public spot chosen (ADR 080); its name is copied into placeName. */
    spotId: integer('spot_id').references(() => publicSpots.id, { onDelete: 'set null' }),
    /** When the other member accepted this version; null while it is only proposed. */
    agreedAt: timestamp('agreed_at', { withTimezone: true }),
    /** "I'm running late": by whom, how many minutes, when said (the latest one). */
    lateBy: uuid('late_by').references(() => users.id, { onDelete: 'set null' }),
    lateMinutes: smallint('late_minutes'),
    lateAt: timestamp('late_at', { withTimezone: true }),
    /**
     * When the 24-hour and the 1-hour reminders of this agreed plan went out (ADR 078): set in the
     * transaction that sends them, so each goes once; a new proposal (a reschedule) clears both.
     */
    remindedDayAt: timestamp('reminded_day_at', { withTimezone: true }),
    remindedHourAt: timestamp('reminded_hour_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('hand_over_plans_window', sql`${t.endsAt} > ${t.startsAt}`),
    check('hand_over_plans_place', sql`length(${t.placeName}) between 1 and 200`),
    check(
      'hand_over_plans_late_minutes',
      sql`${t.lateMinutes} is null or ${t.lateMinutes} in (5, 10, 15, 30)`,
    ),
    index('hand_over_plans_agreed_starts_idx').on(t.startsAt).where(sql`${t.agreedAt} IS NOT NULL`),
  ],
);

export type HandOverPlanRow = typeof handOverPlans.$inferSelect;
