import { and, count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { type Page, type PageRequest, withTotal } from '../../db/paging';
import { type WantRow, wants } from '../../db/schema/trading';

export type NewWantValues = typeof wants.$inferInsert;
export type WantChanges = Partial<
  Pick<
    WantRow,
    | 'title'
    | 'description'
    | 'category'
    | 'isService'
    | 'maxValue'
    | 'isActive'
    | 'fulfilledAt'
    | 'fulfilledByRequestId'
  >
>;

export async function insertWant(db: Db, values: NewWantValues): Promise<WantRow> {
  const [row] = await db.insert(wants).values(values).returning();
  if (!row) throw new Error('insert into wants returned no row');
  return row;
}

export async function findWantById(db: Db, id: number): Promise<WantRow | null> {
  const [row] = await db.select().from(wants).where(eq(wants.id, id)).limit(1);
  return row ?? null;
}

/** One page of a member's wants, active and inactive, newest first, and how many there are in all. */
export async function listWantsByUser(db: Db, userId: string, page: PageRequest): Promise<Page<WantRow>> {
  const rows = await db
    .select()
    .from(wants)
    .where(eq(wants.userId, userId))
    .orderBy(desc(wants.createdAt), desc(wants.id))
    .limit(page.limit)
    .offset(page.offset);
  return withTotal(rows, page, async () => {
    const [row] = await db.select({ n: count() }).from(wants).where(eq(wants.userId, userId));
    return row?.n ?? 0;
  });
}

/** Change a want, only if it still belongs to `userId`; null when it does not (or is gone). */
export async function updateWantOfUser(
  db: Db,
  id: number,
  userId: string,
  changes: WantChanges,
): Promise<WantRow | null> {
  const [row] = await db
    .update(wants)
    .set(changes)
    .where(and(eq(wants.id, id), eq(wants.userId, userId)))
    .returning();
  return row ?? null;
}

/** Delete a want, only if it belongs to `userId`; the deleted row, or null. */
export async function deleteWantOfUser(db: Db, id: number, userId: string): Promise<WantRow | null> {
  const [row] = await db
    .delete(wants)
    .where(and(eq(wants.id, id), eq(wants.userId, userId)))
    .returning();
  return row ?? null;
}
