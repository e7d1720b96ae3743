import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, sessionCookiesFor } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';

describe('places (GEOCODER=offline)', () => {
  let t: TestApp;
  let cookies: Record<string, string>;
  beforeAll(async () => {
    t = await buildTestApp();
    cookies = await sessionCookiesFor(t.app, await createUser(t.database.db));
  });
  afterAll(() => t.close());

  const search = (q: string, as = cookies) =>
    t.app.inject({ method: 'GET', url: '/api/places/search', query: { q }, cookies: as });
  const names = async (q: string) => {
    const response = await search(q);
    expect(response.statusCode).toBe(200);
    return (response.json() as Array<{ displayName: string }>).map((p) => p.displayName);
  };
  const reverse = (query: Record<string, string>, as = cookies) =>
    t.app.inject({ method: 'GET', url: '/api/places/reverse', query, cookies: as });

  describe('GET /api/places/search', () => {
    it('offers Portland, Oregon and Portland, Maine for "Portl", most populous first', async () => {
      const response = await search('Portl');
      expect(response.statusCode).toBe(200);
      const places = response.json() as Array<Record<string, unknown>>;
      expect(places.length).toBeLessThanOrEqual(5);
      expect(places[0]).toEqual({
        id: 'geonames:5746545',
        displayName: 'Portland, Oregon, United States',
        latitude: expect.closeTo(45.523, 2),
        longitude: expect.closeTo(-122.676, 2),
      });
      expect(places[1]).toMatchObject({ displayName: 'Portland, Maine, United States' });
      for (const place of places)
        expect(Object.keys(place).sort()).toEqual(['displayName', 'id', 'latitude', 'longitude']);
    });

    it('ignores case, accents and surrounding spaces', async () => {
      expect((await names('Zurich'))[0]).toBe('Zürich, Switzerland');
      expect((await names('zür'))[0]).toBe('Zürich, Switzerland');
      expect((await names('ZÜRICH'))[0]).toBe('Zürich, Switzerland');
      expect((await names('São'))[0]).toBe('São Paulo, Brazil');
      expect((await names('Sao Paulo'))[0]).toBe('São Paulo, Brazil');
      expect((await names('  portland  '))[0]).toBe('Portland, Oregon, United States');
    });

    it('narrows by region or country after a comma, so a chosen suggestion finds itself', async () => {
      expect(await names('Portland, Maine')).toEqual(['Portland, Maine, United States']);
      expect(await names('Portland, ME')).toEqual(['Portland, Maine, United States']);
      expect((await names('Portland, Oregon, United States'))[0]).toBe('Portland, Oregon, United States');
      expect((await names('London, Canada'))[0]).toBe('London, Ontario, Canada');
    });

    it('has country names for all countries and region names for the United States', async () => {
      expect((await names('New York'))[0]).toBe('New York City, New York, United States');
      expect((await names('Munich'))[0]).toBe('Munich, Germany');
      expect((await names('Toronto'))[0]).toBe('Toronto, Ontario, Canada');
    });

    it('answers an empty list when nothing matches', async () => {
      expect(await names('xqzvwk')).toEqual([]);
      expect(await names('!!!')).toEqual([]);
    });

    it('refuses fewer than 3 characters after trimming, or no text, with 400', async () => {
      for (const q of ['Po', '  Po  ', '']) {
        const response = await search(q);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({
          code: 'VALIDATION_FAILED',
          message: expect.stringContaining('at least 3 characters'),
        });
      }
      const none = await t.app.inject({ method: 'GET', url: '/api/places/search', cookies });
      expect(none.statusCode).toBe(400);
      expect((await search('x'.repeat(201))).statusCode).toBe(400);
    });

    it('answers 401 when signed out', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/places/search?q=Portl' });
      expect(response.statusCode).toBe(401);
      expect(response.json().code).toBe('UNAUTHORIZED');
    });
  });

  describe('GET /api/places/reverse', () => {
    it('names the nearest town: downtown Portland, Oregon is Portland', async () => {
      const response = await reverse({ lat: '45.5152', lon: '-122.6784' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        id: 'geonames:5746545',
        displayName: 'Portland, Oregon, United States',
        latitude: expect.closeTo(45.523, 2),
        longitude: expect.closeTo(-122.676, 2),
      });
      expect((await reverse({ lat: '43.66', lon: '-70.26' })).json().displayName).toBe(
        'Portland, Maine, United States',
      );
    });

    it('answers 404 PLACE_NOT_FOUND far from any town', async () => {
      const response = await reverse({ lat: '0', lon: '-140' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ code: 'PLACE_NOT_FOUND', message: expect.any(String) });
    });

    it.each([
      [{ lat: '91', lon: '0' }, 'Latitude'],
      [{ lat: '-90.01', lon: '0' }, 'Latitude'],
      [{ lat: '0', lon: '180.5' }, 'Longitude'],
      [{ lat: '0', lon: '-181' }, 'Longitude'],
      [{ lat: 'north', lon: '0' }, 'Latitude'],
      [{ lat: '', lon: '0' }, 'Latitude'],
      [{ lat: '1e3', lon: '0' }, 'Latitude'],
      [{ lat: 'NaN', lon: '0' }, 'Latitude'],
      [{ lat: '0' }, 'Longitude'],
    ])('refuses %j with 400', async (query, message) => {
      const response = await reverse(query);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        code: 'VALIDATION_FAILED',
        message: expect.stringContaining(message),
      });
    });

    it('accepts coordinates as String() writes them, exponent form included', async () => {
      expect((await reverse({ lat: String(45.515_234_567_891), lon: '-122.6784' })).statusCode).toBe(200);
      expect((await reverse({ lat: String(1e-7), lon: '+0' })).statusCode).toBe(404);
    });

    it('accepts the extremes', async () => {
      expect((await reverse({ lat: '90', lon: '180' })).statusCode).toBe(404);
      expect((await reverse({ lat: '-90', lon: '-180' })).statusCode).toBe(404);
    });

    it('answers 401 when signed out', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/places/reverse?lat=45.5&lon=-122.6' });
      expect(response.statusCode).toBe(401);
    });
  });

  it('limits searches per member, not per address', async () => {
    const [a, b] = await Promise.all([createUser(t.database.db), createUser(t.database.db)]);
    const asA = await sessionCookiesFor(t.app, a);
    const asB = await sessionCookiesFor(t.app, b);
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await search('Bos', asA)).statusCode);
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(statuses[60]).toBe(429);
    expect((await search('Bos', asA)).json().code).toBe('RATE_LIMITED');
    // Same address (inject's 127.0.0.1), another member: not limited.
    expect((await search('Bos', asB)).statusCode).toBe(200);
  });
});
