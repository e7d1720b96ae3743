import type { MemberRef } from '../../../common/schemas/barters';
import {
  NOTIFICATION_KINDS,
  type Notification,
  type NotificationKind,
} from '../../../common/schemas/notifications';
import type { NotificationRow } from '../../db/schema/barter';

const isKind = (kind: string): kind is NotificationKind =>
  (NOTIFICATION_KINDS as readonly string[]).includes(kind);

/** A stored notification as the bell lists it; `actor` already presented (presentMemberRef). */
export function presentNotification(row: NotificationRow, actor: MemberRef | null): Notification {
  if (!isKind(row.kind)) throw new Error(`Unknown notification kind ${row.kind}`);
  return {
    id: row.id,
    kind: row.kind,
    barterRequestId: row.barterRequestId,
    circleId: row.circleId,
    actor,
    count: row.count,
    createdAt: row.createdAt.toISOString(),
    read: row.readAt !== null,
  };
}
