import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/rows';
import { publishMemberEvents } from '../../events/publish';
import type { PeriodicJob } from '../../jobs/jobs-plugin';
import { type NotifyInput, notifyMembers } from '../notifications';
import { barterEvents } from './barters-service';

// Reminders of an agreed hand-over plan (issue 30, ADR 078): 24 hours and 1 hour before the window
// starts, both members get a bell entry (with the other member, the place and the time), a 'barter'
// event, and (through the e-mail digest's own rules) a line in their next digest. Two-way barters,
// circles' and swap days' hand-overs alike: all are barter requests with a plan.

/** Plans reminded per transaction; a backlog is worked off batch by batch. */
export const REMINDER_BATCH = 200;

const HOUR_MS = 60 * 60 * 1000;

export const REMINDERS = {
  day: { column: 'reminded_day_at', kind: 'hand_over_reminder_day', ahead: 24 * HOUR_MS },
  hour: { column: 'reminded_hour_at', kind: 'hand_over_reminder_hour', ahead: HOUR_MS },
} as const;
export type ReminderName = keyof typeof REMINDERS;

interface Claimed {
  id: number;
  thread_id: number | null;
  from_user_id: string | null;
  to_user_id: string | null;
  starts_ms: number;
  place_name: string;
}

/**
 * Claim up to `batch` plans whose `name` reminder is due at `now` and mark it sent, in `tx`.
 *
 * Due: the barter is accepted, the plan agreed, its start still ahead and within `ahead` of now, and
 * it was agreed at least `ahead` before its start (a plan agreed 20 hours ahead gets no 24-hour
 * reminder; one agreed 30 minutes ahead gets none). The day reminder is no longer due once the hour
 * one is (a sweep that was away sends only the nearer one). The rows are locked FOR UPDATE SKIP
 * LOCKED and the column set in the same statement, so a sweep running beside another (or a reschedule
 * holding the row) never sends one twice: it skips the row, or re-reads it set.
 */
async function claimDue(tx: Db, name: ReminderName, now: Date, batch: number): Promise<Claimed[]> {
  const { column, ahead } = REMINDERS[name];
  const at = sql`${now.toISOString()}::timestamptz`;
  const aheadInterval = sql`make_interval(secs => ${ahead / 1000})`;
  const col = sql.raw(column);
  // The day reminder stops being due when the hour one starts to be.
  const notYetHour =
    name === 'day' ? sql`AND p.starts_at > ${at} + make_interval(secs => ${HOUR_MS / 1000})` : sql``;
  return queryRows<Claimed>(
    tx,
    sql`WITH due AS (
        SELECT p.barter_request_id FROM hand_over_plans p
        JOIN barter_requests r ON r.id = p.barter_request_id
        WHERE p.agreed_at IS NOT NULL AND p.${col} IS NULL
          AND p.starts_at > ${at} AND p.starts_at <= ${at} + ${aheadInterval}
          ${notYetHour}
          AND p.starts_at - p.agreed_at >= ${aheadInterval}
          AND r.status = 'accepted'
        ORDER BY p.starts_at
        LIMIT ${batch}
        FOR UPDATE OF p SKIP LOCKED)
      UPDATE hand_over_plans p SET ${col} = ${at}
      FROM due, barter_requests r
      WHERE p.barter_request_id = due.barter_request_id AND r.id = p.barter_request_id
        AND p.${col} IS NULL
      RETURNING p.barter_request_id AS id, r.thread_id, r.from_user_id::text AS from_user_id,
        r.to_user_id::text AS to_user_id, (extract(epoch FROM p.starts_at) * 1000)::float8 AS starts_ms,
        p.place_name`,
  );
}

/**
 * Send every reminder due at `now` (the 24-hour ones, then the 1-hour ones), a batch per transaction:
 * each member's bell entry names the other member (its actor) and carries the window's start and the
 * place as they stand; both members' pages hear a 'barter' event. Safe beside other processes running
 * it. How many plans were reminded, per reminder.
 */
export async function sendHandOverReminders(
  db: Db,
  now: Date = new Date(),
  batch = REMINDER_BATCH,
): Promise<Record<ReminderName, number>> {
  const sent: Record<ReminderName, number> = { day: 0, hour: 0 };
  for (const name of ['day', 'hour'] as const) {
    for (;;) {
      const count = await db.transaction(async (tx) => {
        const rows = await claimDue(tx, name, now, batch);
        const inputs: NotifyInput[] = [];
        for (const row of rows) {
          const handOver = { startsAt: new Date(Number(row.starts_ms)), place: row.place_name };
          const pairs: [string | null, string | null][] = [
            [row.from_user_id, row.to_user_id],
            [row.to_user_id, row.from_user_id],
          ];
          for (const [userId, otherId] of pairs) {
            if (!userId) continue;
            inputs.push({
              userId,
              kind: REMINDERS[name].kind,
              barterRequestId: row.id,
              actorId: otherId,
              handOver,
            });
          }
        }
        await notifyMembers(tx, inputs);
        await publishMemberEvents(
          tx,
          barterEvents(
            rows.map((row) => ({
              id: row.id,
              threadId: row.thread_id ?? row.id,
              fromUserId: row.from_user_id,
              toUserId: row.to_user_id,
            })),
          ),
        );
        return rows.length;
      });
      sent[name] += count;
      if (count < batch) break;
    }
  }
  return sent;
}

/**
 * Hand-over reminders every BARTER_EXPIRY_SWEEP_SECONDS (60 by default: a reminder goes within about
 * two minutes of its time on PostgreSQL, ADR 066's clock and poll), once across processes; off when
 * the setting is 0 (tests call `sendHandOverReminders` with their clock).
 */
export const handOverReminderJob: PeriodicJob = {
  name: 'hand-over-reminders',
  seconds: (config) => config.barterExpirySweepSeconds,
  run: async (app) => {
    const sent = await sendHandOverReminders(app.db);
    if (sent.day + sent.hour > 0) app.log.info(sent, 'sent hand-over reminders');
  },
};
