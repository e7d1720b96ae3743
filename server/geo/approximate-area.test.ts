import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../lib/random';
import { AREA_RADIUS_METERS, approximateArea } from './approximate-area';
import { KM_PER_DEGREE, kmBetween, type Point } from './earth';
import { cellOf, MAX_DISPLACEMENT_KM, OFFSET_KM } from './public-point';

const RADIANS = Math.PI / 180;

/** A public point as the database trigger draws it: the cell's centre plus 0.4 to 0.8 km. */
function drawPublicPoint(exact: Point, random: () => number): Point {
  const { centre } = cellOf(exact);
  const km = OFFSET_KM.min + random() * (OFFSET_KM.max - OFFSET_KM.min);
  const angle = random() * 2 * Math.PI;
  return {
    latitude: centre.latitude + (km * Math.cos(angle)) / KM_PER_DEGREE,
    longitude:
      centre.longitude + (km * Math.sin(angle)) / (KM_PER_DEGREE * Math.cos(centre.latitude * RADIANS)),
  };
}

describe('approximateArea: what a map shows of another member', () => {
  it('is nothing without a location', () => {
    expect(approximateArea(null)).toBeNull();
  });

  it('rounds the public point to 0.01 degree and draws a 2.5 km circle', () => {
    expect(approximateArea({ latitude: 45.51734, longitude: -122.65305 })).toEqual({
      latitude: 45.52,
      longitude: -122.65,
      radiusMeters: 2500,
      name: null,
    });
    expect(
      approximateArea({ latitude: 45.5, longitude: -122.6 }, 'Portland, Oregon, United States')?.name,
    ).toBe('Portland, Oregon, United States');
    expect(AREA_RADIUS_METERS).toBe(2500);
  });

  it('always holds the exact point, and never gives it away: the centre depends on the public point only', () => {
    const random = mulberry32(32);
    for (let i = 0; i < 5000; i++) {
      const exact = { latitude: -60 + random() * 120, longitude: -180 + random() * 360 };
      const publicPoint = drawPublicPoint(exact, random);
      const area = approximateArea(publicPoint);
      if (!area) throw new Error('no area');
      // Inside the circle, as the map promises.
      expect(kmBetween(exact, area) * 1000).toBeLessThanOrEqual(area.radiusMeters);
      // Two decimals at most.
      expect(Math.round(area.latitude * 100) / 100).toBe(area.latitude);
      expect(Math.round(area.longitude * 100) / 100).toBe(area.longitude);
      // As far from the exact point as the public point can be and more: never a finer answer.
      expect(kmBetween(publicPoint, area)).toBeLessThan(0.8);
    }
    expect(MAX_DISPLACEMENT_KM + 0.8).toBeLessThan(AREA_RADIUS_METERS / 1000);
  });
});
