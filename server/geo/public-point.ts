import { KM_PER_DEGREE, type Point } from './earth';

/**
 * The public point's rules in TypeScript, the same arithmetic as the database trigger
 * `users_public_point` (migration 0009) that alone computes it (server/geo/README.md). The server
 * never computes a public point itself; tests and the README use these to reason about it.
 */

/** The grid cell's side: about 1 km (1/111.19508 degree of latitude, the same length of longitude). */
export const CELL_KM = 1;
/** The random offset from the cell's centre, in km: at least 0.4, at most 0.8, any direction. */
export const OFFSET_KM = { min: 0.4, max: 0.8 } as const;
/**
 * The furthest a public point can be from the exact one: half the cell's diagonal plus the largest
 * offset (about 1.51 km, 0.94 miles).
 */
export const MAX_DISPLACEMENT_KM = (CELL_KM * Math.SQRT2) / 2 + OFFSET_KM.max;

const STEP = CELL_KM / KM_PER_DEGREE;
const RADIANS = Math.PI / 180;

/** A grid cell: its row (of latitude), its column (of longitude, within the row) and its centre. */
export interface Cell {
  row: number;
  column: number;
  centre: Point;
}

/** The cell at `row` and `column` (columns are narrower in degrees away from the equator). */
export function cellAt(row: number, column: number): Cell {
  const centreLatitude = Math.min(89.9, Math.max(-89.9, (row + 0.5) * STEP));
  const lonStep = STEP / Math.cos(centreLatitude * RADIANS);
  return { row, column, centre: { latitude: centreLatitude, longitude: (column + 0.5) * lonStep } };
}

/** The grid cell holding `point` (as the trigger computes it). */
export function cellOf(point: Point): Cell {
  const row = Math.floor(point.latitude / STEP);
  const centreLatitude = Math.min(89.9, Math.max(-89.9, (row + 0.5) * STEP));
  const lonStep = STEP / Math.cos(centreLatitude * RADIANS);
  return cellAt(row, Math.floor(point.longitude / lonStep));
}
