import type { UserRow } from '../db/schema/users';
import { milesBetween, type Point } from '../geo/earth';

/** A member's public point as the database drew it (null without a location). */
export function publicPointOf(member: Pick<UserRow, 'publicLatitude' | 'publicLongitude'>): Point | null {
  if (member.publicLatitude === null || member.publicLongitude === null) return null;
  return { latitude: Number(member.publicLatitude), longitude: Number(member.publicLongitude) };
}

/**
 * The distance `viewer` (their own point) should be shown to `owner`: to the owner's PUBLIC point,
 * in miles to 0.1 as the feeds round (server/geo/README.md).
 */
export function seenMiles(viewer: Point, owner: Pick<UserRow, 'publicLatitude' | 'publicLongitude'>): number {
  const point = publicPointOf(owner);
  if (!point) throw new Error('seenMiles: the owner has no public point');
  return Math.round(milesBetween(viewer, point) * 10) / 10;
}
