import { z } from 'zod';
import type { MemberEventType } from '../member-events';
import { chatMessageSchema } from './barters';
import { notificationSchema, unreadCountsSchema } from './notifications';

/**
 * What GET /api/events (server-sent events) pushes to a member's open pages (issue 13). Each event
 * has an opaque `id` (for catch-up after a reconnect, via Last-Event-ID; ADR 054), a `type` (the SSE event name) and
 * JSON `data` of the shape below.
 */
export const memberEventSchemas = {
  /** New unread counts (the header's badges). */
  counts: unreadCountsSchema,
  /** A new entry on the bell's list, and the counts after it. */
  notification: z.object({ notification: notificationSchema, counts: unreadCountsSchema }),
  /** A message in one of the member's conversations (theirs too, for their other pages). */
  message: z.object({ message: chatMessageSchema, counts: unreadCountsSchema }),
  /** A barter of the member changed (state, items, confirmations, ratings): read it again. */
  barter: z.object({ barterRequestId: z.number().int(), threadId: z.number().int() }),
  /** A trade circle of the member changed (proposed, accepted by someone, dissolved): read it again. */
  circle: z.object({ circleId: z.number().int() }),
  /** A swap day the member organises or joined changed (joined, offers, solved): read it again. */
  swapDay: z.object({ swapDayId: z.number().int() }),
  /** The page was away too long to catch up event by event: read everything again. */
  resync: z.object({}),
} as const satisfies Record<MemberEventType, z.ZodType>;

export type MemberEventData<T extends MemberEventType> = z.infer<(typeof memberEventSchemas)[T]>;
