import { sql } from 'drizzle-orm';
import type { MemberEventType } from '#common/member-events.ts';
import type { Db } from '../db/client';
import { queryRows } from '../db/rows';
import { memberEvents } from '../db/schema/trading';

/** A stored event as a stream sends it. */
export interface StoredMemberEvent {
  id: number;
  userId: string;
  type: MemberEventType;
  data: unknown;
}

/** Where a member's stream stands: it has every event of theirs up to `after`. */
export interface EventCursor {
  userId: string;
  after: number;
}

/**
 * Each member's stored events after their cursor, in id order: at most `limit + 1` per member, so
 * a caller that gets more than `limit` for a member knows the gap is too large to replay. One
 * statement for any number of members (each one an index range scan on (user_id, id)).
 */
export async function readEventsAfter(
  db: Db,
  cursors: readonly EventCursor[],
  limit: number,
): Promise<StoredMemberEvent[]> {
  if (cursors.length === 0) return [];
  return queryRows<StoredMemberEvent>(
    db,
    sql`
    SELECT e.id::float8 AS id, e.user_id::text AS "userId", e.type, e.data
    FROM unnest(${sql.param(cursors.map((c) => c.userId))}::uuid[], ${sql.param(cursors.map((c) => c.after))}::bigint[]) AS c(user_id, after)
    CROSS JOIN LATERAL (
      SELECT m.id, m.user_id, m.type, m.data FROM ${memberEvents} m
      WHERE m.user_id = c.user_id AND m.id > c.after
      ORDER BY m.id
      LIMIT ${limit + 1}
    ) e
    ORDER BY e.id`,
  );
}

/**
 * Whether the event `id` is still stored. Retention deletes the oldest events first, so when a
 * page's last event is still there, nothing after it has been deleted.
 */
export async function eventIsStored(db: Db, id: number): Promise<boolean> {
  const [row] = await queryRows<{ stored: boolean }>(
    db,
    sql`SELECT EXISTS (SELECT 1 FROM ${memberEvents} WHERE ${memberEvents.id} = ${id}) AS stored`,
  );
  return row?.stored === true;
}

/** The newest event id of anyone (0 when none is stored): where a new stream starts. */
export async function latestEventId(db: Db): Promise<number> {
  const [row] = await queryRows<{ id: number }>(
    db,
    sql`SELECT coalesce(max(${memberEvents.id}), 0)::float8 AS id FROM ${memberEvents}`,
  );
  return Number(row?.id ?? 0);
}

/** Rows deleted per statement by deleteEventsBefore, so one purge never holds a long transaction. */
const PURGE_BATCH = 5_000;

/** Delete events made before `cutoff`, oldest first, in batches; returns how many went. */
export async function deleteEventsBefore(db: Db, cutoff: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const [row] = await queryRows<{ deleted: number }>(
      db,
      sql`
      WITH gone AS (
        DELETE FROM ${memberEvents} WHERE ${memberEvents.id} IN (
          SELECT ${memberEvents.id} FROM ${memberEvents}
          WHERE ${memberEvents.createdAt} < ${cutoff.toISOString()}::timestamptz
          ORDER BY ${memberEvents.createdAt}
          LIMIT ${PURGE_BATCH}
        )
        RETURNING 1
      )
      SELECT count(*)::int AS deleted FROM gone`,
    );
    const deleted = Number(row?.deleted ?? 0);
    total += deleted;
    if (deleted < PURGE_BATCH) return total;
  }
}
