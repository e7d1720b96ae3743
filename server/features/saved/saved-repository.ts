import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Page, PageRequest } from '../../db/paging';
import { withTotal } from '../../db/paging';
import { queryRows } from '../../db/rows';
import { items, savedItems } from '../../db/schema/trading';
import type { Point } from '../../geo/earth';
import { distanceOrNull, type FeedRow, readCardPage } from '../feed';
import { listedItem } from '../items';
import { notHiddenFrom } from '../safety';

/**
 * Owner and state of an item, to decide whether the viewer may save it; null when there is no such
 * item or its owner and the viewer blocked each other (either way, ADR 025: it does not exist for them).
 */
export async function findItemOwner(
  db: Db,
  itemId: number,
  viewerId: string,
): Promise<{ userId: string; isActive: boolean } | null> {
  const [row] = await db
    .select({ userId: items.userId, isActive: items.isActive })
    .from(items)
    .where(and(eq(items.id, itemId), notHiddenFrom('items.user_id', viewerId)))
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

/**
 * One page of the viewer's saved items that are still listed (active, not reserved by an accepted
 * barter), newest saved first, with how many there are in all (the Saved tab's count).
 */
export async function findSavedItems(
  db: Db,
  viewerId: string,
  origin: Point | null,
  lookingFor: number,
  pageRequest: PageRequest,
): Promise<Page<FeedRow>> {
  const distance = distanceOrNull(origin);
  const page = sql`SELECT i.id, s.created_at AS saved_at, s.id AS saved_id, ${distance} AS distance
    FROM saved_items s JOIN items i ON i.id = s.item_id
    WHERE s.user_id = ${viewerId}::uuid AND ${listedItem('i')} AND ${notHiddenFrom('i.user_id', viewerId)}
    ORDER BY saved_at DESC, saved_id DESC
    LIMIT ${pageRequest.limit}::int OFFSET ${pageRequest.offset}::int`;
  const rows = await readCardPage(db, {
    page,
    viewerId,
    order: [
      ['saved_at', 'DESC'],
      ['saved_id', 'DESC'],
    ],
    lookingFor,
  });
  return withTotal(rows, pageRequest, async () => {
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM saved_items s JOIN items i ON i.id = s.item_id
        WHERE s.user_id = ${viewerId}::uuid AND ${listedItem('i')} AND ${notHiddenFrom('i.user_id', viewerId)}`,
    );
    return row?.n ?? 0;
  });
}
