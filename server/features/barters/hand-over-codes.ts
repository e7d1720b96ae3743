import { timingSafeEqual } from 'node:crypto';
import QRCode from 'qrcode';
import { BARTER_STATUS_LABELS, roleOf } from '#common/barter-machine.ts';
import { BARTER_ERROR_CODES } from '#common/schemas/barters.ts';
import {
  HAND_OVER_CODE_ERROR_CODES,
  HAND_OVER_CODE_LOCK_MINUTES,
  HAND_OVER_CODE_MAX_WRONG,
  HAND_OVER_CODE_PARAM,
  type HandOverCode,
} from '#common/schemas/hand-over-codes.ts';
import type { Db } from '../../db/client';
import type { BarterRequestRow } from '../../db/schema/trading';
import { badRequest, conflict, HttpError } from '../../errors';
import { barterNotFound, completeBarter, otherMemberId } from './barters-service';
import {
  ensureCode,
  findCode,
  findRequestMembers,
  markCodeUsed,
  recordWrongEntry,
} from './hand-over-codes-repository';
import { lockRequest } from './requests-repository';

// Confirm on the spot (issue 30, ADR 075): each member of an accepted barter (a two-way barter, a
// circle's or a swap day's hand-over alike: all are barter requests) has a code; the other member
// entering it completes the hand-over through completeBarter, as the second "confirm" does.

type Member = { id: string };

const LOCK_MS = HAND_OVER_CODE_LOCK_MINUTES * 60_000;

/** Codes exist only while the hand-over is to happen (accepted); any other state: 409 with why. */
function notAccepted(status: string) {
  const was = BARTER_STATUS_LABELS[status as keyof typeof BARTER_STATUS_LABELS]?.toLowerCase() ?? status;
  return conflict(
    `Hand-over codes are for accepted barters; this one is ${was}.`,
    BARTER_ERROR_CODES.transition,
  );
}

const isMember = (row: Pick<BarterRequestRow, 'fromUserId' | 'toUserId'>, memberId: string) =>
  row.fromUserId === memberId || row.toUserId === memberId;

const sameCode = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * The member's own code for an accepted barter they take part in (made on first ask), the link to
 * the barter's page with it, and that link's QR as SVG; null when the barter is not accepted (no
 * code to show: a page that still thought it accepted reads the barter again). 404 for others.
 */
export async function myHandOverCode(
  db: Db,
  member: Member,
  id: number,
  publicUrl: string,
): Promise<HandOverCode | null> {
  const row = await findRequestMembers(db, id);
  if (!row || !isMember(row, member.id)) throw barterNotFound();
  if (row.status !== 'accepted') return null;
  const other = roleOf(row, member.id) === 'sender' ? row.toUserId : row.fromUserId;
  const { code } = await ensureCode(db, id, member.id, other);
  const link = `${publicUrl}/barters/${id}?${HAND_OVER_CODE_PARAM}=${code}`;
  const qrSvg = await QRCode.toString(link, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { code, link, qrSvg };
}

type Entry = { done: true } | { done: false; left: number; lockedUntil: Date | null };

function lockedError(until: Date, now: Date): HttpError {
  const seconds = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  const minutes = Math.ceil(seconds / 60);
  return new HttpError(
    429,
    HAND_OVER_CODE_ERROR_CODES.locked,
    `Too many wrong codes for this hand-over. You can enter a code again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}, or both confirm the exchange instead.`,
    { retryAfterSeconds: seconds },
  );
}

/**
 * The member enters the other member's code (already normalized): the right one completes the
 * hand-over at once (completeBarter). Locked with the request (FOR NO KEY UPDATE), so two members
 * entering each other's codes at once complete it once: the second finds it completed (409).
 * A wrong code is counted (and the count kept, the transaction committing) before its 400; the
 * fifth locks this member's code entry on this hand-over for HAND_OVER_CODE_LOCK_MINUTES (429).
 */
export async function enterHandOverCode(db: Db, member: Member, id: number, code: string): Promise<void> {
  const now = new Date();
  const entry = await db.transaction(async (tx): Promise<Entry> => {
    const row = await lockRequest(tx, id);
    if (!row || !isMember(row, member.id)) throw barterNotFound();
    if (row.status !== 'accepted') throw notAccepted(row.status);
    const otherId = otherMemberId(row, member.id);
    const mine = await ensureCode(tx, id, member.id, otherId);
    if (mine.entryLockedUntil !== null && mine.entryLockedUntil > now) {
      throw lockedError(mine.entryLockedUntil, now);
    }
    if (sameCode(mine.code, code)) {
      throw badRequest(
        'That is your own code: show it to them, and enter the code shown on their phone.',
        HAND_OVER_CODE_ERROR_CODES.own,
      );
    }
    const theirs = otherId === null ? null : await findCode(tx, id, otherId);
    if (theirs === null || theirs.usedAt !== null || !sameCode(theirs.code, code)) {
      const failed = mine.failedEntries + 1;
      const lockedUntil = failed >= HAND_OVER_CODE_MAX_WRONG ? new Date(now.getTime() + LOCK_MS) : null;
      await recordWrongEntry(tx, id, member.id, lockedUntil ? 0 : failed, lockedUntil);
      return { done: false, left: HAND_OVER_CODE_MAX_WRONG - failed, lockedUntil };
    }
    await markCodeUsed(tx, id, theirs.memberId, now);
    await recordWrongEntry(tx, id, member.id, 0, null);
    // Showing the code and entering it are both members' word that the exchange happened.
    const confirmed = {
      fromConfirmedAt: row.fromConfirmedAt ?? now,
      toConfirmedAt: row.toConfirmedAt ?? now,
    };
    await completeBarter(tx, row, member.id, confirmed, now);
    return { done: true };
  });
  if (entry.done) return;
  if (entry.lockedUntil) throw lockedError(entry.lockedUntil, now);
  // `reason` carries the tries left as a number, for a page to say so in its own language.
  throw new HttpError(
    400,
    HAND_OVER_CODE_ERROR_CODES.wrong,
    `That is not their code for this hand-over. ${entry.left} ${entry.left === 1 ? 'try' : 'tries'} left.`,
    { reason: String(entry.left) },
  );
}
