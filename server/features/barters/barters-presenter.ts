import {
  allItemsAvailable,
  allowedActions,
  type BarterContext,
  type BarterStatus,
  barterContext,
  itemAvailable,
} from '#common/barter-machine.ts';
import type { Barter, BarterItem, ChatMessage } from '#common/schemas/barters.ts';
import { presentMemberRef } from '../member-refs';
import type { MessageRowView } from './barter-messages-repository';
import type { RatingRow } from './ratings-repository';
import { type BarterView, threadIdOf } from './requests-repository';

/** The machine's context of a loaded view (common/barter-machine.ts builds it). */
function viewContext(view: BarterView, viewerId: string, now: Date): BarterContext {
  const itemsAvailable = allItemsAvailable(view.items, view.row.id);
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
    ...presentRatings(view, now),
    circleId: row.circleId,
    swapDay: view.swapDay,
  };
}

/**
 * Both ratings as the viewer may see them (issue 30, ADR 074): their own at once, with until when the
 * other member does not see it; the other's only once revealed, before that only until when.
 */
function presentRatings(
  view: BarterView,
  now: Date,
): Pick<Barter, 'myRating' | 'theirRating' | 'myRatingHiddenUntil' | 'theirRatingHiddenUntil'> {
  const hidden = (rating: RatingRow | null) => rating !== null && rating.revealedAt > now;
  const mine = view.myRating;
  const theirs = view.theirRating;
  return {
    myRating: mine ? { stars: mine.stars, comment: mine.comment } : null,
    theirRating: theirs && !hidden(theirs) ? { stars: theirs.stars, comment: theirs.comment } : null,
    myRatingHiddenUntil: mine && hidden(mine) ? mine.revealedAt.toISOString() : null,
    theirRatingHiddenUntil: theirs && hidden(theirs) ? theirs.revealedAt.toISOString() : null,
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
