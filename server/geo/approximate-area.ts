import type { ApproximateArea } from '#common/schemas/places.ts';
import type { Point } from './earth';
import { MAX_DISPLACEMENT_KM } from './public-point';

/**
 * What a map may show of another member (item detail, member page): a circle around their PUBLIC
 * point rounded to 0.01 degree (about 1.1 km of latitude, less of longitude). Made from the public
 * point alone, it tells nothing the distances do not already tell (they find the public point to
 * about 0.1 mile, server/geo/triangulation.test.ts), and the exact point is never read.
 */

/** Decimals the centre keeps: 0.01 degree. */
export const AREA_CENTRE_DECIMALS = 2;

/** The farthest the rounded centre can be from the public point: half a 0.01-degree cell's diagonal at most. */
const ROUNDING_KM = (0.005 * Math.SQRT2 * 6371.0088 * Math.PI) / 180;

/**
 * The circle's radius: the farthest an exact point can be from its public point (about 1.51 km)
 * plus the rounding (at most about 0.79 km), rounded up to 2.5 km. The member is somewhere inside.
 */
export const AREA_RADIUS_METERS = Math.ceil(((MAX_DISPLACEMENT_KM + ROUNDING_KM) * 1000) / 500) * 500;

const round = (value: number) => {
  const factor = 10 ** AREA_CENTRE_DECIMALS;
  return Math.round(value * factor) / factor;
};

/**
 * The approximate area around a public point, with the name of the town nearest it (the caller's:
 * server/features/places names it); null without a point.
 */
export function approximateArea(
  publicPoint: Point | null,
  name: string | null = null,
): ApproximateArea | null {
  if (!publicPoint) return null;
  const latitude = Number(publicPoint.latitude);
  const longitude = Number(publicPoint.longitude);
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return null;
  return { latitude: round(latitude), longitude: round(longitude), radiusMeters: AREA_RADIUS_METERS, name };
}
