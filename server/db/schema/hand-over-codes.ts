import { sql } from 'drizzle-orm';
import { check, integer, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { barterRequests } from './trading';
import { users } from './users';

/**
 * A member's hand-over code for one accepted barter (issue 30, ADR 075): six characters shown on
 * their barter page (and as a QR); the other member entering it completes the hand-over on the spot.
 * One row per side, made when the member first asks for their code. `failedEntries` and
 * `entryLockedUntil` count the wrong codes this member entered on this hand-over (five lock their
 * entry for a while); `usedAt` is when the other member entered this code.
 */
export const handOverCodes = pgTable(
  'hand_over_codes',
  {
    barterRequestId: integer('barter_request_id')
      .notNull()
      .references(() => barterRequests.id, { onDelete: 'cascade' }),
    memberId: uuid('member_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    failedEntries: smallint('failed_entries').notNull().default(0),
    entryLockedUntil: timestamp('entry_locked_until', { withTimezone: true }),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.barterRequestId, t.memberId] }),
    check('hand_over_codes_code_shape', sql`${t.code} ~ '^[A-HJ-NP-Z2-9]{6}$'`),
    check('hand_over_codes_failed_entries_range', sql`${t.failedEntries} >= 0`),
  ],
);

export type HandOverCodeRow = typeof handOverCodes.$inferSelect;
