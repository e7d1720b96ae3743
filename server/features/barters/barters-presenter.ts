import {
  allowedActions,
  BARTER_STATUSES,
  type BarterContext,
  type BarterRole,
  type BarterStatus,
} from '../../../common/barter-machine';
import type { Barter, BarterItem, ChatMessage } from '../../../common/schemas/barters';
import type { BarterRequestRow } from '../../db/schema/barter';
import { presentMemberRef } from '../members/member-ref';
import { type BarterView, type MessageRowView, type RequestItemRow, threadIdOf } from './barters-repository';

const isStatus = (status: string): status is BarterStatus =>
  (BARTER_STATUSES as readonly string[]).includes(status);

/** The request's stored status, checked against the machine's list. */
export function statusOf(row: Pick<BarterRequestRow, 'status'>): BarterStatus {
  if (!isStatus(row.status)) throw new Error(`Unknown barter status ${row.status}`);
  return row.status;
}

/** The viewer's side of a request they take part in. */
export function roleOf(row: Pick<BarterRequestRow, 'fromUserId'>, viewerId: string): BarterRole {
  return row.fromUserId === viewerId ? 'sender' : 'recipient';
}

/** A pending request whose expiry has passed at `now`, marked by the sweep or not. */
export function isOverdue(row: Pick<BarterRequestRow, 'status' | 'expiresAt'>, now: Date): boolean {
  return row.status === 'pending' && row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime();
}

/** The item can change hands in this request: it exists, is active and no other barter holds it. */
export function itemAvailable(
  item: Pick<RequestItemRow, 'exists' | 'isActive' | 'reservedByRequestId'>,
  requestId: number,
): boolean {
  return (
    item.exists &&
    item.isActive &&
    (item.reservedByRequestId === null || item.reservedByRequestId === requestId)
  );
}

/** What the state machine needs about a request and the viewer (common/barter-machine.ts). */
export function barterContext(
  row: BarterRequestRow,
  viewerId: string,
  facts: { itemsAvailable: boolean; ratedByMe: boolean },
  now: Date,
): BarterContext {
  const role = roleOf(row, viewerId);
  const mine = role === 'sender' ? row.fromConfirmedAt : row.toConfirmedAt;
  const theirs = role === 'sender' ? row.toConfirmedAt : row.fromConfirmedAt;
  return {
    status: statusOf(row),
    role,
    expired: isOverdue(row, now),
    itemsAvailable: facts.itemsAvailable,
    confirmedByMe: mine !== null,
    confirmedByOther: theirs !== null,
    ratedByMe: facts.ratedByMe,
  };
}

/** The machine's context of a loaded view. */
export function viewContext(view: BarterView, viewerId: string, now: Date): BarterContext {
  const itemsAvailable =
    view.items.length > 0 && view.items.every((item) => itemAvailable(item, view.row.id));
  return barterContext(view.row, viewerId, { itemsAvailable, ratedByMe: view.myRating !== null }, now);
}

function presentItems(view: BarterView, side: 'from' | 'to'): BarterItem[] {
  return view.items
    .filter((item) => item.side === side)
    .map((item) => ({
      id: item.exists ? item.itemId : null,
      title: item.title,
      category: item.category,
      isService: item.isService,
      thumbnailUrl: item.exists ? item.thumbnailUrl : null,
      available: itemAvailable(item, view.row.id),
    }));
}

/**
 * A barter request as `viewerId` (one of its members) sees it. A whitelist: the other member as a
 * reference (never an e-mail or a position), the items as proposed with whether each can still
 * change hands, and the actions the machine allows the viewer now. A pending request past its
 * expiry shows as expired before the sweep marks it.
 */
export function presentBarter(view: BarterView, viewerId: string, now: Date): Barter {
  const { row } = view;
  const context = viewContext(view, viewerId, now);
  const other = context.role === 'sender' ? view.toUser : view.fromUser;
  const status: BarterStatus = context.expired ? 'expired' : context.status;
  return {
    id: row.id,
    threadId: threadIdOf(row),
    status,
    role: context.role,
    otherMember: presentMemberRef(other),
    offeredItems: presentItems(view, 'from'),
    requestedItems: presentItems(view, 'to'),
    message: row.message,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    expiresAt: status === 'pending' && row.expiresAt ? row.expiresAt.toISOString() : null,
    unreadMessages: view.unreadMessages,
    allowedActions: allowedActions(context),
    counterOfId: row.counterOfId,
    counteredById: view.counteredById,
    confirmedByMe: context.confirmedByMe,
    confirmedByOther: context.confirmedByOther,
    closedBy: row.closedById === null ? null : row.closedById === viewerId ? 'me' : 'them',
    closeReason: row.closeReason,
    myRating: view.myRating,
    theirRating: view.theirRating,
    circleId: row.circleId,
  };
}

/** A message of a conversation as `viewerId` sees it. */
export function presentChatMessage(row: MessageRowView, viewerId: string): ChatMessage {
  return {
    id: row.id,
    barterRequestId: row.barterRequestId,
    fromUserId: row.fromUserId,
    fromMe: row.fromUserId === viewerId,
    content: row.content,
    isRead: row.isRead,
    createdAt: row.createdAt.toISOString(),
  };
}
