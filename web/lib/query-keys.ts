import type { BarterBox } from '../../common/barter-machine';
import type { CircleBox } from '../../common/schemas/circles';

/**
 * Query keys of the barter screens, in one place: the pages read through them and the live events
 * (web/features/notifications/live-events.ts) update or invalidate them.
 */
export const barterKeys = {
  all: ['barters'] as const,
  lists: () => [...barterKeys.all, 'list'] as const,
  list: (box: BarterBox) => [...barterKeys.lists(), box] as const,
  details: () => [...barterKeys.all, 'detail'] as const,
  detail: (id: number) => [...barterKeys.details(), id] as const,
  /** A conversation, by its thread id. */
  messages: (threadId: number) => [...barterKeys.all, 'messages', threadId] as const,
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
