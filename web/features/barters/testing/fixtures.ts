import type { Barter, BarterItem, ChatMessage } from '../../../../common/schemas/barters';
import type { Item } from '../../../../common/schemas/listings';

/** Test data of the barter screens: plain objects in the API's shapes, with overrides. */

export function barterItem(id: number, overrides: Partial<BarterItem> = {}): BarterItem {
  return {
    id,
    title: `Item ${id}`,
    category: 'tools',
    isService: false,
    thumbnailUrl: null,
    available: true,
    ...overrides,
  };
}

export function barter(overrides: Partial<Barter> = {}): Barter {
  return {
    id: 7,
    threadId: 7,
    status: 'pending',
    role: 'recipient',
    otherMember: { id: 'ann', displayName: 'Ann R.', profileImageUrl: null },
    offeredItems: [barterItem(11, { title: 'Mountain bike' })],
    requestedItems: [barterItem(21, { title: 'Cordless drill' })],
    message: 'Would you swap?',
    createdAt: '2026-03-01T10:00:00.000Z',
    updatedAt: '2026-03-01T10:00:00.000Z',
    expiresAt: '2026-03-15T10:00:00.000Z',
    unreadMessages: 0,
    allowedActions: ['accept', 'decline', 'counter', 'message'],
    counterOfId: null,
    counteredById: null,
    confirmedByMe: false,
    confirmedByOther: false,
    closedBy: null,
    closeReason: null,
    myRating: null,
    theirRating: null,
    circleId: null,
    ...overrides,
  };
}

export function chatMessage(id: number, overrides: Partial<ChatMessage> = {}): ChatMessage {
  return {
    id,
    barterRequestId: 7,
    fromUserId: 'ann',
    fromMe: false,
    content: `Message ${id}`,
    isRead: true,
    createdAt: new Date(Date.UTC(2026, 2, 1, 11, 0, id)).toISOString(),
    ...overrides,
  };
}

/** One of the member's own items (GET /api/items/my). */
export function ownItem(id: number, overrides: Partial<Item> = {}): Item {
  return {
    id,
    title: `My item ${id}`,
    description: 'Description',
    category: 'tools',
    isService: false,
    imageUrl: null,
    thumbnailUrl: null,
    estimatedValue: null,
    isActive: true,
    moderation: null,
    isReserved: false,
    allowedActions: ['edit', 'hide', 'delete'],
    viewCount: 0,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}
