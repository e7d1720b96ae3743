import { and, between, type SQL, sql } from 'drizzle-orm';
import { users } from '../../db/schema/users';

/** Mean Earth radius in miles: travel distances (users.maxTravelDistance) are in miles. */
export const EARTH_RADIUS_MILES = 3958.8;

/** A circle on the map: the member's position and how far they travel. */
export interface Area {
  latitude: number;
  longitude: number;
  radiusMiles: number;
}

/** The latitude/longitude box around an area; `longitude` is null when the box would wrap a pole or ±180°. */
export interface BoundingBox {
  latitude: [number, number];
  longitude: [number, number] | null;
}

const DEGREES = 180 / Math.PI;

/**
 * The smallest latitude/longitude box that holds the whole circle, for an indexed prefilter
 * (docs/stack-notes.md). Near a pole or across ±180° the longitude bound is dropped: the exact
 * distance check still filters, only the prefilter is coarser.
 */
export function boundingBox({ latitude, longitude, radiusMiles }: Area): BoundingBox {
  const dLat = (radiusMiles / EARTH_RADIUS_MILES) * DEGREES;
  const minLat = latitude - dLat;
  const maxLat = latitude + dLat;
  if (minLat <= -90 || maxLat >= 90)
    return { latitude: [Math.max(minLat, -90), Math.min(maxLat, 90)], longitude: null };
  // The widest longitude span of the circle is at the latitude where it touches the box's meridians.
  const dLon = Math.asin(Math.sin(radiusMiles / EARTH_RADIUS_MILES) / Math.cos(latitude / DEGREES)) * DEGREES;
  const minLon = longitude - dLon;
  const maxLon = longitude + dLon;
  if (!Number.isFinite(dLon) || minLon < -180 || maxLon > 180)
    return { latitude: [minLat, maxLat], longitude: null };
  return { latitude: [minLat, maxLat], longitude: [minLon, maxLon] };
}

/** Great-circle distance in miles from the area's centre to a member's stored position (haversine, inline SQL). */
export function milesFrom(area: Area): SQL<number> {
  const lat = sql`${area.latitude}::float8`;
  const lon = sql`${area.longitude}::float8`;
  return sql<number>`(${EARTH_RADIUS_MILES}::float8 * 2 * asin(least(1, sqrt(
    power(sin(radians(${users.latitude}::float8 - ${lat}) / 2), 2)
    + cos(radians(${lat})) * cos(radians(${users.latitude}::float8))
      * power(sin(radians(${users.longitude}::float8 - ${lon}) / 2), 2)))))`;
}

/**
 * A condition on `users` (joined in the query): the member lives within the area. The box uses
 * users_lat_lon_idx; members without a position never match.
 */
export function livesWithin(area: Area): SQL {
  const box = boundingBox(area);
  return and(
    between(users.latitude, box.latitude[0], box.latitude[1]),
    box.longitude ? between(users.longitude, box.longitude[0], box.longitude[1]) : undefined,
    sql`${milesFrom(area)} <= ${area.radiusMiles}::float8`,
  ) as SQL;
}
