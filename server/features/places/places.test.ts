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

  describe("GET /api/places/search: neighborhoods, ZIP codes and the member's own area", () => {
    const asMemberAt = async (latitude: number, longitude: number) =>
      sessionCookiesFor(
        t.app,
        await createUser(t.database.db, { location: 'Somewhere', latitude, longitude }),
      );
    const namesFor = async (q: string, as: Record<string, string>) => {
      const response = await search(q, as);
      expect(response.statusCode).toBe(200);
      return (response.json() as Array<{ displayName: string }>).map((p) => p.displayName);
    };

    it('finds neighborhoods by any word of their name, with their city', async () => {
      const response = await search('Buckman');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([
        {
          id: 'zillow:271068',
          displayName: 'Buckman, Portland, Oregon, United States',
          latitude: expect.closeTo(45.517, 2),
          longitude: expect.closeTo(-122.653, 2),
        },
      ]);
      expect(await names('Sellwood')).toContain('Sellwood-Moreland, Portland, Oregon, United States');
      expect(await names('Moreland')).toContain('Sellwood-Moreland, Portland, Oregon, United States');
      // A chosen suggestion finds itself again; the city narrows too.
      expect(await names('Buckman, Portland, Oregon, United States')).toEqual([
        'Buckman, Portland, Oregon, United States',
      ]);
      expect(await names('Hawthorne, Oakland')).toEqual(['Hawthorne, Oakland, California, United States']);
    });

    it('finds US ZIP codes by their digits, named by their town', async () => {
      const response = await search('97214');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([
        {
          id: 'zip:97214',
          displayName: '97214, Portland, Oregon, United States',
          latitude: expect.closeTo(45.514, 2),
          longitude: expect.closeTo(-122.644, 2),
        },
      ]);
      expect(await names('97214-1234')).toEqual(['97214, Portland, Oregon, United States']);
      expect(await names(' 97214 ')).toEqual(['97214, Portland, Oregon, United States']);
      expect(await names('97214, Portland, Oregon, United States')).toEqual([
        '97214, Portland, Oregon, United States',
      ]);
      // Three digits: the first five codes in order for a member without a location.
      expect(await names('972')).toEqual([
        '97201, Portland, Oregon, United States',
        '97202, Portland, Oregon, United States',
        '97203, Portland, Oregon, United States',
        '97204, Portland, Oregon, United States',
        '97205, Portland, Oregon, United States',
      ]);
      expect(await names('00000')).toEqual([]);
    });

    it("puts places near the member's own point first, nearest first", async () => {
      const oakland = await asMemberAt(37.8044, -122.2712);
      const portland = await asMemberAt(45.5122, -122.6533);
      const maine = await asMemberAt(43.66, -70.26);
      const nowhere = cookies; // no location: the most populous first

      expect((await namesFor('Hawthorne', oakland))[0]).toBe('Hawthorne, Oakland, California, United States');
      expect((await namesFor('Hawthorne', nowhere))[0]).toBe('Hawthorne, California, United States');
      expect((await namesFor('Richmond', portland))[0]).toBe('Richmond, Portland, Oregon, United States');
      expect((await namesFor('Richmond', nowhere))[0]).toBe('Richmond, Virginia, United States');
      expect((await namesFor('Portl', maine))[0]).toBe('Portland, Maine, United States');
      // Far places still come after the near ones.
      expect(await namesFor('Seattle', portland)).toContain('Seattle, Washington, United States');

      // ZIP codes: nearest first.
      const zips = await search('972', portland);
      const points = zips.json() as Array<{ displayName: string; latitude: number; longitude: number }>;
      expect(points[0]?.displayName).toBe('97214, Portland, Oregon, United States');
      const km = points.map((p) => Math.hypot(p.latitude - 45.5122, (p.longitude + 122.6533) * 0.7));
      expect(km).toEqual([...km].sort((a, b) => a - b));
    });

    it('offers the names Portland neighbours use first to a signed-in member whose location is in Portland (issue 28)', async () => {
      // A member who saved SE 35th and Belmont as their location.
      const portland = await asMemberAt(45.5163, -122.6281);
      const london = await asMemberAt(51.5074, -0.1278);

      for (const [q, first] of [
        ['Hawthorne', 'Hawthorne District, Portland, Oregon, United States'],
        ['Sunnyside', 'Sunnyside, Portland, Oregon, United States'],
        ['Alberta', 'Alberta Arts District, Portland, Oregon, United States'],
        ['Hawthorne Portland', 'Hawthorne District, Portland, Oregon, United States'],
      ]) {
        const response = await search(q as string, portland);
        expect(response.statusCode).toBe(200);
        const places = response.json() as Array<{ id: string; displayName: string; latitude: number }>;
        expect(places[0]?.displayName, q).toBe(first);
        expect(places[0]?.id).toMatch(/^curated:/);
        // The member's own point orders the answer and is never in it.
        expect(JSON.stringify(places)).not.toContain('45.5163');
      }

      const fromLondon = await namesFor('Hawthorne', london);
      expect(fromLondon[0]).toBe('Hawthorne, California, United States');
      expect(fromLondon[0]).not.toMatch(/Portland/);

      // "place, town" and "place town", for anyone.
      expect((await names('Hawthorne, Portland'))[0]).toBe(
        'Hawthorne District, Portland, Oregon, United States',
      );
      expect((await names('Sunnyside, Portland, OR'))[0]).toBe('Sunnyside, Portland, Oregon, United States');
      expect((await names('Sunnyside Portland OR'))[0]).toBe('Sunnyside, Portland, Oregon, United States');
      // What worked before still does.
      expect(await namesFor('97214', portland)).toEqual(['97214, Portland, Oregon, United States']);
      expect((await namesFor('Buckman', portland))[0]).toBe('Buckman, Portland, Oregon, United States');
    });
  });

  describe('GET /api/places/reverse', () => {
    it('names the neighborhood around the point: the street-level name, not the town centre', async () => {
      // SE Belmont St, Portland: inside Buckman.
      const response = await reverse({ lat: '45.5163', lon: '-122.6534' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        id: 'zillow:271068',
        displayName: 'Buckman, Portland, Oregon, United States',
        latitude: expect.closeTo(45.517, 2),
        longitude: expect.closeTo(-122.653, 2),
      });
      expect((await reverse({ lat: '45.5152', lon: '-122.6784' })).json().displayName).toBe(
        'Downtown, Portland, Oregon, United States',
      );
    });

    it('names the town where no neighborhood or ZIP code area is near', async () => {
      // Downtown Bend, Oregon: no neighborhood data, its ZIP code areas' centres are miles out.
      const response = await reverse({ lat: '44.0582', lon: '-121.3153' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        id: 'geonames:5713587',
        displayName: 'Bend, Oregon, United States',
      });
      expect((await reverse({ lat: '43.66', lon: '-70.26' })).json().displayName).toMatch(
        /, Portland, Maine, United States$/,
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
