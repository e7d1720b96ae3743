import { and, eq, gt } from 'drizzle-orm';
import { RATING_REVEAL_MS } from '#common/trader-reputation.ts';
import type { Db } from '../../db/client';
import { ratings } from '../../db/schema/trading';

// A barter's ratings: one per member who rates the other side of a completed barter. They are
// revealed together (issue 30, ADR 074): the first is stored hidden until RATING_REVEAL_DAYS later,
// the second brings both to the moment it is made.

export interface RatingRow {
  stars: number;
  comment: string | null;
  /** From when the member rated (and everyone else) see it. */
  revealedAt: Date;
}
/** Whether the member rated the other side of this request already. */
export async function hasRated(db: Db, requestId: number, raterId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: ratings.id })
    .from(ratings)
    .where(and(eq(ratings.barterRequestId, requestId), eq(ratings.raterId, raterId)))
    .limit(1);
  return row !== undefined;
}

/**
 * Store a rating made at `now`; false when the member rated this request already (a parallel request
 * won). Called with the request locked (barters-service `act`), so two ratings of one barter are
 * stored one after the other and the second always sees the first: it is revealed at once, with the
 * first; a first rating waits RATING_REVEAL_MS for the other side.
 */
export async function insertRating(
  db: Db,
  values: {
    barterRequestId: number;
    raterId: string;
    rateeId: string;
    stars: number;
    comment: string | null;
  },
  now: Date,
): Promise<boolean> {
  const theirs = await hasRated(db, values.barterRequestId, values.rateeId);
  const rows = await db
    .insert(ratings)
    .values({ ...values, revealedAt: theirs ? now : new Date(now.getTime() + RATING_REVEAL_MS) })
    .onConflictDoNothing({ target: [ratings.barterRequestId, ratings.raterId] })
    .returning({ id: ratings.id });
  if (rows.length === 0) return false;
  if (theirs) {
    await db
      .update(ratings)
      .set({ revealedAt: now })
      .where(and(eq(ratings.barterRequestId, values.barterRequestId), gt(ratings.revealedAt, now)));
  }
  return true;
}
