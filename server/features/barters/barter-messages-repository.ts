import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { REMOVED_MESSAGE } from '#common/constants.ts';
import type { Db } from '../../db/client';
import { barterRequests, messages, notifications } from '../../db/schema/trading';

// A barter's conversation: its messages, stored on the thread (a circle's once per recipient).

export interface MessageRowView {
  id: number;
  barterRequestId: number;
  /** Null once the sender deleted their account (the message stays, without a name). */
  fromUserId: string | null;
  toUserId: string | null;
  content: string;
  isRead: boolean;
  createdAt: Date;
}

/**
 * The newest `limit` messages of a thread as `viewerId` reads it (those before message `before`),
 * oldest first: each message once, the copy to them or, for their own, the original (a circle's
 * messages are stored once per recipient, ADR 029).
 */
export async function findThreadMessages(
  db: Db,
  threadId: number,
  viewerId: string,
  limit: number,
  before: number | undefined,
): Promise<MessageRowView[]> {
  const rows = await db
    .select({
      id: messages.id,
      barterRequestId: messages.barterRequestId,
      fromUserId: messages.fromUserId,
      toUserId: messages.toUserId,
      // A message a moderator removed keeps its place; its text never leaves again (ADR 025).
      content: sql<string>`CASE WHEN ${messages.removedAt} IS NULL THEN ${messages.content} ELSE ${REMOVED_MESSAGE} END`,
      isRead: messages.isRead,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .where(
      and(
        eq(messages.barterRequestId, threadId),
        or(
          eq(messages.toUserId, viewerId),
          and(eq(messages.fromUserId, viewerId), isNull(messages.copyOfId)),
        ),
        before === undefined ? undefined : sql`${messages.id} < ${before}::int`,
      ),
    )
    .orderBy(desc(messages.id))
    .limit(limit);
  return rows.reverse().map((row) => ({ ...row, barterRequestId: row.barterRequestId ?? threadId }));
}

export async function insertMessage(
  db: Db,
  values: {
    fromUserId: string;
    toUserId: string;
    threadId: number;
    content: string;
    copyOfId?: number | null;
  },
): Promise<MessageRowView> {
  const [row] = await db
    .insert(messages)
    .values({
      fromUserId: values.fromUserId,
      toUserId: values.toUserId,
      barterRequestId: values.threadId,
      content: values.content,
      copyOfId: values.copyOfId ?? null,
    })
    .returning();
  if (!row) throw new Error('insert into messages returned no row');
  return { ...row, barterRequestId: values.threadId };
}

/**
 * Mark the member's unread messages of a thread read, and their unread 'message_received' entries
 * of that thread on the bell (and of `alsoRequestIds`: a circle member's entries name their own
 * hand-over).
 */
export async function markThreadRead(
  db: Db,
  threadId: number,
  userId: string,
  alsoRequestIds: readonly number[] = [],
): Promise<void> {
  await db
    .update(messages)
    .set({ isRead: true })
    .where(
      and(eq(messages.barterRequestId, threadId), eq(messages.toUserId, userId), eq(messages.isRead, false)),
    );
  await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(
      and(
        eq(notifications.userId, userId),
        inArray(notifications.barterRequestId, [threadId, ...alsoRequestIds]),
        eq(notifications.kind, 'message_received'),
        isNull(notifications.readAt),
      ),
    );
}

export interface ProposalMessageRow {
  id: number;
  counterOfId: number | null;
  fromUserId: string | null;
  message: string;
  createdAt: Date;
}

/**
 * The messages that came with the proposal and every counter of a thread, oldest first (ADR 076):
 * barter_requests_thread_idx. A circle's or swap day's hand-overs have none.
 */
export async function findProposalMessages(db: Db, threadId: number): Promise<ProposalMessageRow[]> {
  const rows = await db
    .select({
      id: barterRequests.id,
      counterOfId: barterRequests.counterOfId,
      fromUserId: barterRequests.fromUserId,
      message: barterRequests.message,
      createdAt: barterRequests.createdAt,
    })
    .from(barterRequests)
    .where(and(eq(barterRequests.threadId, threadId), isNull(barterRequests.circleId)))
    .orderBy(barterRequests.id);
  return rows.flatMap((row) => (row.message ? [{ ...row, message: row.message }] : []));
}
