import { sql } from 'drizzle-orm';
import type { GettingStarted } from '#common/schemas/getting-started.ts';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/rows';
import type { UserRow } from '../../db/schema/users';
import { updateUserRow } from '../auth';

/**
 * Where the member stands in the guided start (issue 17): an area (a point to measure distances
 * from), a want, an item (any, traded ones included). One read on the per-member indexes.
 */
export async function gettingStartedOf(db: Db, member: UserRow): Promise<GettingStarted> {
  const [row] = await queryRows<{ want: boolean; item: boolean }>(
    db,
    sql`SELECT EXISTS (SELECT 1 FROM wants WHERE user_id = ${member.id}) AS want,
               EXISTS (SELECT 1 FROM items WHERE user_id = ${member.id}) AS item`,
  );
  return {
    area: member.latitude !== null && member.longitude !== null,
    want: row?.want === true,
    item: row?.item === true,
    completed: member.onboardingCompleted,
  };
}

/** Put the guide away (skipped or finished), or bring it back. */
export async function setGettingStartedCompleted(
  db: Db,
  member: UserRow,
  completed: boolean,
): Promise<GettingStarted> {
  // Through the one member-row writer, which drops the member's cached sessions.
  const row = await updateUserRow(db, member.id, { onboardingCompleted: completed });
  return gettingStartedOf(db, row ?? { ...member, onboardingCompleted: completed });
}
