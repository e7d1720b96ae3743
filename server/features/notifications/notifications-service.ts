import type { Notification, UnreadCounts } from '#common/schemas/notifications.ts';
import type { Db } from '../../db/client';
import type { Page, PageRequest } from '../../db/paging';
import { notFound } from '../../errors';
import { publishMemberEvents } from '../../events/publish';
import { presentNotification } from './notifications-presenter';
import {
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
} from './notifications-repository';
import { countsEvent, unreadCounts } from './notify';

/** The bell's list: one page, newest first. */
export async function notificationPage(
  db: Db,
  userId: string,
  page: PageRequest,
): Promise<Page<Notification>> {
  const found = await listNotifications(db, userId, page);
  return {
    rows: found.rows.map(({ row, actor, swapDay, listing }) =>
      presentNotification(row, actor, swapDay, listing),
    ),
    total: found.total,
  };
}

/**
 * Mark a notification of the member read (404 when it is not theirs) and return their unread
 * counts; when that changed them, their other open pages hear of it (a 'counts' event, sent when
 * the transaction commits).
 */
export function readNotification(db: Db, userId: string, id: number): Promise<UnreadCounts> {
  return db.transaction(async (tx) => {
    const result = await markNotificationRead(tx, userId, id);
    if (result === 'missing') throw notFound('Notification not found');
    return result === 'changed' ? publishCounts(tx, userId) : unreadCounts(tx, userId);
  });
}

/**
 * Mark all the member's notifications read (up to id `upTo`, when given: what the opened bell showed,
 * not one that arrived since) and return their unread counts (see readNotification). Idempotent.
 */
export function readAllNotifications(db: Db, userId: string, upTo?: number): Promise<UnreadCounts> {
  return db.transaction(async (tx) => {
    const changed = await markAllNotificationsRead(tx, userId, upTo);
    return changed > 0 ? publishCounts(tx, userId) : unreadCounts(tx, userId);
  });
}

async function publishCounts(db: Db, userId: string): Promise<UnreadCounts> {
  const event = await countsEvent(db, userId);
  await publishMemberEvents(db, [event]);
  return event.data;
}
