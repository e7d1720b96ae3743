import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/rows';
import { type WantRow, wantQuestions, wants } from '../../db/schema/trading';
import { notifyMembers, withdrawNotifications } from '../notifications';

// Wants after a trade (issue 30, ADR 073). A completed trade meets the receiving member's wants:
// the want the trade named (a circle's or swap day's hand-over matched to it) is fulfilled at once;
// any other active want of theirs that a received item matches becomes a question, "Did this fill
// your want?", answered with one click. A fulfilled want is inactive (fulfilled_at set), so feeds,
// Barter Match, the match graph, circles and the member page's "Looking for" leave it out, until its
// member keeps it open.

/**
 * In the completing transaction of barter request `requestId` (its items already retired): fulfil
 * the wants the trade named and ask about the others a received item matches (same kind, and the
 * same category, all of the want's words in the item, or a near spelling of its title: the match
 * rule of docs/matching.md without the value and distance, which no longer matter once received).
 */
export async function wantsMetByTrade(tx: Db, requestId: number, now: Date): Promise<void> {
  // Named: a circle's (or swap day's) hand-over carries the receiver's want its item matched.
  await tx.execute(sql`
    UPDATE wants w SET is_active = false, fulfilled_at = ${now.toISOString()}::timestamptz,
      fulfilled_by_request_id = ${requestId}
    FROM circle_members cm JOIN barter_requests br ON br.id = cm.barter_request_id
    WHERE cm.barter_request_id = ${requestId} AND br.circle_id = cm.circle_id
      AND w.id = cm.want_id AND w.user_id = br.to_user_id
      AND w.is_active AND w.fulfilled_at IS NULL`);
  const asked = await queryRows<{ member_id: string }>(
    tx,
    sql`
    INSERT INTO want_questions (barter_request_id, want_id, member_id)
    SELECT DISTINCT ${requestId}::int, w.id, w.user_id
    FROM barter_requests br
    JOIN barter_request_items bri ON bri.barter_request_id = br.id
    JOIN items i ON i.id = bri.item_id
    JOIN wants w ON w.user_id = (CASE WHEN bri.side = 'from' THEN br.to_user_id ELSE br.from_user_id END)
    WHERE br.id = ${requestId} AND w.is_active AND w.fulfilled_at IS NULL
      AND w.is_service = i.is_service
      AND (w.category = i.category
        OR (cardinality(w.title_lexemes) > 0 AND w.title_lexemes <@ tsvector_to_array(i.search_vector))
        OR w.title <% i.title)
    ON CONFLICT DO NOTHING
    RETURNING member_id::text AS member_id`,
  );
  // One bell entry per member asked (ADR 078), opening the barter's page where the question is.
  await notifyMembers(
    tx,
    [...new Set(asked.map((row) => row.member_id))].map((userId) => ({
      userId,
      kind: 'want_question' as const,
      barterRequestId: requestId,
      actorId: null,
    })),
  );
}

/**
 * After a member answered: their "Did this fill your want?" bell entries of barters that ask them
 * nothing more go (an answer Yes also drops the want's questions in other barters).
 */
export async function withdrawAnsweredQuestions(tx: Db, memberId: string): Promise<void> {
  const open = await tx
    .selectDistinct({ barterRequestId: wantQuestions.barterRequestId })
    .from(wantQuestions)
    .where(eq(wantQuestions.memberId, memberId));
  await withdrawNotifications(tx, {
    userId: memberId,
    kind: 'want_question',
    keep: open.map((row) => row.barterRequestId),
  });
}

/** A question as the member sees it: which of their wants, and which completed barter. */
export interface WantQuestionRow {
  barterRequestId: number;
  wantId: number;
  title: string;
}

/**
 * The member's open questions (of one barter, or all), oldest first: only wants still active and
 * not fulfilled (a want fulfilled or paused meanwhile is not asked about).
 */
export async function findWantQuestions(
  db: Db,
  memberId: string,
  barterRequestId: number | undefined,
): Promise<WantQuestionRow[]> {
  return db
    .select({ barterRequestId: wantQuestions.barterRequestId, wantId: wants.id, title: wants.title })
    .from(wantQuestions)
    .innerJoin(wants, eq(wants.id, wantQuestions.wantId))
    .where(
      and(
        eq(wantQuestions.memberId, memberId),
        barterRequestId === undefined ? undefined : eq(wantQuestions.barterRequestId, barterRequestId),
        eq(wants.userId, memberId),
        eq(wants.isActive, true),
        isNull(wants.fulfilledAt),
      ),
    )
    .orderBy(asc(wantQuestions.createdAt), asc(wantQuestions.barterRequestId), asc(wants.id))
    .limit(100);
}

/**
 * Take the member's question about `wantId` in barter `barterRequestId` off the list; true when it
 * was theirs and still open. Two answers at once: one deletes the row, the other finds none.
 */
export async function takeWantQuestion(
  tx: Db,
  memberId: string,
  wantId: number,
  barterRequestId: number,
): Promise<boolean> {
  const rows = await tx
    .delete(wantQuestions)
    .where(
      and(
        eq(wantQuestions.barterRequestId, barterRequestId),
        eq(wantQuestions.wantId, wantId),
        eq(wantQuestions.memberId, memberId),
      ),
    )
    .returning({ wantId: wantQuestions.wantId });
  return rows.length > 0;
}

/** Mark the member's active want fulfilled by a completed barter; the row, or null when it was not open. */
export async function fulfilWant(
  tx: Db,
  memberId: string,
  wantId: number,
  barterRequestId: number,
  now: Date,
): Promise<WantRow | null> {
  const [row] = await tx
    .update(wants)
    .set({ isActive: false, fulfilledAt: now, fulfilledByRequestId: barterRequestId })
    .where(
      and(
        eq(wants.id, wantId),
        eq(wants.userId, memberId),
        eq(wants.isActive, true),
        isNull(wants.fulfilledAt),
      ),
    )
    .returning();
  if (row) await tx.delete(wantQuestions).where(eq(wantQuestions.wantId, wantId));
  return row ?? null;
}

/** Keep a want open ("I want more of these"): active again, no longer fulfilled. */
export async function reopenWant(db: Db, memberId: string, wantId: number): Promise<WantRow | null> {
  const [row] = await db
    .update(wants)
    .set({ isActive: true, fulfilledAt: null, fulfilledByRequestId: null })
    .where(and(eq(wants.id, wantId), eq(wants.userId, memberId)))
    .returning();
  return row ?? null;
}
