import { and, asc, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { type BarterRequestRow, barterRequests } from '../../db/schema/trading';

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
