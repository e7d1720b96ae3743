import { inArray, sql } from 'drizzle-orm';
import type { MemberEventType } from '#common/member-events.ts';
import type { MemberEventData } from '#common/schemas/events.ts';
import type { Db } from '../db/client';
import { memberEvents } from '../db/schema/trading';

/** The LISTEN/NOTIFY channel every server process listens on (server/events/README.md). */
export const MEMBER_EVENTS_CHANNEL = 'member_events';

/** NOTIFY payloads must stay under 8000 bytes; larger events travel by id only and are read back. */
export const NOTIFY_PAYLOAD_MAX_BYTES = 7_500;

export interface NewMemberEvent<T extends MemberEventType = MemberEventType> {
  userId: string;
  type: T;
  data: MemberEventData<T>;
}

/** A stored event as the NOTIFY payload carries it; `data` is left out when it would not fit. */
export interface MemberEventNotice {
  id: number;
  userId: string;
  type: MemberEventType;
  data?: unknown;
}

/** Build an event with its type checked against its data. */
export function memberEvent<T extends MemberEventType>(
  userId: string,
  type: T,
  data: MemberEventData<T>,
): NewMemberEvent<T> {
  return { userId, type, data };
}

/**
 * Store events for members' open pages and announce them on MEMBER_EVENTS_CHANNEL. Call it with the
 * transaction that makes the change: PostgreSQL (and PGlite) deliver a NOTIFY only when that
 * transaction commits, so a page never hears of a change that was rolled back, and every server
 * process on the database hears of it, this one included.
 */
export async function publishMemberEvents(db: Db, events: readonly NewMemberEvent[]): Promise<number[]> {
  if (events.length === 0) return [];
  const rows = await db
    .insert(memberEvents)
    .values(events.map((event) => ({ userId: event.userId, type: event.type, data: event.data })))
    .returning({ id: memberEvents.id });
  const payloads = rows.map((row, index) => {
    const event = events[index] as NewMemberEvent;
    const notice: MemberEventNotice = {
      id: row.id,
      userId: event.userId,
      type: event.type,
      data: event.data,
    };
    const full = JSON.stringify(notice);
    if (Buffer.byteLength(full) <= NOTIFY_PAYLOAD_MAX_BYTES) return full;
    return JSON.stringify({ id: row.id, userId: event.userId, type: event.type } satisfies MemberEventNotice);
  });
  await db.execute(
    sql`SELECT pg_notify(${MEMBER_EVENTS_CHANNEL}, payload) FROM unnest(${sql.param(payloads)}::text[]) AS payload`,
  );
  return rows.map((row) => row.id);
}

/** Read stored events by id (for notices that came without their data). */
export async function readMemberEvents(db: Db, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(memberEvents)
    .where(inArray(memberEvents.id, [...ids]));
}
