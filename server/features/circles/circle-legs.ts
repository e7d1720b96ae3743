import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { barterRequests, circleMembers, circles } from '../../db/schema/trading';
import type { HandOverCircles } from '../barters';
import { healMissedCircle } from './circles-service';

// A circle's legs: its hand-overs are barters (barters write them, hand-overs.ts); what becomes of
// the circle when one of them is cancelled or completed, and who talks in its conversation, is the
// circle's (ADR 065).

/** An accepted circle stops: 'cancelled' (a hand-over was cancelled). */
export async function closeCircle(
  db: Db,
  circleId: number,
  status: 'cancelled',
  closedById: string,
  now: Date,
): Promise<void> {
  await db
    .update(circles)
    .set({ status, closedById, closedAt: now })
    .where(and(eq(circles.id, circleId), eq(circles.status, 'accepted')));
}

/** The circle is completed once none of its hand-overs is still accepted (all completed). */
export async function completeCircleIfDone(db: Db, circleId: number, now: Date): Promise<void> {
  await db
    .update(circles)
    .set({ status: 'completed', closedAt: now })
    .where(
      and(
        eq(circles.id, circleId),
        eq(circles.status, 'accepted'),
        sql`NOT EXISTS (SELECT 1 FROM ${barterRequests} b
          WHERE b.circle_id = ${circles.id} AND b.status <> 'completed')`,
      ),
    );
}

/**
 * The members of a circle's shared conversation, each with their own hand-over (where their bell
 * entries point); empty when the circle has none (a swap-day loop: one conversation per hand-over).
 */
export async function findCircleConversation(
  db: Db,
  circleId: number,
): Promise<Array<{ userId: string; requestId: number }>> {
  const rows = await db
    .select({ userId: circleMembers.memberId, requestId: circleMembers.barterRequestId })
    .from(circleMembers)
    .innerJoin(circles, eq(circles.id, circleMembers.circleId))
    .where(and(eq(circleMembers.circleId, circleId), sql`${circles.threadId} IS NOT NULL`))
    .orderBy(asc(circleMembers.position));
  return rows.flatMap((row) =>
    row.userId !== null && row.requestId !== null ? [{ userId: row.userId, requestId: row.requestId }] : [],
  );
}

/** Circles' answers to a barter of a circle, handed to barters at start (circlesPlugin). */
export const circleOfHandOvers: HandOverCircles = {
  cancelled: (tx, circleId, closedById, now) => closeCircle(tx, circleId, 'cancelled', closedById, now),
  missed: async (tx, circleId, memberId, released, now) => {
    await healMissedCircle(tx, circleId, memberId, released, now);
  },
  completed: completeCircleIfDone,
  conversation: findCircleConversation,
};
