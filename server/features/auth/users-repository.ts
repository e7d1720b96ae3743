import { eq } from 'drizzle-orm';
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

export async function findUserByDemoName(db: Db, demoName: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.demoName, demoName)).limit(1);
  return row ?? null;
}

/** Insert a member; unique violations (e-mail, Google subject, demo name) propagate to the caller. */
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
