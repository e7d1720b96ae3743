import type { z } from 'zod';
import {
  allItemsAvailable,
  BARTER_STATUS_LABELS,
  type BarterAction,
  type BarterBox,
  type BarterContext,
  barterContext,
  canTake,
  nextStatus,
  PENDING_EXPIRY_MS,
  readsFacts,
  roleOf,
} from '#common/barter-machine.ts';
import {
  BARTER_ERROR_CODES,
  type cancelBarterSchema,
  type proposalSchema,
  type ratingInputSchema,
} from '#common/schemas/barters.ts';
import type { NotificationKind } from '#common/schemas/notifications.ts';
import type { Db } from '../../db/client';
import type { Page, PageRequest } from '../../db/paging';
import type { BarterRequestRow } from '../../db/schema/trading';
import type { UserRow } from '../../db/schema/users';
import { badRequest, conflict, notFound } from '../../errors';
import { memberEvent, type NewMemberEvent, publishMemberEvents } from '../../events/publish';
import { type ItemStateRow, lockItemsInIdOrder } from '../items';
import { notifyMember } from '../notifications';
import { assertAppropriateFor, assertNotHidden } from '../safety';
import { wantsMetByTrade } from '../wants';
import { handOverCircles } from './hand-over-circles';
import { lockOpenCircleLegs } from './hand-over-legs-repository';
import { hasRated, insertRating } from './ratings-repository';
import {
  type BarterView,
  findBarterPage,
  findBarterView,
  findIdenticalPending,
  findItemIdsOfRequest,
  findPendingUsingItems,
  insertRequest,
  lockProposalsOf,
  lockRequest,
  type RequestMembers,
  releaseItems,
  reserveItems,
  retireItems,
  threadIdOf,
  updateRequest,
} from './requests-repository';

type Proposal = z.output<typeof proposalSchema>;
type CancelInput = z.output<typeof cancelBarterSchema>;
type RatingInput = z.output<typeof ratingInputSchema>;
type Member = Pick<UserRow, 'id'>;

/** Unknown, and someone else's, answer alike: a member probing ids learns nothing. */
export const barterNotFound = () => notFound('Barter not found.');

const invalidItems = (message: string) => badRequest(message, BARTER_ERROR_CODES.invalidItems);
const itemUnavailable = () =>
  conflict(
    'An item in this proposal is no longer available: it was deleted, hidden or reserved in another barter.',
    BARTER_ERROR_CODES.itemUnavailable,
  );
const transition = (message: string) => conflict(message, BARTER_ERROR_CODES.transition);
const accountClosed = () => transition("The other member's account was closed.");

const PAST_TENSE: Record<BarterAction, string> = {
  accept: 'accepted',
  decline: 'declined',
  counter: 'countered',
  withdraw: 'withdrawn',
  cancel: 'cancelled',
  confirm: 'confirmed',
  rate: 'rated',
  message: 'sent',
};

/** Why the machine refuses `action` in `context`, as a sentence for the member. */
export function refusalMessage(action: BarterAction, context: BarterContext): string {
  const was = BARTER_STATUS_LABELS[context.status].toLowerCase();
  switch (action) {
    case 'accept':
    case 'decline':
    case 'counter':
    case 'withdraw':
      if (context.status !== 'pending') {
        return `This proposal was already ${was}, so it can no longer be ${PAST_TENSE[action]}.`;
      }
      if (context.expired) return `This proposal expired, so it can no longer be ${PAST_TENSE[action]}.`;
      if (action === 'withdraw') return 'Only the member who made this proposal can withdraw it.';
      if (action === 'accept' && context.role === 'recipient') return itemUnavailable().message;
      return `Only the member who received this proposal can ${action} it.`;
    case 'cancel':
      return context.status === 'cancelled'
        ? 'This barter was already canceled.'
        : `Only an accepted barter can be canceled; this one is ${was}.`;
    case 'confirm':
      return context.status === 'accepted'
        ? 'You have already confirmed this barter.'
        : `Only an accepted barter can be confirmed as completed; this one is ${was}.`;
    case 'rate':
      return context.status === 'completed'
        ? 'You have already rated this barter.'
        : `Only a completed barter can be rated; this one is ${was}.`;
    case 'message':
      return 'Messages cannot be sent in this barter.';
  }
}

/** The other member of a request, seen from `viewerId`. */
export const otherMemberId = (row: BarterRequestRow, viewerId: string): string | null =>
  roleOf(row, viewerId) === 'sender' ? row.toUserId : row.fromUserId;

/** Who a request's live events go to. */
export const membersOf = (row: BarterRequestRow): RequestMembers => ({
  id: row.id,
  threadId: threadIdOf(row),
  fromUserId: row.fromUserId,
  toUserId: row.toUserId,
});

/** 'barter' events to both members of each request (their pages read it again). */
export function barterEvents(requests: readonly RequestMembers[]): NewMemberEvent[] {
  const events: NewMemberEvent[] = [];
  for (const request of requests) {
    for (const userId of new Set([request.fromUserId, request.toUserId])) {
      if (userId) {
        events.push(
          memberEvent(userId, 'barter', { barterRequestId: request.id, threadId: request.threadId }),
        );
      }
    }
  }
  return events;
}

/** Put an entry on a member's bell, unless their account is gone. */
async function notify(
  db: Db,
  userId: string | null,
  kind: NotificationKind,
  barterRequestId: number,
  actorId: string | null,
): Promise<void> {
  if (userId) await notifyMember(db, { userId, kind, barterRequestId, actorId });
}

// ------------------------------------------------------------------------------------------------
// Reads

/** One page of a Barters list for the member, with the total. */
export function listBarters(
  db: Db,
  member: Member,
  box: BarterBox,
  page: PageRequest,
  now: Date,
): Promise<Page<BarterView>> {
  return findBarterPage(db, member.id, box, page, now);
}

/** A request the member takes part in (any status); 404 otherwise. */
export async function getBarter(db: Db, member: Member, id: number): Promise<BarterView> {
  const view = await findBarterView(db, member.id, id);
  if (!view) throw barterNotFound();
  return view;
}

// ------------------------------------------------------------------------------------------------
// Proposals and counters

/**
 * Check and store a proposal from `senderId` inside `tx`: every offered item the sender's own, every
 * requested item of one other member (`recipientId` when given), all active and free (locked FOR
 * SHARE until the transaction ends, so none is reserved meanwhile), and no identical pending one.
 */
async function storeProposal(
  tx: Db,
  senderId: string,
  input: Proposal,
  thread: { recipientId: string | null; threadId: number | null; counterOfId: number | null },
  now: Date,
): Promise<BarterRequestRow> {
  await lockProposalsOf(tx, senderId);
  // An item on both sides fails the owner check of one of them below.
  const ids = [...new Set([...input.offeredItemIds, ...input.requestedItemIds])];
  const byId = new Map((await lockItemsInIdOrder(tx, ids, 'share')).map((item) => [item.id, item]));
  const offered = input.offeredItemIds.map((id) => byId.get(id));
  const requested = input.requestedItemIds.map((id) => byId.get(id));
  if (offered.some((item) => !item || item.userId !== senderId)) {
    throw invalidItems('Offer only your own items.');
  }
  if (requested.some((item) => !item)) throw invalidItems('An item you asked for does not exist.');
  if (requested.some((item) => item?.userId === senderId)) {
    throw invalidItems('You cannot ask for your own item.');
  }
  const owners = new Set(requested.map((item) => item?.userId));
  if (owners.size !== 1) throw invalidItems('Ask for the items of one member at a time.');
  const [recipientId] = [...owners] as [string];
  if (thread.recipientId !== null && recipientId !== thread.recipientId) {
    throw invalidItems('A counter asks for items of the member who made the proposal.');
  }
  const chosen = [...offered, ...requested] as ItemStateRow[];
  if (chosen.some((item) => !item.isActive || item.reservedByRequestId !== null)) {
    throw conflict(
      'An item you chose is no longer available: it was hidden or is reserved in another barter.',
      BARTER_ERROR_CODES.itemUnavailable,
    );
  }
  const duplicate = await findIdenticalPending(
    tx,
    {
      fromUserId: senderId,
      toUserId: recipientId,
      offered: input.offeredItemIds,
      requested: input.requestedItemIds,
    },
    now,
  );
  if (duplicate !== null) {
    throw conflict(
      'You already made this same proposal, and it is still pending.',
      BARTER_ERROR_CODES.duplicate,
    );
  }
  return insertRequest(tx, {
    fromUserId: senderId,
    toUserId: recipientId,
    message: input.message ?? null,
    expiresAt: new Date(now.getTime() + PENDING_EXPIRY_MS),
    threadId: thread.threadId,
    counterOfId: thread.counterOfId,
    offered: offered as ItemStateRow[],
    requested: requested as ItemStateRow[],
  });
}

/**
 * Propose a barter (moderated message): stored pending for 14 days, the recipient notified, both
 * members' pages told, in one transaction. The new request's id.
 */
export async function propose(db: Db, member: Member, input: Proposal): Promise<number> {
  await assertAppropriateFor(db, member.id, 'proposal', input.message);
  const now = new Date();
  return db.transaction(async (tx) => {
    const row = await storeProposal(
      tx,
      member.id,
      input,
      { recipientId: null, threadId: null, counterOfId: null },
      now,
    );
    // Blocked either way: nothing is stored (the transaction rolls back).
    if (row.toUserId) await assertNotHidden(tx, member.id, row.toUserId);
    await notify(tx, row.toUserId, 'proposal_received', row.id, member.id);
    await publishMemberEvents(tx, barterEvents([membersOf(row)]));
    return row.id;
  });
}

// ------------------------------------------------------------------------------------------------
// Actions on a request

interface Facts {
  itemIds: number[];
  itemsAvailable: boolean;
  ratedByMe: boolean;
}

/**
 * What the machine needs besides the row: whether every item of both sides is still free for this
 * request (locked FOR NO KEY UPDATE in id order when accepting, which reserves them), and whether
 * the viewer rated it already.
 */
async function loadFacts(
  tx: Db,
  row: BarterRequestRow,
  viewerId: string,
  accepting: boolean,
): Promise<Facts> {
  const listed = await findItemIdsOfRequest(tx, row.id);
  const itemIds = listed.filter((id): id is number => id !== null);
  const states = new Map(
    (await lockItemsInIdOrder(tx, itemIds, accepting ? 'no key update' : null)).map((item) => [
      item.id,
      item,
    ]),
  );
  const itemsAvailable = allItemsAvailable(
    listed.map((id) => {
      const item = id === null ? undefined : states.get(id);
      return item ? { exists: true, ...item } : { exists: false, isActive: false, reservedByRequestId: null };
    }),
    row.id,
  );
  return { itemIds, itemsAvailable, ratedByMe: await hasRated(tx, row.id, viewerId) };
}

/**
 * The machine's context of a request for the viewer, read without locks, to decide `action`: the
 * facts beyond the row (the items' and the rating's reads) only when that action's rule reads them
 * (readsFacts); otherwise they are left false and unread, and the context serves that action alone.
 */
export async function requestContext(
  tx: Db,
  row: BarterRequestRow,
  viewerId: string,
  action: BarterAction,
): Promise<BarterContext> {
  const facts = readsFacts(action)
    ? await loadFacts(tx, row, viewerId, false)
    : { itemsAvailable: false, ratedByMe: false };
  return barterContext(row, viewerId, facts, new Date());
}

interface ActionState {
  row: BarterRequestRow;
  context: BarterContext;
  facts: Facts;
  /** Where the machine says the action leads. */
  next: NonNullable<ReturnType<typeof nextStatus>>;
  now: Date;
}

/**
 * Take `action` on request `id` as `member`, in one transaction: lock the request, decide with the
 * machine alone (409 BARTER_TRANSITION with the reason when it refuses), then `apply`. Requests the
 * member is not part of answer 404 like missing ones.
 */
async function act<T>(
  db: Db,
  member: Member,
  id: number,
  action: BarterAction,
  apply: (tx: Db, state: ActionState) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const row = await lockRequest(tx, id);
    if (!row || (row.fromUserId !== member.id && row.toUserId !== member.id)) throw barterNotFound();
    const now = new Date();
    const facts = await loadFacts(tx, row, member.id, action === 'accept');
    const context = barterContext(row, member.id, facts, now);
    const next = nextStatus(action, context);
    if (next === null) {
      if (action === 'accept' && canTake('accept', { ...context, itemsAvailable: true })) {
        throw itemUnavailable();
      }
      throw transition(refusalMessage(action, context));
    }
    return apply(tx, { row, context, facts, next, now });
  });
}

/**
 * Accept a pending proposal: reserve every item of both sides for it (only items still active and
 * free; any other: 409 BARTER_ITEM_UNAVAILABLE and nothing changes), notify the sender, and tell the
 * members of every other pending proposal using those items that it can no longer be accepted.
 */
export async function accept(db: Db, member: Member, id: number): Promise<void> {
  await act(db, member, id, 'accept', async (tx, { row, facts, now }) => {
    const reserved = await reserveItems(tx, row.id, facts.itemIds);
    if (reserved.length !== facts.itemIds.length) throw itemUnavailable();
    await updateRequest(tx, row.id, { status: 'accepted', acceptedAt: now, expiresAt: null });
    await notify(tx, row.fromUserId, 'proposal_accepted', row.id, member.id);
    const blocked = await findPendingUsingItems(tx, facts.itemIds, row.id, now);
    for (const other of blocked) {
      for (const userId of new Set([other.fromUserId, other.toUserId])) {
        await notify(tx, userId, 'proposal_unavailable', other.id, null);
      }
    }
    await publishMemberEvents(tx, barterEvents([membersOf(row), ...blocked]));
  });
}

/** Decline (the recipient) or withdraw (the sender) a pending proposal; the other member is told. */
export async function close(
  db: Db,
  member: Member,
  id: number,
  action: 'decline' | 'withdraw',
): Promise<void> {
  await act(db, member, id, action, async (tx, { row, next }) => {
    await updateRequest(tx, row.id, { status: next, closedById: member.id, expiresAt: null });
    const kind = action === 'decline' ? 'proposal_declined' : 'proposal_withdrawn';
    await notify(tx, otherMemberId(row, member.id), kind, row.id, member.id);
    await publishMemberEvents(tx, barterEvents([membersOf(row)]));
  });
}

/**
 * Cancel an accepted barter with a reason (moderated): its items are free again (pending proposals
 * using them can be accepted again, and their pages are told), the other member is notified. A
 * hand-over of a circle cannot happen alone: the circle's other open hand-overs are cancelled with
 * it, for the same reason, and their members told (issue 16).
 */
export async function cancel(db: Db, member: Member, id: number, input: CancelInput): Promise<void> {
  await assertAppropriateFor(db, member.id, 'cancellation', input.reason);
  await act(db, member, id, 'cancel', async (tx, { row, next, now }) => {
    const closed = { status: next, closedById: member.id, closeReason: input.reason };
    const legs = row.circleId === null ? [] : await lockOpenCircleLegs(tx, row.circleId, row.id);
    const released: number[] = [];
    for (const leg of [row, ...legs]) {
      released.push(...(await releaseItems(tx, leg.id)));
      await updateRequest(tx, leg.id, closed);
    }
    await notify(tx, otherMemberId(row, member.id), 'barter_cancelled', row.id, member.id);
    for (const leg of legs) {
      for (const userId of new Set([leg.fromUserId, leg.toUserId])) {
        if (userId !== member.id) await notify(tx, userId, 'barter_cancelled', leg.id, member.id);
      }
    }
    if (row.circleId !== null) await handOverCircles().cancelled(tx, row.circleId, member.id, now);
    const freed = await findPendingUsingItems(tx, released, row.id, now);
    await publishMemberEvents(tx, barterEvents([membersOf(row), ...legs.map(membersOf), ...freed]));
  });
}

/**
 * Complete an accepted barter, locked by the caller in `tx`: its items changed hands, so they leave
 * every list for good (traded: inactive, no longer reserved, never shown again; issue 30), the
 * receivers' wants it met are fulfilled or asked about ("Did this fill your want?"), its circle
 * completes when this was the last hand-over, and both members are told (bell and pages).
 * `confirmed` are the confirmation times to store with it. The one way a hand-over completes: the second "confirm" and a hand-over code (issue 30).
 */
export async function completeBarter(
  tx: Db,
  row: BarterRequestRow,
  actorId: string,
  confirmed: Partial<Pick<BarterRequestRow, 'fromConfirmedAt' | 'toConfirmedAt'>>,
  now: Date,
): Promise<void> {
  await retireItems(tx, row.id, now);
  await updateRequest(tx, row.id, { ...confirmed, status: 'completed' });
  await wantsMetByTrade(tx, row.id, now);
  if (row.circleId !== null) await handOverCircles().completed(tx, row.circleId, now);
  await notify(tx, otherMemberId(row, actorId), 'barter_completed', row.id, actorId);
  await notify(tx, actorId, 'barter_completed', row.id, actorId);
  await publishMemberEvents(tx, barterEvents([membersOf(row)]));
}

/**
 * Confirm the hand-over of an accepted barter. The second confirmation completes it
 * (`completeBarter`); the first asks the other member to confirm too.
 */
export async function confirm(db: Db, member: Member, id: number): Promise<void> {
  await act(db, member, id, 'confirm', async (tx, { row, context, next, now }) => {
    const mine = context.role === 'sender' ? { fromConfirmedAt: now } : { toConfirmedAt: now };
    if (next === 'completed') {
      await completeBarter(tx, row, member.id, mine, now);
      return;
    }
    await updateRequest(tx, row.id, mine);
    await notify(tx, otherMemberId(row, member.id), 'completion_requested', row.id, member.id);
    await publishMemberEvents(tx, barterEvents([membersOf(row)]));
  });
}

/** Rate the other member of a completed barter, once (comment moderated; revealed together, ADR 074). */
export async function rate(db: Db, member: Member, id: number, input: RatingInput): Promise<void> {
  await assertAppropriateFor(db, member.id, 'rating', input.comment);
  await act(db, member, id, 'rate', async (tx, { row, now }) => {
    const ratee = otherMemberId(row, member.id);
    if (!ratee) throw accountClosed();
    const stored = await insertRating(
      tx,
      {
        barterRequestId: row.id,
        raterId: member.id,
        rateeId: ratee,
        stars: input.stars,
        comment: input.comment ?? null,
      },
      now,
    );
    if (!stored) throw transition('You have already rated this barter.');
    await notify(tx, ratee, 'rating_received', row.id, member.id);
    await publishMemberEvents(tx, barterEvents([membersOf(row)]));
  });
}

/**
 * Counter a pending proposal (the recipient): a new pending proposal to its sender in the same
 * thread, offering the counterer's own items for the sender's; the countered one is closed. The new
 * request's id.
 */
export async function counter(db: Db, member: Member, id: number, input: Proposal): Promise<number> {
  await assertAppropriateFor(db, member.id, 'proposal', input.message);
  return act(db, member, id, 'counter', async (tx, { row, next, now }) => {
    if (!row.fromUserId) throw accountClosed();
    const created = await storeProposal(
      tx,
      member.id,
      input,
      { recipientId: row.fromUserId, threadId: threadIdOf(row), counterOfId: row.id },
      now,
    );
    await updateRequest(tx, row.id, { status: next, expiresAt: null });
    await notify(tx, created.toUserId, 'proposal_countered', created.id, member.id);
    await publishMemberEvents(tx, barterEvents([membersOf(row), membersOf(created)]));
    return created.id;
  });
}
