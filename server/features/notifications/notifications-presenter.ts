import type { MemberRef } from '#common/schemas/barters.ts';
import {
  NOTIFICATION_KINDS,
  type Notification,
  type NotificationKind,
} from '#common/schemas/notifications.ts';
import type { NotificationRow } from '../../db/schema/trading';

const isKind = (kind: string): kind is NotificationKind =>
  (NOTIFICATION_KINDS as readonly string[]).includes(kind);

/** The swap day an entry is about (findSwapDaysOfNotifications), by its name. */
export type NotificationSwapDay = Notification['swapDay'];

/** A listing alert's item and what it matched (listing_alerts), for that kind only. */
export type NotificationListing = NonNullable<Notification['listing']>;

/** A stored notification as the bell lists it; `actor` already presented (presentMemberRef). */
export function presentNotification(
  row: NotificationRow,
  actor: MemberRef | null,
  swapDay: NotificationSwapDay,
  listing: NotificationListing | null = null,
): Notification {
  if (!isKind(row.kind)) throw new Error(`Unknown notification kind ${row.kind}`);
  return {
    id: row.id,
    kind: row.kind,
    barterRequestId: row.barterRequestId,
    circleId: row.circleId,
    swapDay,
    actor,
    count: row.count,
    handOver:
      row.handOverStartsAt !== null && row.handOverPlace !== null
        ? { startsAt: row.handOverStartsAt.toISOString(), place: row.handOverPlace }
        : null,
    // Only a listing alert carries it (the key is absent on every other kind).
    ...(listing ? { listing } : {}),
    // Only a stale listing's entry carries its item (ADR 088).
    ...(row.itemId !== null ? { item: { id: row.itemId, title: row.itemTitle ?? '' } } : {}),
    createdAt: row.createdAt.toISOString(),
    read: row.readAt !== null,
  };
}
