import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { type NewUserRow, type UserRow, users } from '../../db/schema/users';
import { forgetCachedUser } from '../../plugins/session-cache';

/** The member with this (already normalised) e-mail. */
export async function findUserByEmail(db: Db, email: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return row ?? null;
}

export async function findUserByGoogleSub(db: Db, googleSub: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.googleSub, googleSub)).limit(1);
  return row ?? null;
}

/** The demo account with this id; never a member who signs in another way. */
export async function findDemoUserById(db: Db, id: string): Promise<UserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), eq(users.isDemo, true)))
    .limit(1);
  return row ?? null;
}

/** Give a demo account the name typed at its latest demo login (its cached sessions are dropped). */
export async function renameDemoUser(
  db: Db,
  id: string,
  names: { demoName: string; firstName: string; lastName: string | null },
): Promise<UserRow> {
  try {
    const [row] = await db
      .update(users)
      .set(names)
      .where(and(eq(users.id, id), eq(users.isDemo, true)))
      .returning();
    if (!row) throw new Error('update of a demo account returned no row');
    return row;
  } finally {
    forgetCachedUser(id);
  }
}

/** Insert a member; unique violations (e-mail, Google subject) propagate to the caller. */
export async function insertUser(db: Db, values: NewUserRow): Promise<UserRow> {
  const [row] = await db.insert(users).values(values).returning();
  if (!row) throw new Error('insert into users returned no row');
  return row;
}

/** Link a Google subject to an existing member (their cached sessions are dropped). */
export async function setGoogleSub(db: Db, userId: string, googleSub: string): Promise<UserRow> {
  try {
    const [row] = await db.update(users).set({ googleSub }).where(eq(users.id, userId)).returning();
    if (!row) throw new Error('update of users returned no row');
    return row;
  } finally {
    forgetCachedUser(userId);
  }
}

/**
 * Write columns of a member's row, and drop their cached sessions in this process (whatever the
 * outcome), so their next request reads the new row. Null when there is no such member.
 */
export async function updateUserRow(
  db: Db,
  userId: string,
  values: Partial<NewUserRow>,
): Promise<UserRow | null> {
  try {
    const [row] = await db.update(users).set(values).where(eq(users.id, userId)).returning();
    return row ?? null;
  } finally {
    forgetCachedUser(userId);
  }
}
