import type { UserRow } from '../db/schema/users';
import { milesBetween, type Point } from '../geo/earth';

/** A member's public point as the database drew it (null without a location). */
export function publicPointOf(member: Pick<UserRow, 'publicLatitude' | 'publicLongitude'>): Point | null {
  if (member.publicLatitude === null || member.publicLongitude === null) return null;
  return { latitude: Number(member.publicLatitude), longitude: Number(member.publicLongitude) };
}

/**
 * The distance `viewer` should be shown to `owner`: between the two PUBLIC points (ADR 059: both see
 * the same figure), in miles to 0.1 as the feeds round (server/geo/README.md). `viewer` is the
 * viewer's row (their public point), or a point taken as theirs.
 */
export function seenMiles(
  viewer: Point | Pick<UserRow, 'publicLatitude' | 'publicLongitude'>,
  owner: Pick<UserRow, 'publicLatitude' | 'publicLongitude'>,
): number {
  const from = 'publicLatitude' in viewer ? publicPointOf(viewer) : viewer;
  const point = publicPointOf(owner);
  if (!point || !from) throw new Error('seenMiles: a member has no public point');
  return Math.round(milesBetween(from, point) * 10) / 10;
}
