import { eq } from 'drizzle-orm';
import { canTake } from '#common/barter-machine.ts';
import { BARTER_ERROR_CODES, type ChatMessage } from '#common/schemas/barters.ts';
import type { UnreadCounts } from '#common/schemas/notifications.ts';
import type { Db } from '../../db/client';
import { type BarterRequestRow, barterRequests } from '../../db/schema/trading';
import { conflict } from '../../errors';
import { memberEvent, type NewMemberEvent, publishMemberEvents } from '../../events/publish';
import type { MemberRefRow } from '../member-refs';
import { countsEvent, lockMessageEntries, notificationEntry, unreadCounts } from '../notifications';
import { areHidden, assertAppropriateFor, assertNotHidden } from '../safety';
import {
  findProposalMessages,
  findThreadMessages,
  insertMessage,
  type MessageRowView,
  markThreadRead,
  type ProposalMessageRow,
} from './barter-messages-repository';
import { presentChatMessage } from './barters-presenter';
import { barterNotFound, otherMemberId, refusalMessage, requestContext } from './barters-service';
import { handOverCircles } from './hand-over-circles';
import { threadIdOf } from './requests-repository';

type Member = { id: string };

/** A request the member takes part in, or 404 (also for someone else's). */
async function loadOwnRequest(db: Db, member: Member, id: number): Promise<BarterRequestRow> {
  const [row] = await db.select().from(barterRequests).where(eq(barterRequests.id, id)).limit(1);
  if (!row || (row.fromUserId !== member.id && row.toUserId !== member.id)) throw barterNotFound();
  return row;
}

/**
 * A page of the conversation of request `id`'s thread (every request of a negotiation shares it):
 * the newest `limit` messages, or those before message `before`, oldest first.
 */
export async function listMessages(
  db: Db,
  member: Member,
  id: number,
  query: { limit: number; before?: number | undefined },
): Promise<MessageRowView[]> {
  const row = await loadOwnRequest(db, member, id);
  return findThreadMessages(db, threadIdOf(row), member.id, query.limit, query.before);
}

/**
 * The messages sent with the proposal and the counters of request `id`'s negotiation, oldest first
 * (ADR 076): a counter continues the conversation, so what was said with the first proposal stays
 * in it. The thread's requests are all between the same two members.
 */
export async function listProposalMessages(
  db: Db,
  member: Member,
  id: number,
): Promise<ProposalMessageRow[]> {
  const row = await loadOwnRequest(db, member, id);
  return findProposalMessages(db, threadIdOf(row));
}

/**
 * Who reads a request's conversation besides `viewerId`, and the request each of them finds it on
 * (their bell entries point there). Two members: the other one, on the thread. A circle's shared
 * conversation (ADR 029): every other member of the circle, each on their own hand-over.
 */
async function conversationMembers(
  db: Db,
  row: BarterRequestRow,
  viewerId: string,
): Promise<Array<{ userId: string; requestId: number }>> {
  const circle = row.circleId === null ? [] : await handOverCircles().conversation(db, row.circleId);
  if (circle.length > 0) {
    return circle.filter((member) => member.userId !== viewerId);
  }
  const other = otherMemberId(row, viewerId);
  return other ? [{ userId: other, requestId: threadIdOf(row) }] : [];
}

/**
 * Send a message (moderated) in request `id`'s conversation, while the machine allows it: stored on
 * the thread (once per recipient in a circle's conversation), each recipient's bell entry for the
 * conversation counts it, and every member's pages get it with their own unread counts, in one
 * transaction.
 */
export async function sendMessage(
  db: Db,
  member: Member & MemberRefRow,
  id: number,
  content: string,
): Promise<MessageRowView> {
  await assertAppropriateFor(db, member.id, 'message', content);
  return db.transaction(async (tx) => {
    const row = await loadOwnRequest(tx, member, id);
    const context = await requestContext(tx, row, member.id, 'message');
    if (!canTake('message', context)) {
      throw conflict(refusalMessage('message', context), BARTER_ERROR_CODES.transition);
    }
    const everyone = await conversationMembers(tx, row, member.id);
    if (everyone.length === 0) {
      throw conflict("The other member's account was closed.", BARTER_ERROR_CODES.transition);
    }
    // A member who blocked the sender (or was blocked) since gets nothing; nobody left: refused.
    const recipients = [];
    for (const recipient of everyone) {
      if (!(await areHidden(tx, member.id, recipient.userId))) recipients.push(recipient);
    }
    if (recipients.length === 0) await assertNotHidden(tx, member.id, everyone[0]?.userId ?? '');
    const threadId = threadIdOf(row);
    // Every recipient's entries at once, in one order (a circle's conversation has several).
    await lockMessageEntries(
      tx,
      recipients.map((recipient) => recipient.userId),
    );
    let original: MessageRowView | null = null;
    const events: NewMemberEvent[] = [];
    for (const recipient of recipients) {
      const message = await insertMessage(tx, {
        fromUserId: member.id,
        toUserId: recipient.userId,
        threadId,
        content,
        copyOfId: original?.id ?? null,
      });
      original ??= message;
      // The recipient's bell entry, and the message with their counts as that entry left them. The
      // entries are locked above, the sender is the actor, and a barter outside any circle belongs
      // to no swap day: none of the three is read again.
      const entry = await notificationEntry(
        tx,
        {
          userId: recipient.userId,
          kind: 'message_received',
          barterRequestId: recipient.requestId,
          actorId: member.id,
        },
        { entriesLocked: true, outsideSwapDays: row.circleId === null, actor: member },
      );
      events.push(entry.event, messageEvent(recipient.userId, message, entry.counts));
    }
    if (!original) throw new Error('sendMessage: no recipient');
    // The sender's own pages get the original, with their counts (read once); every event of the
    // message goes out in one insert and one NOTIFY.
    events.unshift(messageEvent(member.id, original, await unreadCounts(tx, member.id)));
    await publishMemberEvents(tx, events);
    return original;
  });
}

const messageEvent = (userId: string, message: MessageRowView, counts: UnreadCounts) =>
  memberEvent(userId, 'message', {
    message: presentChatMessage(message, userId) satisfies ChatMessage,
    counts,
  });

/**
 * The member read request `id`'s conversation: their messages and message notifications of the
 * thread are marked read, and their other pages get the new counts. The counts.
 */
export async function markConversationRead(db: Db, member: Member, id: number): Promise<UnreadCounts> {
  return db.transaction(async (tx) => {
    const row = await loadOwnRequest(tx, member, id);
    await lockMessageEntries(tx, [member.id]);
    // Their bell entries of a circle's conversation point at their own hand-over.
    await markThreadRead(tx, threadIdOf(row), member.id, row.circleId === null ? [] : [row.id]);
    const event = await countsEvent(tx, member.id);
    await publishMemberEvents(tx, [event]);
    return event.data;
  });
}
