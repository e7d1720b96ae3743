import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/users';
import { notFound } from '../../errors';

// Any UUID PostgreSQL accepts; anything else cannot name a member.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether the text can name a member at all (a UUID), so no malformed id reaches the database. */
export function isMemberId(id: string): boolean {
  return UUID.test(id);
}

/** True when a member with this id exists. */
export async function memberExists(db: Db, userId: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
  return row !== undefined;
}

/**
 * The member a path's `:id` names, in lower case; 404 'Member not found.' alike for a malformed id
 * and an unknown one (the member page and the trades routes).
 */
export async function requireMemberId(db: Db, id: string): Promise<string> {
  if (!isMemberId(id) || !(await memberExists(db, id))) throw notFound('Member not found.');
  return id.toLowerCase();
}
