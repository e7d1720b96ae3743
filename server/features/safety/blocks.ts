import { and, eq, or, sql } from 'drizzle-orm';
import { memberDisplayName } from '#common/member-name.ts';
import { SAFETY_ERROR_CODES } from '#common/schemas/safety.ts';
import type { Db } from '../../db/client';
import { memberBlocks } from '../../db/schema/safety';
import { barterRequests } from '../../db/schema/trading';
import { users } from '../../db/schema/users';
import { badRequest, forbidden } from '../../errors';

/** Either member blocked the other. */
export async function areHidden(db: Db, a: string, b: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(memberBlocks)
    .where(
      or(
        and(eq(memberBlocks.blockerId, a), eq(memberBlocks.blockedId, b)),
        and(eq(memberBlocks.blockerId, b), eq(memberBlocks.blockedId, a)),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Whether `blockerId` blocked `blockedId` (one direction only: the blocker may be told, nobody else). */
export async function hasBlocked(db: Db, blockerId: string, blockedId: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(memberBlocks)
    .where(and(eq(memberBlocks.blockerId, blockerId), eq(memberBlocks.blockedId, blockedId)))
    .limit(1);
  return row !== undefined;
}

/** 403 MEMBER_BLOCKED when either blocked the other: no proposals, no messages. */
export async function assertNotHidden(db: Db, a: string, b: string): Promise<void> {
  if (await areHidden(db, a, b)) {
    throw forbidden("You can't trade or talk with this member.", SAFETY_ERROR_CODES.memberBlocked);
  }
}

/**
 * Block a member: from now on neither sees the other's listings, proposes to or writes to the other,
 * and their pending proposals to each other are withdrawn (in one transaction). Blocking twice is fine.
 */
export async function blockMember(
  db: Db,
  blockerId: string,
  blockedId: string,
): Promise<{ withdrawn: number[] }> {
  if (blockerId === blockedId) throw badRequest("You can't block yourself.");
  return db.transaction(async (tx) => {
    await tx.insert(memberBlocks).values({ blockerId, blockedId }).onConflictDoNothing();
    const between = or(
      and(eq(barterRequests.fromUserId, blockerId), eq(barterRequests.toUserId, blockedId)),
      and(eq(barterRequests.fromUserId, blockedId), eq(barterRequests.toUserId, blockerId)),
    );
    const withdrawn = await tx
      .update(barterRequests)
      .set({ status: 'withdrawn', updatedAt: new Date() })
      .where(and(eq(barterRequests.status, 'pending'), between))
      .returning({ id: barterRequests.id });
    return { withdrawn: withdrawn.map((row) => row.id) };
  });
}

/** Unblock (fine when there was no block). */
export async function unblockMember(db: Db, blockerId: string, blockedId: string): Promise<void> {
  await db
    .delete(memberBlocks)
    .where(and(eq(memberBlocks.blockerId, blockerId), eq(memberBlocks.blockedId, blockedId)));
}

/** Whom the member blocked, newest first, with the name they go by. */
export async function listBlocked(db: Db, blockerId: string) {
  const rows = await db
    .select({
      id: memberBlocks.blockedId,
      displayName: users.displayName,
      firstName: users.firstName,
      lastName: users.lastName,
      blockedAt: memberBlocks.createdAt,
    })
    .from(memberBlocks)
    .innerJoin(users, eq(users.id, memberBlocks.blockedId))
    .where(eq(memberBlocks.blockerId, blockerId))
    .orderBy(sql`${memberBlocks.createdAt} DESC`);
  return rows.map((row) => ({
    id: row.id,
    name: row.displayName ?? memberDisplayName(row.firstName, row.lastName),
    blockedAt: row.blockedAt.toISOString(),
  }));
}
