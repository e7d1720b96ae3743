import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client';
import { openTestDatabase } from '../test/helpers';
import { EARTH_RADIUS_MILES, milesBetween, type Point } from './earth';
import { boundingBox, distanceMiles, innerBox, memberPoint, withinRadius } from './sql';

/** Miles per degree of latitude, and of longitude at `latitude`. */
const MILES_PER_DEGREE = (EARTH_RADIUS_MILES * Math.PI) / 180;
const milesPerLonDegree = (latitude: number) => MILES_PER_DEGREE * Math.cos((latitude * Math.PI) / 180);

describe('boundingBox', () => {
  it('holds the whole circle and is tight at the cardinal points', () => {
    const origin = { latitude: 45.5, longitude: -122.7 };
    const box = boundingBox(origin, 25);
    const dLat = 25 / MILES_PER_DEGREE;
    expect(box.latMin).toBeCloseTo(45.5 - dLat, 5);
    expect(box.latMax).toBeCloseTo(45.5 + dLat, 5);
    expect(box.latMin).toBeLessThan(45.5 - dLat);
    const lon = box.lon ?? { min: 0, max: 0 };
    // At least as wide as the circle at the centre's latitude, and not absurdly wider.
    const dLonAtCentre = 25 / milesPerLonDegree(45.5);
    expect(lon.max - origin.longitude).toBeGreaterThanOrEqual(dLonAtCentre);
    expect(lon.max - origin.longitude).toBeLessThan(dLonAtCentre * 1.01);
    expect(origin.longitude - lon.min).toBeCloseTo(lon.max - origin.longitude, 9);
  });

  it('drops the longitude bound near a pole or across 180°', () => {
    expect(boundingBox({ latitude: 89.9, longitude: 10 }, 50).lon).toBeNull();
    expect(boundingBox({ latitude: -89.9, longitude: 10 }, 50).latMin).toBe(-90);
    expect(boundingBox({ latitude: -17.8, longitude: 179.9 }, 25).lon).toBeNull();
    expect(boundingBox({ latitude: 64, longitude: -179.95 }, 10).lon).toBeNull();
  });

  it('the inner square lies inside the circle', () => {
    const origin = { latitude: 60, longitude: 10 };
    const inner = innerBox(origin, 10);
    if (!inner) throw new Error('no inner box');
    for (const latitude of [inner.latMin, inner.latMax]) {
      for (const longitude of [inner.lonMin, inner.lonMax]) {
        expect(milesBetween(origin, { latitude, longitude })).toBeLessThan(10);
      }
    }
    expect(innerBox({ latitude: 88.9, longitude: 0 }, 50)).toBeNull();
  });
});

describe('distance and radius in SQL', () => {
  let database: DatabaseHandle;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ handle: database, drop } = await openTestDatabase());
  });
  afterAll(() => drop());

  /** `expression` over one member row `u` holding this public point (or none). */
  const over = async (point: Point | null, expression: SQL) => {
    const lat = point ? sql`${point.latitude}::numeric` : sql`NULL::numeric`;
    const lon = point ? sql`${point.longitude}::numeric` : sql`NULL::numeric`;
    const result = (await database.db.execute(
      sql`SELECT ${expression} AS value FROM (SELECT ${lat} AS public_latitude, ${lon} AS public_longitude) u`,
    )) as unknown as { rows: Array<{ value: unknown }> };
    return result.rows[0]?.value;
  };

  it('is the haversine of earth.ts', async () => {
    const pairs: Array<[Point, Point]> = [
      [
        { latitude: 45.52345, longitude: -122.67621 },
        { latitude: 45.53, longitude: -122.6 },
      ],
      [
        { latitude: -33.9, longitude: 151.2 },
        { latitude: 51.5, longitude: -0.12 },
      ],
      [
        { latitude: 0, longitude: 179.99 },
        { latitude: 0, longitude: -179.99 },
      ],
      [
        { latitude: 10, longitude: 10 },
        { latitude: 10, longitude: 10 },
      ],
    ];
    for (const [origin, point] of pairs) {
      const miles = Number(await over(point, distanceMiles(origin, memberPoint('u'))));
      expect(miles).toBeCloseTo(milesBetween(origin, point), 6);
    }
  });

  it('absent location means no distance: NULL, not half the circumference (12436.8 miles)', async () => {
    const origin = { latitude: 45.5, longitude: -122.6 };
    expect(await over(null, distanceMiles(origin, memberPoint('u')))).toBeNull();
    expect(await over(origin, distanceMiles(null, memberPoint('u')))).toBeNull();
    expect(await over(null, withinRadius(origin, 50, memberPoint('u')))).not.toBe(true);
  });

  it('tests the radius exactly, inside and outside the boxes, and near the 180th meridian', async () => {
    const origin = { latitude: 45.5, longitude: -122.6 };
    const north = (miles: number) => ({ latitude: 45.5 + miles / MILES_PER_DEGREE, longitude: -122.6 });
    const inside = (point: Point, miles: number) =>
      over(point, withinRadius(origin, miles, memberPoint('u')));
    expect(await inside(north(9.99), 10)).toBe(true);
    expect(await inside(north(10.01), 10)).toBe(false);
    // A corner of the bounding box is outside the circle; just inside the inner square is in.
    const box = boundingBox(origin, 10);
    expect(await inside({ latitude: box.latMax, longitude: box.lon?.max ?? 0 }, 10)).toBe(false);
    const near180 = { latitude: -17.8, longitude: 179.99 };
    const across = { latitude: -17.8, longitude: -179.95 };
    expect(await over(across, withinRadius(near180, 10, memberPoint('u')))).toBe(true);
  });
});
