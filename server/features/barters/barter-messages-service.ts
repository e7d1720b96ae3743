import { eq } from 'drizzle-orm';
import { canTake } from '../../../common/barter-machine';
import { BARTER_ERROR_CODES, type ChatMessage } from '../../../common/schemas/barters';
import type { UnreadCounts } from '../../../common/schemas/notifications';
import type { Db } from '../../db/client';
import { type BarterRequestRow, barterRequests } from '../../db/schema/barter';
import { conflict } from '../../errors';
import { memberEvent, publishMemberEvents } from '../../events/publish';
import { countsEvent, notifyMember, unreadCounts } from '../notifications/notify';
import { assertNotHidden } from '../safety/blocks';
import { assertAppropriateFor } from '../safety/refusals';
import { presentChatMessage } from './barters-presenter';
import {
  findThreadMessages,
  insertMessage,
  type MessageRowView,
  markThreadRead,
  threadIdOf,
} from './barters-repository';
import { barterNotFound, otherMemberId, refusalMessage, requestContext } from './barters-service';

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
  return findThreadMessages(db, threadIdOf(row), query.limit, query.before);
}

/**
 * Send a message (moderated) in request `id`'s conversation, while the machine allows it: stored on
 * the thread, the other member's bell entry for the thread counts it, and both members' pages get
 * it with their own unread counts, in one transaction.
 */
export async function sendMessage(
  db: Db,
  member: Member,
  id: number,
  content: string,
): Promise<MessageRowView> {
  await assertAppropriateFor(db, member.id, 'message', content);
  return db.transaction(async (tx) => {
    const row = await loadOwnRequest(tx, member, id);
    const context = await requestContext(tx, row, member.id);
    if (!canTake('message', context)) {
      throw conflict(refusalMessage('message', context), BARTER_ERROR_CODES.transition);
    }
    const other = otherMemberId(row, member.id);
    if (!other) {
      throw conflict("The other member's account was closed.", BARTER_ERROR_CODES.transition);
    }
    await assertNotHidden(tx, member.id, other);
    const threadId = threadIdOf(row);
    const message = await insertMessage(tx, { fromUserId: member.id, toUserId: other, threadId, content });
    // The recipient's counts as their bell entry left them; the sender's own are read once.
    const otherCounts = await notifyMember(tx, {
      userId: other,
      kind: 'message_received',
      barterRequestId: threadId,
      actorId: member.id,
    });
    const eventFor = (userId: string, counts: UnreadCounts) =>
      memberEvent(userId, 'message', {
        message: presentChatMessage(message, userId) satisfies ChatMessage,
        counts,
      });
    await publishMemberEvents(tx, [
      eventFor(member.id, await unreadCounts(tx, member.id)),
      eventFor(other, otherCounts),
    ]);
    return message;
  });
}

/**
 * The member read request `id`'s conversation: their messages and message notifications of the
 * thread are marked read, and their other pages get the new counts. The counts.
 */
export async function markConversationRead(db: Db, member: Member, id: number): Promise<UnreadCounts> {
  return db.transaction(async (tx) => {
    const row = await loadOwnRequest(tx, member, id);
    await markThreadRead(tx, threadIdOf(row), member.id);
    const event = await countsEvent(tx, member.id);
    await publishMemberEvents(tx, [event]);
    return event.data;
  });
}
