import { type SQL, sql } from 'drizzle-orm';
import { users } from '../db/schema/users';
import { EARTH_RADIUS_MILES, type Point } from './earth';

/**
 * The one place distances and radius tests are written in SQL (server/geo/README.md). Everything
 * another member can observe (a distance, being inside a radius, an order by distance, nearness
 * points) is measured from the viewer's own point to the other member's PUBLIC point: only the
 * accessors below name columns, and they name only columns that hold a public point.
 */

declare const publicPointBrand: unique symbol;

/**
 * Two SQL expressions holding a public point (never an exact one): a member's public point or an
 * item's copy of its owner's. Made only by the accessors of this module.
 */
export interface PublicPoint {
  readonly latitude: SQL;
  readonly longitude: SQL;
  readonly [publicPointBrand]: true;
}

const publicPoint = (latitude: SQL, longitude: SQL) => ({ latitude, longitude }) as PublicPoint;

/** A member's public point, from `users` under the alias `u` (users_public_lat_lon_idx). */
export function memberPoint(u = 'u'): PublicPoint {
  return publicPoint(sql.raw(`${u}.public_latitude`), sql.raw(`${u}.public_longitude`));
}

/** An item's copy of its owner's public point (kept by triggers), from `items` under the alias `i`. */
export function itemPoint(i = 'i'): PublicPoint {
  return publicPoint(sql.raw(`${i}.latitude`), sql.raw(`${i}.longitude`));
}

/**
 * A swap day's point, from `swap_days` under the alias `s`: its organizer's public point when it was
 * organized (copied by server/features/swap-days, never the exact one).
 */
export function swapDayPoint(s = 's'): PublicPoint {
  return publicPoint(sql.raw(`${s}.latitude`), sql.raw(`${s}.longitude`));
}

/** A member's public point in a drizzle query builder over `users` (columns by table name). */
export const usersPublicPoint: PublicPoint = publicPoint(
  sql`${users.publicLatitude}`,
  sql`${users.publicLongitude}`,
);

/** Degrees around an origin that contain every point within `miles` (lon null: no useful bound). */
export interface BoundingBox {
  latMin: number;
  latMax: number;
  lon: { min: number; max: number } | null;
}

const DEGREES = 180 / Math.PI;
/** Widens the box by about 0.1 m, so a point on the circle is never lost to rounding. */
const BOX_MARGIN_DEGREES = 1e-6;

/**
 * The latitude/longitude box around `origin` containing the whole circle of `miles`. The longitude
 * span is the exact great-circle one (asin(sin(d)/cos(lat))); near a pole, or across the 180th
 * meridian, longitude is left unbounded and the distance test alone decides.
 */
export function boundingBox(origin: Point, miles: number): BoundingBox {
  const angular = miles / EARTH_RADIUS_MILES;
  const dLat = angular * DEGREES + BOX_MARGIN_DEGREES;
  const latMin = Math.max(-90, origin.latitude - dLat);
  const latMax = Math.min(90, origin.latitude + dLat);
  const ratio = Math.sin(angular) / Math.cos(origin.latitude / DEGREES);
  if (latMin <= -90 || latMax >= 90 || !(ratio < 1)) return { latMin, latMax, lon: null };
  const dLon = Math.asin(ratio) * DEGREES + BOX_MARGIN_DEGREES;
  const min = origin.longitude - dLon;
  const max = origin.longitude + dLon;
  if (min < -180 || max > 180) return { latMin, latMax, lon: null };
  return { latMin, latMax, lon: { min, max } };
}

/**
 * A square inside the circle of `miles` around `origin` (1% smaller, and sized at the latitude
 * nearest the equator), where every point is certainly within the radius. Null near the poles or
 * the 180th meridian.
 */
export function innerBox(
  origin: Point,
  miles: number,
): { latMin: number; latMax: number; lonMin: number; lonMax: number } | null {
  const halfMiles = (miles / Math.SQRT2) * 0.99;
  const dLat = (halfMiles / EARTH_RADIUS_MILES) * DEGREES;
  const nearestEquator = Math.max(0, Math.abs(origin.latitude) - dLat);
  if (nearestEquator + 2 * dLat >= 89) return null;
  const dLon = dLat / Math.cos(nearestEquator / DEGREES);
  const lonMin = origin.longitude - dLon;
  const lonMax = origin.longitude + dLon;
  if (lonMin < -180 || lonMax > 180) return null;
  return { latMin: origin.latitude - dLat, latMax: origin.latitude + dLat, lonMin, lonMax };
}

/**
 * Great-circle miles (haversine, float8) from `origin` to `point`. NULL when either has no
 * location: absent location means no distance (a bare `least(1, sqrt(NULL))` would give 1, half
 * the Earth's circumference, 12436.8 miles, because least() skips NULLs).
 */
export function distanceMiles(origin: Point | null, point: PublicPoint): SQL {
  if (!origin) return sql`NULL::float8`;
  return haversineMiles(sql`${origin.latitude}::float8`, sql`${origin.longitude}::float8`, point);
}

/**
 * A member's own (exact) point as SQL, from `users` under the alias `u`: only ever the origin of
 * what that member sees (the match graph measures each member's matches from it).
 */
export interface OwnPointSql {
  readonly latitude: SQL;
  readonly longitude: SQL;
}

export function ownPointOf(u = 'u'): OwnPointSql {
  return { latitude: sql.raw(`${u}.latitude`), longitude: sql.raw(`${u}.longitude`) };
}

/** distanceMiles from an origin that is itself a column (a member's own point); NULL without both. */
export function distanceMilesFrom(origin: OwnPointSql, point: PublicPoint): SQL {
  return sql`(CASE WHEN ${origin.latitude} IS NULL OR ${origin.longitude} IS NULL THEN NULL::float8
    ELSE ${haversineMiles(sql`${origin.latitude}::float8`, sql`${origin.longitude}::float8`, point)} END)`;
}

function haversineMiles(lat: SQL, lon: SQL, point: PublicPoint): SQL {
  const pLat = sql`${point.latitude}::float8`;
  const pLon = sql`${point.longitude}::float8`;
  return sql`(CASE WHEN ${point.latitude} IS NULL OR ${point.longitude} IS NULL THEN NULL::float8
    ELSE 2 * ${sql.raw(String(EARTH_RADIUS_MILES))} * asin(least(1.0, sqrt(
      power(sin(radians(${pLat} - ${lat}) / 2), 2)
      + cos(radians(${lat})) * cos(radians(${pLat})) * power(sin(radians(${pLon} - ${lon}) / 2), 2))))
    END)`;
}

/**
 * A member's public point on the unit sphere, as indexed by users_public_sphere_idx (migration
 * 0011): the key of nearest-first scans (memberSphere <-> originSphere), from `users` under `u`.
 */
export function memberSphere(u = 'u'): SQL {
  const lat = sql.raw(`radians(${u}.public_latitude::float8)`);
  const lon = sql.raw(`radians(${u}.public_longitude::float8)`);
  return sql`cube(ARRAY[cos(${lat}) * cos(${lon}), cos(${lat}) * sin(${lon}), sin(${lat})])`;
}

/** The viewer's own point on the unit sphere (a constant of the statement), for memberSphere's index. */
export function originSphere(origin: Point): SQL {
  const lat = (origin.latitude * Math.PI) / 180;
  const lon = (origin.longitude * Math.PI) / 180;
  const xyz = [Math.cos(lat) * Math.cos(lon), Math.cos(lat) * Math.sin(lon), Math.sin(lat)];
  return sql`cube(ARRAY[${xyz[0]}::float8, ${xyz[1]}::float8, ${xyz[2]}::float8])`;
}

/**
 * `point` lies within `miles` of `origin`: the bounding box (a range of the point's btree index:
 * users_public_lat_lon_idx, items_active_category_lat_idx), then the exact distance test, skipped
 * inside the inner square where the answer is certainly yes (the trigonometry is most of the cost
 * of a radius test over thousands of rows). Never true for a point without a location.
 */
export function withinRadius(origin: Point, miles: number, point: PublicPoint): SQL {
  const box = boundingBox(origin, miles);
  const { latitude: lat, longitude: lon } = point;
  const parts: SQL[] = [sql`${lat} BETWEEN ${box.latMin}::numeric AND ${box.latMax}::numeric`];
  if (box.lon) parts.push(sql`${lon} BETWEEN ${box.lon.min}::numeric AND ${box.lon.max}::numeric`);
  const inner = innerBox(origin, miles);
  const exact = sql`${distanceMiles(origin, point)} <= ${miles}::float8`;
  parts.push(
    inner
      ? sql`((${lat} BETWEEN ${inner.latMin}::numeric AND ${inner.latMax}::numeric
              AND ${lon} BETWEEN ${inner.lonMin}::numeric AND ${inner.lonMax}::numeric) OR ${exact})`
      : exact,
  );
  return sql`(${sql.join(parts, sql` AND `)})`;
}

/**
 * The box on the unit sphere's axes around `origin` holding every point within `miles` of it
 * (straight-line distance at most 2 sin(d / 2R), plus a margin), for memberSphere's index: it bounds
 * a nearest-first walk to the radius.
 */
export function sphereBox(origin: Point, miles: number): SQL {
  const lat = (origin.latitude * Math.PI) / 180;
  const lon = (origin.longitude * Math.PI) / 180;
  const xyz = [Math.cos(lat) * Math.cos(lon), Math.cos(lat) * Math.sin(lon), Math.sin(lat)];
  const chord = 2 * Math.sin(Math.min(Math.PI, miles / EARTH_RADIUS_MILES) / 2) + 1e-9;
  const low = xyz.map((v) => v - chord);
  const high = xyz.map((v) => v + chord);
  return sql`cube(ARRAY[${low[0]}::float8, ${low[1]}::float8, ${low[2]}::float8], ARRAY[${high[0]}::float8, ${high[1]}::float8, ${high[2]}::float8])`;
}
