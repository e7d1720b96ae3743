import { asc, eq, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { handOverCodes } from '../../db/schema/hand-over-codes';
import { handOverPlans } from '../../db/schema/hand-over-plans';
import { barterRequests } from '../../db/schema/trading';

/**
 * A member's hand-overs in their data export (ADR 025, 078): their own hand-over codes (never the
 * other member's: each side's code is shown only to its owner) and the plans of their barters, with
 * "me" or "the other member" for who proposed or ran late (other members appear by id elsewhere).
 */
export async function exportHandOversOf(db: Db, memberId: string) {
  const codes = await db
    .select({
      barterRequestId: handOverCodes.barterRequestId,
      code: handOverCodes.code,
      createdAt: handOverCodes.createdAt,
      usedAt: handOverCodes.usedAt,
      wrongCodesEntered: handOverCodes.failedEntries,
      entryLockedUntil: handOverCodes.entryLockedUntil,
    })
    .from(handOverCodes)
    .where(eq(handOverCodes.memberId, memberId))
    .orderBy(asc(handOverCodes.barterRequestId));
  const plans = await db
    .select({ plan: handOverPlans })
    .from(handOverPlans)
    .innerJoin(barterRequests, eq(barterRequests.id, handOverPlans.barterRequestId))
    .where(or(eq(barterRequests.fromUserId, memberId), eq(barterRequests.toUserId, memberId)))
    .orderBy(asc(handOverPlans.barterRequestId));
  return {
    handOverCodes: codes,
    handOverPlans: plans.map(({ plan }) => ({
      barterRequestId: plan.barterRequestId,
      version: plan.version,
      proposedBy: plan.proposedBy === memberId ? 'me' : 'other',
      startsAt: plan.startsAt,
      endsAt: plan.endsAt,
      place: plan.placeName,
      agreedAt: plan.agreedAt,
      runningLate:
        plan.lateMinutes === null
          ? null
          : { by: plan.lateBy === memberId ? 'me' : 'other', minutes: plan.lateMinutes, at: plan.lateAt },
      remindedDayAt: plan.remindedDayAt,
      remindedHourAt: plan.remindedHourAt,
      updatedAt: plan.updatedAt,
    })),
  };
}
