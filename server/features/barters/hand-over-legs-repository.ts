import { and, asc, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { type BarterRequestRow, barterRequests, circles } from '../../db/schema/trading';

// A circle's hand-overs are barters of their own, one per leg (issue 16), written by hand-overs.ts;
// the circle itself (its status, members and conversation) belongs to circles.

/** The circle's other accepted hand-overs, locked in id order (cancelled with one of them). */
export async function lockOpenCircleLegs(
  db: Db,
  circleId: number,
  exceptId: number,
): Promise<BarterRequestRow[]> {
  return db
    .select()
    .from(barterRequests)
    .where(
      and(
        eq(barterRequests.circleId, circleId),
        eq(barterRequests.status, 'accepted'),
        ne(barterRequests.id, exceptId),
      ),
    )
    .orderBy(asc(barterRequests.id))
    .for('no key update');
}

/** Whether the circle is a swap day's loop (its hand-overs are the day's, ADR 081 heals trade circles only). */
export async function isSwapDayLoop(db: Db, circleId: number): Promise<boolean> {
  const [row] = await db
    .select({ swapDayId: circles.swapDayId })
    .from(circles)
    .where(eq(circles.id, circleId));
  return row?.swapDayId != null;
}
