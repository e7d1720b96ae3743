import { z } from 'zod';
import { NOTIFICATION_KINDS } from '../notification-text';
import { memberRefSchema } from './barters';
import { ownListQuerySchema } from './listings';
import { wholeNumberParam } from './numbers';

// The kinds and their sentences, which the bell needs to paint, live without zod (ADR 033).
export { NOTIFICATION_KINDS, type NotificationKind, notificationText } from '../notification-text';

/** One entry of the bell's list; it links to the swap day, barter or circle it is about. */
export const notificationSchema = z.object({
  id: z.number().int(),
  kind: z.enum(NOTIFICATION_KINDS),
  barterRequestId: z.number().int().nullable(),
  /** The trade circle it is about (circle_* and swap_day_solved: the member's loop), if any. */
  circleId: z.number().int().nullable(),
  /**
   * The swap day it is about (issue 30): swap_day_solved, and every entry about one of the day's
   * hand-overs; the bell names the day and opens its page instead of the barter or the loop.
   */
  swapDay: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** Who did it; null for the system (expiry) or a deleted account. */
  actor: memberRefSchema.nullable(),
  /** For message_received: how many new messages the entry stands for. */
  count: z.number().int().positive(),
  /**
   * A hand-over reminder's plan as it stood when the reminder went (ADR 078): when the window starts
   * and where; null for every other kind.
   */
  handOver: z.object({ startsAt: z.iso.datetime(), place: z.string() }).nullable(),
  /**
   * A listing alert's item and what it matched (the saved search's name or the want's title, ADR
   * 084); null or absent for every other kind.
   */
  listing: z.object({ itemId: z.number().int(), matched: z.string() }).nullable().optional(),
  /**
   * The member's own listing a "Still available?" entry is about, and its title when asked (ADR
   * 088); absent for every other kind. The bell opens My Items.
   */
  item: z.object({ id: z.number().int(), title: z.string() }).optional(),
  createdAt: z.iso.datetime(),
  read: z.boolean(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationListSchema = z.array(notificationSchema);
export const notificationListQuerySchema = ownListQuerySchema;

/** POST /api/notifications/read-all: `upTo` marks only the entries up to that id (what the bell showed). */
export const notificationReadAllQuerySchema = z.object({
  upTo: wholeNumberParam('upTo', 1, 2_147_483_647).optional(),
});

/** Unread counts, as the header shows them. */
export const unreadCountsSchema = z.object({
  notifications: z.number().int().nonnegative(),
  messages: z.number().int().nonnegative(),
});
export type UnreadCounts = z.infer<typeof unreadCountsSchema>;
