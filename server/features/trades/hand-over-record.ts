import { type SQL, sql } from 'drizzle-orm';
import { HAND_OVER_RECORD_MONTHS, NO_SHOW_ANSWER_HOURS } from '#common/schemas/no-shows.ts';

// The hand-over record, "Kept N of M hand-overs" (issue 30, ADR 079), counted over the last 12
// months at read time from barter_requests and no_show_reports, one scalar subquery per figure, so a
// page of cards reads it in its one statement (as the average rating).
//
// A hand-over counts once per barter:
// - missed: a report about the member that a moderator decided 'missed', or one left unanswered
//   for 48 hours on a barter that never completed;
// - kept: a completed barter (completion wins over an unanswered report: both were there), or a
//   report answered (disputed, until a moderator decides otherwise) or decided 'kept';
// missed wins over kept for the same barter; a 'dismissed' report counts nothing.

/** The barter ids, of the last 12 months, that count against and for `userId`. */
function recordSets(userId: SQL, now: Date) {
  const at = sql`${now.toISOString()}::timestamptz`;
  const since = sql`(${at} - make_interval(months => ${HAND_OVER_RECORD_MONTHS}::int))`;
  const answerDeadline = sql`(${at} - make_interval(hours => ${NO_SHOW_ANSWER_HOURS}::int))`;
  const completed = sql`SELECT br.id FROM barter_requests br
      WHERE br.from_user_id = ${userId} AND br.status = 'completed' AND br.updated_at >= ${since}
    UNION SELECT br.id FROM barter_requests br
      WHERE br.to_user_id = ${userId} AND br.status = 'completed' AND br.updated_at >= ${since}`;
  const keptByAnswer = sql`SELECT r.barter_request_id FROM no_show_reports r
      WHERE r.reported_id = ${userId} AND r.created_at >= ${since}
        AND (r.decision = 'kept' OR (r.decision IS NULL AND r.answered_at IS NOT NULL))`;
  const missed = sql`SELECT r.barter_request_id FROM no_show_reports r
      JOIN barter_requests rb ON rb.id = r.barter_request_id
      WHERE r.reported_id = ${userId} AND r.created_at >= ${since}
        AND (r.decision = 'missed'
          OR (r.decision IS NULL AND r.answered_at IS NULL AND r.created_at <= ${answerDeadline}
              AND rb.status <> 'completed'))`;
  return { completed, keptByAnswer, missed };
}

/**
 * The member's hand-over record as two scalar subqueries on the member id `userId` (an SQL
 * expression): `kept` and `due` (M: hand-overs whose window ended, completed or missed), both int.
 * For statements that show members (cards, member pages); served by the barter requests' user
 * indexes and `no_show_reports_reported_idx`.
 */
export function handOverRecordColumns(
  userId: SQL,
  now: Date = new Date(),
): { kept: SQL<number>; due: SQL<number> } {
  const { completed, keptByAnswer, missed } = recordSets(userId, now);
  return {
    kept: sql<number>`(SELECT count(*)::int FROM (${completed} UNION ${keptByAnswer} EXCEPT ${missed}) hk)`,
    due: sql<number>`(SELECT count(*)::int FROM (${completed} UNION ${keptByAnswer} UNION ${missed}) hd)`,
  };
}
