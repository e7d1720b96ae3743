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

/** A stored notification as the bell lists it; `actor` already presented (presentMemberRef). */
export function presentNotification(
  row: NotificationRow,
  actor: MemberRef | null,
  swapDay: NotificationSwapDay,
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
    createdAt: row.createdAt.toISOString(),
    read: row.readAt !== null,
  };
}
