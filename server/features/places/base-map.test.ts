/**
 * The map's own base without a tile server (ADR 086): neighbourhood outlines, towns and ZIP codes in
 * a box, from the place data the server ships.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_MAP_MAX_LABELS, BASE_MAP_MAX_OUTLINES, type BaseMap } from '#common/schemas/maps.ts';
import { createUser, sessionCookiesFor } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { thinRing } from './neighbourhood-outlines';

/** Inner Southeast Portland, Oregon. */
const PORTLAND = { south: '45.49', west: '-122.70', north: '45.54', east: '-122.60' };

describe('GET /api/places/base-map', () => {
  let t: TestApp;
  let cookies: Record<string, string>;
  beforeAll(async () => {
    t = await buildTestApp();
    cookies = await sessionCookiesFor(t.app, await createUser(t.database.db));
  });
  afterAll(() => t.close());

  const baseMap = (query: Record<string, string>, as: Record<string, string> | null = cookies) =>
    t.app.inject({ method: 'GET', url: '/api/places/base-map', query, ...(as ? { cookies: as } : {}) });

  it("draws Portland's neighbourhoods, its name and its ZIP codes", async () => {
    const response = await baseMap(PORTLAND);
    expect(response.statusCode).toBe(200);
    const body = response.json() as BaseMap;
    const buckman = body.neighbourhoods.find((hood) => hood.name === 'Buckman');
    expect(buckman?.rings.length).toBeGreaterThan(0);
    for (const ring of buckman?.rings ?? []) {
      // Closed, longitude then latitude, around Buckman (about 45.52, -122.65).
      expect(ring.length).toBeGreaterThanOrEqual(8);
      expect(ring.slice(0, 2)).toEqual(ring.slice(-2));
      expect(ring[0]).toBeCloseTo(-122.65, 1);
      expect(ring[1]).toBeCloseTo(45.52, 1);
    }
    expect(body.towns[0]).toEqual({
      name: 'Portland',
      latitude: expect.closeTo(45.52, 1),
      longitude: expect.closeTo(-122.68, 1),
    });
    expect(body.postalCodes.map((zip) => zip.name)).toContain('97214');
    for (const label of [...body.towns, ...body.postalCodes]) {
      expect(label.latitude).toBeGreaterThanOrEqual(45.49);
      expect(label.latitude).toBeLessThanOrEqual(45.54);
    }
  });

  it('caps what one answer holds over a wide box', async () => {
    const body = (await baseMap({ south: '39', west: '-76', north: '43', east: '-72' })).json() as BaseMap;
    expect(body.neighbourhoods.length).toBeLessThanOrEqual(BASE_MAP_MAX_OUTLINES);
    expect(body.neighbourhoods.length).toBeGreaterThan(100);
    expect(body.towns).toHaveLength(BASE_MAP_MAX_LABELS);
    expect(body.postalCodes).toHaveLength(BASE_MAP_MAX_LABELS);
    // Most populous first: New York City leads the towns of the box.
    expect(body.towns[0]?.name).toBe('New York City');
  });

  it('answers an empty base over the open sea', async () => {
    const body = (await baseMap({ south: '-40', west: '-30', north: '-39', east: '-29' })).json() as BaseMap;
    expect(body).toEqual({ neighbourhoods: [], towns: [], postalCodes: [] });
  });

  it('refuses a box it cannot answer with 400 in the error shape, and strangers with 401', async () => {
    for (const query of [
      { ...PORTLAND, south: '45.6' }, // south above north
      { ...PORTLAND, west: '-122.5' }, // west east of east
      { ...PORTLAND, south: '40' }, // taller than 4 degrees
      { ...PORTLAND, south: '0x2d' },
      { ...PORTLAND, east: '' },
      { ...PORTLAND, north: '91' },
      { ...PORTLAND, west: '-181' },
      { ...PORTLAND, north: 'NaN' },
      { south: PORTLAND.south, west: PORTLAND.west, north: PORTLAND.north },
    ]) {
      const response = await baseMap(query);
      expect(response.statusCode, JSON.stringify(query)).toBe(400);
      expect(response.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
    expect((await baseMap(PORTLAND, null)).statusCode).toBe(401);
  });
});

describe('thinRing', () => {
  it('keeps a vertex every 50 m or so, rounded, and closes the ring', () => {
    const ring: Array<[number, number]> = [];
    for (let i = 0; i <= 100; i++) ring.push([-122.6 + i * 0.00001, 45.5]);
    ring.push([-122.599, 45.501], [-122.6, 45.501], [-122.6, 45.5]);
    const thin = thinRing(ring);
    expect(thin).toEqual([
      -122.6, 45.5, -122.5995, 45.5, -122.599, 45.5, -122.599, 45.501, -122.6, 45.501, -122.6, 45.5,
    ]);
  });

  it('drops a ring that thins to nothing', () => {
    expect(
      thinRing([
        [-122.6, 45.5],
        [-122.60001, 45.50001],
        [-122.6, 45.5],
      ]),
    ).toBeNull();
  });
});
