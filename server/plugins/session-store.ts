import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { sessions } from '../db/schema/sessions';
import { type UserRow, users } from '../db/schema/users';

/** What a session row's `sess` column holds. */
export interface SessionData {
  userId: string;
  /** Sign-in time in epoch milliseconds; the absolute lifetime counts from here. */
  createdAt: number;
  /** Browser and system in a few words at sign-in ("Chrome on Linux"), for the Account tab. */
  device?: string;
}

/** Store a new session under the hash of its id. */
export async function insertSession(db: Db, sid: string, data: SessionData, expire: Date): Promise<void> {
  await db.insert(sessions).values({ sid, sess: data, expire });
}

/** The unexpired session and its member, in one query (the user id lives in the session's JSON). */
export async function findSessionWithUser(
  db: Db,
  sid: string,
  now: Date,
): Promise<{ user: UserRow; sess: SessionData; expire: Date } | null> {
  const [row] = await db
    .select({ user: users, sess: sessions.sess, expire: sessions.expire })
    .from(sessions)
    .innerJoin(users, sql`${users.id} = (${sessions.sess}->>'userId')::uuid`)
    .where(and(eq(sessions.sid, sid), gt(sessions.expire, now)))
    .limit(1);
  return row ? { user: row.user, sess: row.sess as SessionData, expire: row.expire } : null;
}

/** Move a session's idle expiry. */
export async function touchSession(db: Db, sid: string, expire: Date): Promise<void> {
  await db.update(sessions).set({ expire }).where(eq(sessions.sid, sid));
}

export async function deleteSession(db: Db, sid: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.sid, sid));
}

/** Delete every expired session; returns how many went. */
export async function purgeExpiredSessions(db: Db, now: Date): Promise<number> {
  const deleted = await db.delete(sessions).where(lt(sessions.expire, now)).returning({ sid: sessions.sid });
  return deleted.length;
}

/** Which of these sessions (by hashed id) still exist unexpired; one query for any number. */
export async function liveSessionIds(db: Db, sids: readonly string[], now: Date): Promise<Set<string>> {
  if (sids.length === 0) return new Set();
  const rows = await db
    .select({ sid: sessions.sid })
    .from(sessions)
    .where(and(inArray(sessions.sid, [...sids]), gt(sessions.expire, now)));
  return new Set(rows.map((row) => row.sid));
}

/** A member's unexpired sessions, newest sign-in first (sessions_user_idx). */
export async function listUserSessions(
  db: Db,
  userId: string,
  now: Date,
): Promise<Array<{ sid: string; sess: SessionData; expire: Date }>> {
  const rows = await db
    .select({ sid: sessions.sid, sess: sessions.sess, expire: sessions.expire })
    .from(sessions)
    .where(and(sql`(${sessions.sess}->>'userId') = ${userId}`, gt(sessions.expire, now)));
  return rows
    .map((row) => ({ sid: row.sid, sess: row.sess as SessionData, expire: row.expire }))
    .sort((a, b) => b.sess.createdAt - a.sess.createdAt);
}

/**
 * End a member's sessions: all of them, or all but `keepSid`, or only `onlySid`. Returns the hashed
 * ids that went (the caller drops them from caches and closes their event streams).
 */
export async function deleteUserSessions(
  db: Db,
  userId: string,
  options: { keepSid?: string | null; onlySid?: string } = {},
): Promise<string[]> {
  const conditions = [sql`(${sessions.sess}->>'userId') = ${userId}`];
  if (options.keepSid) conditions.push(sql`${sessions.sid} <> ${options.keepSid}`);
  if (options.onlySid) conditions.push(eq(sessions.sid, options.onlySid));
  const deleted = await db
    .delete(sessions)
    .where(and(...conditions))
    .returning({ sid: sessions.sid });
  return deleted.map((row) => row.sid);
}
