import { and, count, desc, eq, isNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { type Page, type PageRequest, withTotal } from '../../db/paging';
import { barterRequests, circles, type ItemRow, items, swapDays } from '../../db/schema/trading';
import { users } from '../../db/schema/users';
import type { MemberRefRow } from '../member-refs';

export type NewItemValues = typeof items.$inferInsert;
export type ItemChanges = Partial<
  Pick<
    ItemRow,
    | 'title'
    | 'description'
    | 'category'
    | 'isService'
    | 'imageUrl'
    | 'thumbnailUrl'
    | 'photos'
    | 'condition'
    | 'estimatedValue'
    | 'isActive'
    | 'moderation'
    | 'confirmedAt'
    | 'staleAskedAt'
    | 'stalePausedAt'
  >
>;

export async function insertItem(db: Db, values: NewItemValues): Promise<ItemRow> {
  const [row] = await db.insert(items).values(values).returning();
  if (!row) throw new Error('insert into items returned no row');
  return row;
}

export async function findItemById(db: Db, id: number): Promise<ItemRow | null> {
  const [row] = await db.select().from(items).where(eq(items.id, id)).limit(1);
  return row ?? null;
}

/** Where a traded item went (issue 30): its barter, the receiver as others name them, its swap day. */
export interface ItemTradeRow {
  barterRequestId: number | null;
  receiver: MemberRefRow | null;
  swapDay: { id: number; name: string } | null;
}

export type OwnItemRow = ItemRow & { trade: ItemTradeRow | null };

const receiver = alias(users, 'receiver');

/**
 * One page of a member's items, active and inactive, newest first, and how many there are in all;
 * a traded item with where it went (the other member of its barter, and its swap day).
 */
export async function listItemsByUser(db: Db, userId: string, page: PageRequest): Promise<Page<OwnItemRow>> {
  const found = await db
    .select({
      item: items,
      barterRequestId: barterRequests.id,
      receiver: {
        id: receiver.id,
        displayName: receiver.displayName,
        firstName: receiver.firstName,
        lastName: receiver.lastName,
        profileImageUrl: receiver.profileImageUrl,
      },
      swapDayId: swapDays.id,
      swapDayName: swapDays.name,
    })
    .from(items)
    .leftJoin(barterRequests, eq(barterRequests.id, items.tradedInRequestId))
    .leftJoin(
      receiver,
      eq(
        receiver.id,
        sql`CASE WHEN ${barterRequests.fromUserId} = ${items.userId} THEN ${barterRequests.toUserId} ELSE ${barterRequests.fromUserId} END`,
      ),
    )
    .leftJoin(circles, eq(circles.id, barterRequests.circleId))
    .leftJoin(swapDays, eq(swapDays.id, circles.swapDayId))
    .where(eq(items.userId, userId))
    .orderBy(desc(items.createdAt), desc(items.id))
    .limit(page.limit)
    .offset(page.offset);
  const rows: OwnItemRow[] = found.map((row) => ({
    ...row.item,
    trade:
      row.item.tradedAt === null
        ? null
        : {
            barterRequestId: row.barterRequestId,
            receiver: row.receiver?.id ? row.receiver : null,
            swapDay:
              row.swapDayId !== null && row.swapDayName !== null
                ? { id: row.swapDayId, name: row.swapDayName }
                : null,
          },
  }));
  return withTotal(rows, page, async () => {
    const [row] = await db.select({ n: count() }).from(items).where(eq(items.userId, userId));
    return row?.n ?? 0;
  });
}

/** An item of `userId`, and with `unreservedOnly` one no accepted barter holds (issue 13). */
const ownItem = (id: number, userId: string, unreservedOnly: boolean) =>
  and(
    eq(items.id, id),
    eq(items.userId, userId),
    unreservedOnly ? isNull(items.reservedByRequestId) : undefined,
  );

/**
 * Change an item, only if it still belongs to `userId` (and with `unreservedOnly`, no accepted
 * barter holds it; with `untradedOnly`, it was not traded, issue 30); null when it does not (or is gone).
 */
export async function updateItemOfUser(
  db: Db,
  id: number,
  userId: string,
  changes: ItemChanges,
  options: { unreservedOnly?: boolean; untradedOnly?: boolean } = {},
): Promise<ItemRow | null> {
  const [row] = await db
    .update(items)
    .set({ ...changes, updatedAt: new Date() })
    .where(
      and(
        ownItem(id, userId, options.unreservedOnly ?? false),
        options.untradedOnly ? isNull(items.tradedAt) : undefined,
      ),
    )
    .returning();
  return row ?? null;
}

/** Delete an item, only if it belongs to `userId` and no accepted barter holds it; the deleted row, or null. */
export async function deleteItemOfUser(db: Db, id: number, userId: string): Promise<ItemRow | null> {
  const [row] = await db
    .delete(items)
    .where(ownItem(id, userId, true))
    .returning();
  return row ?? null;
}

/**
 * How many items show this photo URL (large or feed-size, cover or not: ADR 082); photo files are
 * shared by content.
 */
export async function countItemsUsingPhoto(db: Db, url: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(items)
    .where(
      or(
        eq(items.imageUrl, url),
        eq(items.thumbnailUrl, url),
        sql`${items.photos} @> jsonb_build_array(jsonb_build_object('imageUrl', ${url}::text))`,
        sql`${items.photos} @> jsonb_build_array(jsonb_build_object('thumbnailUrl', ${url}::text))`,
      ),
    );
  return row?.n ?? 0;
}

/**
 * The item's photos, its row locked until the transaction ends (ADR 082): two changes of one item's
 * photos (two reorders, an add and a remove) take turns, each judged against what the other left.
 * Only the owner's item no accepted barter holds and no trade took; null otherwise.
 */
export async function lockOwnItemPhotos(
  db: Db,
  id: number,
  userId: string,
): Promise<Pick<ItemRow, 'photos' | 'moderation'> | null> {
  const [row] = await db
    .select({ photos: items.photos, moderation: items.moderation })
    .from(items)
    .where(and(ownItem(id, userId, true), isNull(items.tradedAt)))
    .for('update');
  return row ?? null;
}

/**
 * The member's item, its row locked until the transaction ends (a renewal, ADR 088: it waits for the
 * stale-listings job holding the row and reads what it left); null when it is not theirs or is gone.
 */
export async function lockOwnItem(db: Db, id: number, userId: string): Promise<ItemRow | null> {
  const [row] = await db
    .select()
    .from(items)
    .where(and(eq(items.id, id), eq(items.userId, userId)))
    .for('update');
  return row ?? null;
}
