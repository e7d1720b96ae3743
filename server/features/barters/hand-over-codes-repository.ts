import { randomInt } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { HAND_OVER_CODE_ALPHABET, HAND_OVER_CODE_LENGTH } from '#common/schemas/hand-over-codes.ts';
import type { Db } from '../../db/client';
import { type HandOverCodeRow, handOverCodes } from '../../db/schema/hand-over-codes';
import { type BarterRequestRow, barterRequests } from '../../db/schema/trading';

// Hand-over codes (issue 30, ADR 075): one row per member of an accepted barter, made the first time
// they ask for their code (or enter the other's).

/** Six characters of the alphabet, each drawn with the system's cryptographic randomness. */
export function newHandOverCode(): string {
  let code = '';
  for (let i = 0; i < HAND_OVER_CODE_LENGTH; i++) {
    code += HAND_OVER_CODE_ALPHABET[randomInt(HAND_OVER_CODE_ALPHABET.length)];
  }
  return code;
}

/** A request's members and status, read without locks (the code's reader). */
export async function findRequestMembers(
  db: Db,
  id: number,
): Promise<Pick<BarterRequestRow, 'id' | 'status' | 'fromUserId' | 'toUserId'> | null> {
  const [row] = await db
    .select({
      id: barterRequests.id,
      status: barterRequests.status,
      fromUserId: barterRequests.fromUserId,
      toUserId: barterRequests.toUserId,
    })
    .from(barterRequests)
    .where(eq(barterRequests.id, id));
  return row ?? null;
}

/** A member's code row for a request, if made. */
export async function findCode(db: Db, requestId: number, memberId: string): Promise<HandOverCodeRow | null> {
  const [row] = await db
    .select()
    .from(handOverCodes)
    .where(and(eq(handOverCodes.barterRequestId, requestId), eq(handOverCodes.memberId, memberId)));
  return row ?? null;
}

/**
 * The member's code row for a request, made now if they have none: a fresh code, never the same as
 * the other member's (which would make "enter their code" mean nothing). Two first reads at once
 * keep the one stored first.
 */
export async function ensureCode(
  db: Db,
  requestId: number,
  memberId: string,
  otherId: string | null,
): Promise<HandOverCodeRow> {
  const existing = await findCode(db, requestId, memberId);
  if (existing) return existing;
  const theirs = otherId === null ? null : await findCode(db, requestId, otherId);
  let code = newHandOverCode();
  while (code === theirs?.code) code = newHandOverCode();
  await db.insert(handOverCodes).values({ barterRequestId: requestId, memberId, code }).onConflictDoNothing();
  const stored = await findCode(db, requestId, memberId);
  if (!stored) throw new Error(`hand-over code of request ${requestId} not stored`);
  return stored;
}

/** Count a wrong code the member entered; `lockedUntil` set starts the count again after the lock. */
export async function recordWrongEntry(
  db: Db,
  requestId: number,
  memberId: string,
  failedEntries: number,
  lockedUntil: Date | null,
): Promise<void> {
  await db
    .update(handOverCodes)
    .set({ failedEntries, entryLockedUntil: lockedUntil })
    .where(and(eq(handOverCodes.barterRequestId, requestId), eq(handOverCodes.memberId, memberId)));
}

/** The other member's code was entered: it is used, and can complete nothing again. */
export async function markCodeUsed(db: Db, requestId: number, ownerId: string, now: Date): Promise<void> {
  await db
    .update(handOverCodes)
    .set({ usedAt: now })
    .where(and(eq(handOverCodes.barterRequestId, requestId), eq(handOverCodes.memberId, ownerId)));
}
