import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { items, savedItems } from '../../db/schema/items';

/** Owner and state of an item, to decide whether it may be saved; null when there is no such item. */
export async function findItemOwner(
  db: Db,
  itemId: number,
): Promise<{ userId: string; isActive: boolean } | null> {
  const [row] = await db
    .select({ userId: items.userId, isActive: items.isActive })
    .from(items)
    .where(eq(items.id, itemId))
    .limit(1);
  return row ?? null;
}

/** Save the item for the member; true when newly saved, false when it already was (idempotent). */
export async function insertSavedItem(db: Db, userId: string, itemId: number): Promise<boolean> {
  const rows = await db
    .insert(savedItems)
    .values({ userId, itemId })
    .onConflictDoNothing({ target: [savedItems.userId, savedItems.itemId] })
    .returning({ id: savedItems.id });
  return rows.length > 0;
}

/** Forget a saved item; nothing happens when it was not saved. */
export async function deleteSavedItem(db: Db, userId: string, itemId: number): Promise<void> {
  await db.delete(savedItems).where(and(eq(savedItems.userId, userId), eq(savedItems.itemId, itemId)));
}

/** How many items the member has saved (active or not), for tests and counts. */
export async function countSavedItems(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(savedItems)
    .where(eq(savedItems.userId, userId));
  return row?.n ?? 0;
}
