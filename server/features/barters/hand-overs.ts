import { and, eq } from 'drizzle-orm';
import { BARTER_ERROR_CODES } from '../../../common/schemas/barters';
import type { Db } from '../../db/client';
import { barterRequestItems, barterRequests } from '../../db/schema/barter';
import { circleMembers, circles } from '../../db/schema/circles';
import { conflict } from '../../errors';
import { publishMemberEvents } from '../../events/publish';
import { notifyMember } from '../notifications/notify';
import {
  findPendingUsingItems,
  type ItemStateRow,
  lockItems,
  type RequestMembers,
  reserveItems,
} from './barters-repository';
import { barterEvents } from './barters-service';

/**
 * One step of a loop: `giverId` gives `itemId` to `receiverId`. A circle's steps in order: each
 * giver receives from the step before.
 */
export interface LoopStep {
  giverId: string;
  receiverId: string;
  itemId: number;
}

export const handOverUnavailable = () =>
  conflict(
    'An item in this circle is no longer available: it was deleted, hidden or reserved in another barter.',
    BARTER_ERROR_CODES.itemUnavailable,
  );

/**
 * Turn an accepted loop (circle `circleId`) into accepted barters, one per hand-over (issue 16):
 * the giver is the sender, the one item they give the only item ('from' side), the receiver the
 * recipient. Every item is locked in id order and reserved for its hand-over; an item hidden,
 * deleted, moved to another owner or reserved meanwhile throws 409 (the caller's transaction rolls
 * back). With `sharedThread` every hand-over hangs on one conversation (the first hand-over's id:
 * a circle's members talk together); otherwise each has its own (giver and receiver). Members of
 * other pending proposals using these items are told they can no longer be accepted, and every
 * member's pages are told. Answers the barter ids in step order and the thread (null unless shared).
 */
export async function createHandOvers(
  tx: Db,
  circleId: number,
  steps: readonly LoopStep[],
  options: { sharedThread: boolean; now: Date },
): Promise<{ barterIds: number[]; threadId: number | null }> {
  const locked = await lockItems(
    tx,
    steps.map((step) => step.itemId),
    'no key update',
  );
  const byId = new Map<number, ItemStateRow>(locked.map((item) => [item.id, item]));
  const barterIds: number[] = [];
  let threadId: number | null = null;
  const touched: RequestMembers[] = [];
  for (const [position, step] of steps.entries()) {
    const item = byId.get(step.itemId);
    if (!item || item.userId !== step.giverId || !item.isActive || item.reservedByRequestId !== null) {
      throw handOverUnavailable();
    }
    const [row]: Array<{ id: number }> = await tx
      .insert(barterRequests)
      .values({
        fromUserId: step.giverId,
        toUserId: step.receiverId,
        fromItemId: item.id,
        toItemId: null,
        status: 'accepted',
        acceptedAt: options.now,
        expiresAt: null,
        threadId,
        circleId,
      })
      .returning({ id: barterRequests.id });
    if (!row) throw new Error('insert into barter_requests returned no row');
    if (threadId === null || !options.sharedThread) {
      await tx.update(barterRequests).set({ threadId: row.id }).where(eq(barterRequests.id, row.id));
      if (options.sharedThread) threadId = row.id;
    }
    await tx.insert(barterRequestItems).values({
      barterRequestId: row.id,
      itemId: item.id,
      side: 'from',
      position: 0,
      title: item.title,
      category: item.category,
      isService: item.isService,
    });
    // Locked above, checked free: the reservation cannot miss.
    await reserveItems(tx, row.id, [item.id]);
    await tx
      .update(circleMembers)
      .set({ barterRequestId: row.id })
      .where(and(eq(circleMembers.circleId, circleId), eq(circleMembers.position, position)));
    barterIds.push(row.id);
    touched.push({
      id: row.id,
      threadId: threadId ?? row.id,
      fromUserId: step.giverId,
      toUserId: step.receiverId,
    });
  }
  await tx.update(circles).set({ threadId }).where(eq(circles.id, circleId));
  const blocked = await findPendingUsingItems(
    tx,
    steps.map((step) => step.itemId),
    -1,
    options.now,
  );
  for (const other of blocked) {
    for (const userId of new Set([other.fromUserId, other.toUserId])) {
      if (userId) {
        await notifyMember(tx, {
          userId,
          kind: 'proposal_unavailable',
          barterRequestId: other.id,
          actorId: null,
        });
      }
    }
  }
  await publishMemberEvents(tx, barterEvents([...touched, ...blocked]));
  return { barterIds, threadId };
}
