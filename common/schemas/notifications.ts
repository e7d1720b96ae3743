import { z } from 'zod';
import { memberRefSchema } from './barters';
import { ownListQuerySchema } from './listings';

/** Everything the bell tells a member about (issue 13). */
export const NOTIFICATION_KINDS = [
  'proposal_received',
  'proposal_countered',
  'proposal_accepted',
  'proposal_declined',
  'proposal_withdrawn',
  'proposal_expired',
  'proposal_unavailable',
  'barter_cancelled',
  'completion_requested',
  'barter_completed',
  'message_received',
  'rating_received',
  'moderation_warning',
  'circle_proposed',
  'circle_accepted',
  'circle_declined',
  'circle_expired',
  'circle_unavailable',
  'swap_day_solved',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** One entry of the bell's list; it links to the barter it is about. */
export const notificationSchema = z.object({
  id: z.number().int(),
  kind: z.enum(NOTIFICATION_KINDS),
  barterRequestId: z.number().int().nullable(),
  /** The trade circle it is about (circle_* and swap_day_solved: the member's loop), if any. */
  circleId: z.number().int().nullable(),
  /** Who did it; null for the system (expiry) or a deleted account. */
  actor: memberRefSchema.nullable(),
  /** For message_received: how many new messages the entry stands for. */
  count: z.number().int().positive(),
  createdAt: z.iso.datetime(),
  read: z.boolean(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationListSchema = z.array(notificationSchema);
export const notificationListQuerySchema = ownListQuerySchema;

/** Unread counts, as the header shows them. */
export const unreadCountsSchema = z.object({
  notifications: z.number().int().nonnegative(),
  messages: z.number().int().nonnegative(),
});
export type UnreadCounts = z.infer<typeof unreadCountsSchema>;

/** The sentence of a notification ("Ann R. accepted your proposal"). */
export function notificationText(kind: NotificationKind, actorName: string | null, count = 1): string {
  const who = actorName ?? 'A neighbor';
  switch (kind) {
    case 'proposal_received':
      return `${who} proposed a barter`;
    case 'proposal_countered':
      return `${who} countered your proposal`;
    case 'proposal_accepted':
      return `${who} accepted your proposal`;
    case 'proposal_declined':
      return `${who} declined your proposal`;
    case 'proposal_withdrawn':
      return `${who} withdrew their proposal`;
    case 'proposal_expired':
      return 'A proposal expired after 14 days';
    case 'proposal_unavailable':
      return 'An item in a proposal is now reserved in another barter';
    case 'barter_cancelled':
      return `${who} cancelled the barter`;
    case 'completion_requested':
      return `${who} confirmed the barter is completed`;
    case 'barter_completed':
      return 'Barter completed: you can now rate it';
    case 'message_received':
      return count > 1 ? `${count} new messages from ${who}` : `New message from ${who}`;
    case 'rating_received':
      return `${who} rated your barter`;
    case 'moderation_warning':
      return 'A moderator warned you: please keep to the Terms, or your account may be suspended';
    case 'circle_proposed':
      return 'You are in a new trade circle: see who gives what';
    case 'circle_accepted':
      return 'Everyone accepted your trade circle: arrange the hand-overs';
    case 'circle_declined':
      return `${who} declined the trade circle`;
    case 'circle_expired':
      return 'A trade circle expired before everyone accepted';
    case 'circle_unavailable':
      return 'A trade circle fell through: one of its items is no longer available';
    case 'swap_day_solved':
      return 'Your swap day is matched: see what you give and get';
  }
}
