/** The one Earth model every distance in Barterhood uses (feeds, detail, search, flyer, circles). */

/** Mean Earth radius (IUGG) in kilometres. */
export const EARTH_RADIUS_KM = 6371.0088;
/** Kilometres in a mile (international mile). */
export const KM_PER_MILE = 1.609344;
/** The same radius in miles: travel distances and the distances members see are in miles. */
export const EARTH_RADIUS_MILES = EARTH_RADIUS_KM / KM_PER_MILE;
/** Kilometres in one degree of latitude (and of longitude at the equator). */
export const KM_PER_DEGREE = (EARTH_RADIUS_KM * Math.PI) / 180;

/** A position in degrees. */
export interface Point {
  latitude: number;
  longitude: number;
}

const RADIANS = Math.PI / 180;

/** Great-circle distance in miles between two points (haversine). */
export function milesBetween(a: Point, b: Point): number {
  const dLat = (b.latitude - a.latitude) * RADIANS;
  const dLon = (b.longitude - a.longitude) * RADIANS;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.latitude * RADIANS) * Math.cos(b.latitude * RADIANS) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * A member's own saved point, or null when they have none. Their EXACT point: only for what concerns
 * that member alone (places near their own area first), never a distance to another member
 * (`viewerPoint`, ADR 059) nor what anyone else is measured against (sql.ts).
 */
export function ownPoint(member: {
  latitude: number | string | null;
  longitude: number | string | null;
}): Point | null {
  if (member.latitude === null || member.longitude === null) return null;
  return { latitude: Number(member.latitude), longitude: Number(member.longitude) };
}

/**
 * Where a member's distances to other members and their items are measured from: their PUBLIC
 * point (ADR 059), like the other end. So A sees B at the figure B sees A, and nothing a member sees
 * moves while their exact point stays in its cell. Null without a location.
 */
export function viewerPoint(member: {
  publicLatitude: number | string | null;
  publicLongitude: number | string | null;
}): Point | null {
  if (member.publicLatitude === null || member.publicLongitude === null) return null;
  return { latitude: Number(member.publicLatitude), longitude: Number(member.publicLongitude) };
}

/** Great-circle distance in kilometres between two points. */
export function kmBetween(a: Point, b: Point): number {
  return milesBetween(a, b) * KM_PER_MILE;
}
