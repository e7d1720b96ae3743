import { eq } from 'drizzle-orm';
import type { ProfileInput } from '#common/schemas/profile.ts';
import type { Db } from '../../db/client';
import { type UserRow, users } from '../../db/schema/users';
import { forgetCachedUser } from '../../plugins/session-cache';

/**
 * Save the member's location, coordinates (null when not given) and max travel distance. Their
 * cached sessions are dropped, so their next request reads the new row.
 */
export async function updateProfile(db: Db, userId: string, input: ProfileInput): Promise<UserRow | null> {
  try {
    const [row] = await db
      .update(users)
      .set({
        location: input.location,
        latitude: input.latitude ?? null,
        longitude: input.longitude ?? null,
        maxTravelDistance: input.maxTravelDistance,
      })
      .where(eq(users.id, userId))
      .returning();
    return row ?? null;
  } finally {
    forgetCachedUser(userId);
  }
}
