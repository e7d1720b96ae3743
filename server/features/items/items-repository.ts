import { and, count, desc, eq, isNull, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { type Page, type PageRequest, withTotal } from '../../db/paging';
import { type ItemRow, items } from '../../db/schema/items';

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
    | 'estimatedValue'
    | 'isActive'
    | 'moderation'
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

/** One page of a member's items, active and inactive, newest first, and how many there are in all. */
export async function listItemsByUser(db: Db, userId: string, page: PageRequest): Promise<Page<ItemRow>> {
  const rows = await db
    .select()
    .from(items)
    .where(eq(items.userId, userId))
    .orderBy(desc(items.createdAt), desc(items.id))
    .limit(page.limit)
    .offset(page.offset);
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
 * barter holds it); null when it does not (or is gone).
 */
export async function updateItemOfUser(
  db: Db,
  id: number,
  userId: string,
  changes: ItemChanges,
  options: { unreservedOnly?: boolean } = {},
): Promise<ItemRow | null> {
  const [row] = await db
    .update(items)
    .set({ ...changes, updatedAt: new Date() })
    .where(ownItem(id, userId, options.unreservedOnly ?? false))
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

/** How many items show this photo URL (large or feed-size); photo files are shared by content. */
export async function countItemsUsingPhoto(db: Db, url: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(items)
    .where(or(eq(items.imageUrl, url), eq(items.thumbnailUrl, url)));
  return row?.n ?? 0;
}
