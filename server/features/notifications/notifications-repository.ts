import { and, count, desc, eq, isNull, lte, sql } from 'drizzle-orm';
import type { MemberRef } from '#common/schemas/barters.ts';
import { intArray } from '../../db/arrays';
import type { Db } from '../../db/client';
import { type Page, type PageRequest, withTotal } from '../../db/paging';
import { queryRows } from '../../db/rows';
import { listingAlerts } from '../../db/schema/alerts';
import {
  barterRequests,
  circles,
  type NotificationRow,
  notifications,
  swapDays,
} from '../../db/schema/trading';
import { users } from '../../db/schema/users';
import { presentMemberRef } from '../member-refs';
import type { NotificationListing, NotificationSwapDay } from './notifications-presenter';

/**
 * The swap day each of these entries is about, by entry id (issue 30): the day of the loop it names
 * (circleId), or of the loop whose hand-over it names (barterRequestId). Entries about no swap day
 * are left out. One statement for any number of entries.
 */
export async function findSwapDaysOfNotifications(
  db: Db,
  ids: readonly number[],
): Promise<Map<number, NonNullable<NotificationSwapDay>>> {
  if (ids.length === 0) return new Map();
  const rows = await queryRows<{ id: number; swap_day_id: number; name: string }>(
    db,
    sql`SELECT n.id, s.id AS swap_day_id, s.name
      FROM ${notifications} n
      JOIN ${circles} c ON c.id = coalesce(n.circle_id,
        (SELECT b.circle_id FROM ${barterRequests} b WHERE b.id = n.barter_request_id))
      JOIN ${swapDays} s ON s.id = c.swap_day_id
      WHERE n.id = ANY(${intArray(ids)}::int[])`,
  );
  return new Map(rows.map((row) => [Number(row.id), { id: Number(row.swap_day_id), name: row.name }]));
}

/**
 * One page of a member's notifications, newest first, each with its actor already presented (one
 * query with a join, not one per entry), and how many there are in all.
 */
export async function listNotifications(
  db: Db,
  userId: string,
  page: PageRequest,
): Promise<
  Page<{
    row: NotificationRow;
    actor: MemberRef | null;
    swapDay: NotificationSwapDay;
    listing: NotificationListing | null;
  }>
> {
  const rows = await db
    .select({
      row: notifications,
      actor: {
        id: users.id,
        displayName: users.displayName,
        firstName: users.firstName,
        lastName: users.lastName,
        profileImageUrl: users.profileImageUrl,
      },
      listing: { itemId: listingAlerts.itemId, matched: listingAlerts.matched },
    })
    .from(notifications)
    .leftJoin(users, eq(users.id, notifications.actorId))
    // A listing alert's item and what it matched (ADR 084), by its primary key's twin index.
    .leftJoin(listingAlerts, eq(listingAlerts.notificationId, notifications.id))
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.id))
    .limit(page.limit)
    .offset(page.offset);
  const days = await findSwapDaysOfNotifications(
    db,
    rows.map(({ row }) => row.id),
  );
  const presented = rows.map(({ row, actor, listing }) => ({
    row,
    // No actor: the system (expiry). An actor whose account is gone has a null actorId too (set null).
    actor: row.actorId === null ? null : presentMemberRef(actor),
    swapDay: days.get(row.id) ?? null,
    listing: listing?.itemId != null && listing.matched != null ? listing : null,
  }));
  return withTotal(presented, page, async () => {
    const [total] = await db
      .select({ n: count() })
      .from(notifications)
      .where(eq(notifications.userId, userId));
    return total?.n ?? 0;
  });
}

/**
 * Mark one of the member's notifications read. 'changed' when it was unread, 'unchanged' when it
 * was read already, 'missing' when the member has no notification with that id.
 */
export async function markNotificationRead(
  db: Db,
  userId: string,
  id: number,
): Promise<'changed' | 'unchanged' | 'missing'> {
  const updated = await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  if (updated.length > 0) return 'changed';
  const [found] = await db
    .select({ id: notifications.id })
    .from(notifications)
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)));
  return found ? 'unchanged' : 'missing';
}

/**
 * Mark the member's unread notifications read (only those up to id `upTo`, when given: entries are
 * only ever added with a higher id, so these are the ones a list that starts at `upTo` showed);
 * returns how many were unread.
 */
export async function markAllNotificationsRead(db: Db, userId: string, upTo?: number): Promise<number> {
  const updated = await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(
      and(
        eq(notifications.userId, userId),
        isNull(notifications.readAt),
        upTo === undefined ? undefined : lte(notifications.id, upTo),
      ),
    )
    .returning({ id: notifications.id });
  return updated.length;
}
