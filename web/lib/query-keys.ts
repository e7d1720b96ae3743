import type { BarterBox } from '#common/barter-machine.ts';
import type { CircleBox } from '#common/schemas/circles.ts';

/**
 * Every query key of the web app, made here and nowhere else (ADR 068): a feature reads through its
 * own keys and makes another feature's data stale through these, without importing that feature.
 * The live events (web/features/notifications/live-events.ts) update or invalidate them too.
 */

/** The barter screens. */
export const barterKeys = {
  all: ['barters'] as const,
  lists: () => [...barterKeys.all, 'list'] as const,
  list: (box: BarterBox) => [...barterKeys.lists(), box] as const,
  details: () => [...barterKeys.all, 'detail'] as const,
  detail: (id: number) => [...barterKeys.details(), id] as const,
  /** A conversation, by its thread id. */
  messages: (threadId: number) => [...barterKeys.all, 'messages', threadId] as const,
  /**
   * The messages sent with a negotiation's proposal and counters, read on a barter's page: under its
   * detail, so whatever makes the barter stale (a counter) makes them stale too (ADR 076).
   */
  proposalMessages: (id: number) => [...barterKeys.detail(id), 'proposal-messages'] as const,
  /**
   * The inbox (ADR 076): under the lists, so a new message, a read conversation and a barter's step
   * (which already make the lists stale) refresh it too.
   */
  conversations: () => [...barterKeys.lists(), 'conversations'] as const,
};

export const notificationKeys = {
  all: ['notifications'] as const,
  list: () => [...notificationKeys.all, 'list'] as const,
};

/** Swap days (issue 16): the lists, one swap day, its pick-up sheet; 'swapDay' events make them stale. */
export const swapDayKeys = {
  all: ['swap-days'] as const,
  lists: () => [...swapDayKeys.all, 'lists'] as const,
  detail: (id: number) => [...swapDayKeys.all, 'detail', id] as const,
  sheet: (id: number) => [...swapDayKeys.all, 'sheet', id] as const,
};

/** Trade circles (issue 16): the proposed and past lists, one circle; 'circle' events make them stale. */
export const circleKeys = {
  all: ['circles'] as const,
  lists: () => [...circleKeys.all, 'list'] as const,
  list: (box: CircleBox) => [...circleKeys.lists(), box] as const,
  detail: (id: number) => [...circleKeys.all, 'detail', id] as const,
};

/** The guided start's steps (issue 17): a new want, item or area makes it stale. */
export const gettingStartedKeys = {
  all: ['getting-started'] as const,
};

export const gateKeys = { status: ['gate', 'status'] as const };

export const authKeys = { user: ['auth', 'user'] as const };

export const tradeKeys = {
  all: ['trades'] as const,
  list: (userId: string, limit: number) => ['trades', 'list', userId, limit] as const,
  stats: (userId: string) => ['trades', 'stats', userId] as const,
};

export const placeKeys = {
  all: ['places'] as const,
  /** Every search: ranked near the member's area, so dropped when that area changes. */
  searches: ['places', 'search'] as const,
  search: (query: string) => ['places', 'search', query] as const,
  reverse: (latitude: number, longitude: number) => ['places', 'reverse', latitude, longitude] as const,
};

export const accountKeys = {
  sessions: ['account', 'sessions'] as const,
  /** The member's devices that get Web Push (ADR 087). */
  pushDevices: ['account', 'push-devices'] as const,
  /** How each group of notifications reaches the member: push, e-mail digest or none (ADR 090). */
  notificationChannels: ['account', 'notification-channels'] as const,
};

export const safetyKeys = {
  blocks: ['account', 'blocks'] as const,
  cases: ['moderation', 'cases'] as const,
  audit: ['moderation', 'audit'] as const,
  refusals: ['moderation', 'refusals'] as const,
};

export const unreadKeys = {
  all: ['unread'] as const,
  notifications: ['unread', 'notifications'] as const,
  messages: ['unread', 'messages'] as const,
};

export const flyerKeys = {
  all: ['flyer'] as const,
  neighborhood: () => [...flyerKeys.all, 'neighborhood'] as const,
  /** A QR code, made once per text (no network involved). */
  qrCode: (text: string | undefined) => [...flyerKeys.all, 'qr-code', text] as const,
};

export const memberKeys = {
  all: ['members'] as const,
  profile: (id: string) => ['members', id, 'profile'] as const,
  items: (id: string) => ['members', id, 'items'] as const,
  wants: (id: string) => ['members', id, 'wants'] as const,
  ratings: (id: string) => ['members', id, 'ratings'] as const,
};

export const savedKeys = {
  all: ['saved-items'] as const,
  /** One item's saved state, shared by every toggle that shows it (card, detail, Saved tab). */
  state: (itemId: number) => ['saved-state', itemId] as const,
};

export const feedKeys = {
  all: ['feed'] as const,
  /** One feed's filters (web/features/feed/api/feed.ts `FeedFilters`). */
  list: (filters: object) => [...feedKeys.all, 'list', filters] as const,
  /** "Showing results for guitar" of a search text (ADR 089). */
  showingFor: (q: string) => [...feedKeys.all, 'showing-for', q] as const,
};

export const itemDetailKeys = {
  all: ['item-detail'] as const,
  detail: (id: number) => [...itemDetailKeys.all, id] as const,
};

export const siteKeys = { info: ['site', 'info'] as const };

export const wantKeys = {
  all: ['wants'] as const,
  mine: () => [...wantKeys.all, 'mine'] as const,
  /** "Did this fill your want?" after one completed barter (issue 30). */
  questions: (barterRequestId: number) => [...wantKeys.all, 'questions', barterRequestId] as const,
  /** Every open "Did this fill your want?" of the member, for the Want List (issue 30). */
  openQuestions: () => [...wantKeys.all, 'questions', 'open'] as const,
};

export const itemKeys = {
  all: ['items'] as const,
  mine: () => [...itemKeys.all, 'mine'] as const,
};

export const alertKeys = {
  all: ['alerts'] as const,
  /** The item form's "neighbours want this" count for one draft (ADR 084). */
  wantedCount: (draft: { title: string; category: string; isService: boolean }) =>
    [...alertKeys.all, 'wanted-count', draft] as const,
};

/** The member's saved searches (ADR 084). */
export const savedSearchKeys = { all: ['saved-searches'] as const };
