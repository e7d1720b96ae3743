import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { barterRequests } from './trading';
import { users } from './users';

/**
 * "They didn't come" (issue 30, ADR 079): one member of an accepted barter says the other did not
 * come to the agreed hand-over window, once per side per plan version. The reported member may answer
 * within 48 hours ("I was there" / "We rescheduled", with a short note): an answered report is
 * disputed and waits for a moderator's `decision` ('kept', 'missed', 'dismissed'). A report left
 * unanswered for 48 hours counts as a missed hand-over at read time (the record query
 * compares `created_at` with the clock). On a circle's hand-over, a report settled as missed heals
 * the circle (ADR 081; `healed_at`, the no-show-settle job). The reporter is never shown to anyone
 * but moderators.
 */
export const noShowReports = pgTable(
  'no_show_reports',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    barterRequestId: integer('barter_request_id')
      .notNull()
      .references(() => barterRequests.id, { onDelete: 'cascade' }),
    /** The plan version whose window passed. */
    planVersion: integer('plan_version').notNull(),
    windowEndsAt: timestamp('window_ends_at', { withTimezone: true }).notNull(),
    reporterId: uuid('reporter_id').references(() => users.id, { onDelete: 'set null' }),
    reportedId: uuid('reported_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** 'was_there' or 'rescheduled', with the optional note; null while unanswered. */
    answer: text('answer', { enum: ['was_there', 'rescheduled'] }),
    answerNote: text('answer_note'),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    /** A moderator's decision on a disputed report: 'kept', 'missed' or 'dismissed'. */
    decision: text('decision', { enum: ['kept', 'missed', 'dismissed'] }),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    /**
     * When the report was settled as missed on a circle's hand-over and the circle healed (ADR 081):
     * unanswered for 48 hours (the no-show-settle job) or decided 'missed'. Set once: never twice.
     */
    healedAt: timestamp('healed_at', { withTimezone: true }),
  },
  (t) => [
    check('no_show_reports_answer', sql`${t.answer} is null or ${t.answer} in ('was_there', 'rescheduled')`),
    check(
      'no_show_reports_decision',
      sql`${t.decision} is null or ${t.decision} in ('kept', 'missed', 'dismissed')`,
    ),
    check('no_show_reports_note', sql`${t.answerNote} is null or length(${t.answerNote}) <= 280`),
    // Reporter null only after their account is gone; reported null likewise.
    uniqueIndex('no_show_reports_once').on(t.barterRequestId, t.reporterId, t.planVersion),
    // The record (Kept N of M) reads a member's reports of the last 12 months.
    index('no_show_reports_reported_idx').on(t.reportedId, t.createdAt),
    // The no-show-settle job: unanswered, undecided and not yet settled, oldest first.
    index('no_show_reports_unsettled_idx')
      .on(t.createdAt)
      .where(sql`${t.answer} IS NULL AND ${t.decision} IS NULL AND ${t.healedAt} IS NULL`),
    // The moderators' queue: answered, not decided.
    index('no_show_reports_disputed_idx')
      .on(t.answeredAt)
      .where(sql`${t.answer} IS NOT NULL AND ${t.decision} IS NULL`),
  ],
);

export type NoShowReportRow = typeof noShowReports.$inferSelect;

/**
 * "Confirm you'll be there" (ADR 079): a member with a poor hand-over record confirms, from 24 hours
 * before an agreed plan's window, that they will come; one row per member per plan version.
 */
export const handOverAttendance = pgTable(
  'hand_over_attendance',
  {
    barterRequestId: integer('barter_request_id')
      .notNull()
      .references(() => barterRequests.id, { onDelete: 'cascade' }),
    memberId: uuid('member_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    planVersion: integer('plan_version').notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.barterRequestId, t.memberId, t.planVersion] })],
);
