import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import packageJson from '../../../package.json' with { type: 'json' };
import { HttpError } from '../../errors';
import { createUser, sessionCookiesFor } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { NominatimGeocoder } from './nominatim-geocoder';

/** Responses in Nominatim's real JSON format (format=json&addressdetails=1), trimmed to what matters. */
const PORTLAND_OR = {
  place_id: 297_066_520,
  licence: 'Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright',
  osm_type: 'relation',
  osm_id: 186_579,
  lat: '45.5202471',
  lon: '-122.674194',
  class: 'boundary',
  type: 'administrative',
  place_rank: 16,
  importance: 0.7535,
  addresstype: 'city',
  name: 'Portland',
  display_name: 'Portland, Multnomah County, Oregon, United States',
  address: { city: 'Portland', county: 'Multnomah County', state: 'Oregon', country: 'United States' },
  boundingbox: ['45.4325354', '45.6528812', '-122.8367489', '-122.4720252'],
};
const PORTLAND_ME = {
  place_id: 296_810_214,
  licence: 'Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright',
  osm_type: 'relation',
  osm_id: 132_500,
  lat: '43.6573605',
  lon: '-70.2586618',
  class: 'boundary',
  type: 'administrative',
  display_name: 'Portland, Cumberland County, Maine, United States',
  address: { city: 'Portland', county: 'Cumberland County', state: 'Maine', country: 'United States' },
  boundingbox: ['43.5450167', '43.7285925', '-70.3475967', '-70.0955498'],
};

type Mode = 'ok' | 'error' | 'hang' | 'garbage';

interface Seen {
  path: string;
  params: URLSearchParams;
  headers: IncomingHttpHeaders;
  at: number;
}

/** A local stand-in for a Nominatim server: records every request, answers as `mode` says. */
async function startFakeNominatim() {
  const seen: Seen[] = [];
  const state = { mode: 'ok' as Mode };
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    seen.push({ path: url.pathname, params: url.searchParams, headers: request.headers, at: Date.now() });
    if (state.mode === 'hang') return; // never answers
    if (state.mode === 'error') {
      response.writeHead(503, { 'content-type': 'text/html' }).end('<h1>Service Unavailable</h1>');
      return;
    }
    if (state.mode === 'garbage') {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"not": "a list"');
      return;
    }
    const json = (body: unknown) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (url.pathname === '/nominatim/search') {
      const q = url.searchParams.get('q') ?? '';
      if (/^portl/i.test(q)) return json([PORTLAND_OR, PORTLAND_ME, { place_id: 1, display_name: 'broken' }]);
      return json([]);
    }
    if (url.pathname === '/nominatim/reverse') {
      if (Number(url.searchParams.get('lat')) === 0) return json({ error: 'Unable to geocode' });
      return json(PORTLAND_OR);
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/nominatim/`,
    seen,
    state,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

type Fake = Awaited<ReturnType<typeof startFakeNominatim>>;

describe('NominatimGeocoder against a fake Nominatim', () => {
  let fake: Fake;
  beforeAll(async () => {
    fake = await startFakeNominatim();
  });
  afterAll(() => fake.close());
  afterEach(() => {
    fake.seen.length = 0;
    fake.state.mode = 'ok';
  });

  const geocoder = (options: Partial<ConstructorParameters<typeof NominatimGeocoder>[0]> = {}) =>
    new NominatimGeocoder({
      baseUrl: fake.url,
      userAgent: 'Barterhood/test (+http://localhost:5000)',
      minIntervalMs: 0,
      timeoutMs: 2000,
      ...options,
    });

  it('searches with format=json, addressdetails=1, limit=5 and maps the answer, skipping malformed entries', async () => {
    const places = await geocoder().search('  Portl ', 5);
    expect(places).toEqual([
      {
        id: 'osm:R186579',
        displayName: 'Portland, Multnomah County, Oregon, United States',
        latitude: 45.5202471,
        longitude: -122.674194,
      },
      {
        id: 'osm:R132500',
        displayName: 'Portland, Cumberland County, Maine, United States',
        latitude: 43.6573605,
        longitude: -70.2586618,
      },
    ]);
    const [request] = fake.seen;
    expect(request?.path).toBe('/nominatim/search');
    expect(Object.fromEntries(request?.params ?? [])).toEqual({
      format: 'json',
      addressdetails: '1',
      limit: '5',
      q: 'Portl',
    });
    expect(request?.headers['user-agent']).toBe('Barterhood/test (+http://localhost:5000)');
  });

  it("prefers results around the member's point, rounded, through a viewbox (and caches per box)", async () => {
    const g = geocoder();
    await g.search('Hawthorne', 5, { latitude: 45.51234, longitude: -122.65432 });
    expect(Object.fromEntries(fake.seen[0]?.params ?? [])).toEqual({
      format: 'json',
      addressdetails: '1',
      limit: '5',
      q: 'Hawthorne',
      // left,top,right,bottom around 45.5, -122.7: never the member's own digits.
      viewbox: '-123.2,46,-122.2,45',
      bounded: '0',
    });
    // A neighbour in the same box shares the answer; a member elsewhere, or without a point, does not.
    await g.search('Hawthorne', 5, { latitude: 45.49, longitude: -122.68 });
    await g.search('Hawthorne', 5, { latitude: 37.8, longitude: -122.27 });
    await g.search('Hawthorne', 5);
    expect(fake.seen).toHaveLength(3);
    expect(fake.seen[1]?.params.get('viewbox')).toBe('-122.8,38.3,-121.8,37.3');
    expect(fake.seen[2]?.params.has('viewbox')).toBe(false);
  });

  it('reverse look-up asks for the neighborhood at the point; "Unable to geocode" means no place', async () => {
    const g = geocoder();
    expect(await g.reverse(45.5152, -122.6784)).toMatchObject({ id: 'osm:R186579' });
    expect(Object.fromEntries(fake.seen[0]?.params ?? [])).toMatchObject({
      format: 'json',
      lat: '45.5152',
      lon: '-122.6784',
      zoom: '14',
    });
    expect(await g.reverse(0, 0)).toBeNull();
    // "No place here" is an answer, kept like any other: asked again, it is not sent again.
    expect(await g.reverse(0, 0)).toBeNull();
    expect(fake.seen.map((s) => s.path)).toEqual(['/nominatim/reverse', '/nominatim/reverse']);
  });

  it('caches answers, and shares one request among identical look-ups in flight', async () => {
    const g = geocoder();
    await Promise.all([g.search('Portland', 5), g.search('portland ', 5), g.search('PORTLAND', 5)]);
    await g.search('Portland', 5);
    await g.reverse(45.5152, -122.6784);
    await g.reverse(45.51521, -122.67839); // within the same ~100 m
    expect(fake.seen.map((s) => s.path)).toEqual(['/nominatim/search', '/nominatim/reverse']);
  });

  it('sends at most one request per interval, in arrival order', async () => {
    // Measured when the geocoder sends, not when the fake receives: delivery over loopback under a
    // loaded machine can shorten the received gaps, the throttle cannot.
    const sentAt: number[] = [];
    const realFetch = globalThis.fetch;
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      sentAt.push(Date.now());
      return realFetch(input, init);
    });
    try {
      const g = geocoder({ minIntervalMs: 150 });
      await Promise.all([g.search('Portla', 5), g.search('Portlan', 5), g.search('Portland', 5)]);
      expect(fake.seen.map((s) => s.params.get('q'))).toEqual(['Portla', 'Portlan', 'Portland']);
      const [first, second, third] = sentAt as [number, number, number];
      // Whole intervals between the calls themselves: the geocoder notes a send after fetch was
      // called (so after this spy), and waits out a timer that fires early. A loaded CI host once
      // took 7 ms, then more, to build the first call's arguments; that no longer shortens the gap.
      // Without the throttle the three calls go out within a millisecond or two of each other.
      expect(second - first).toBeGreaterThanOrEqual(150);
      expect(third - second).toBeGreaterThanOrEqual(150);
    } finally {
      spy.mockRestore();
    }
  });

  it('fails fast with 502 when the queue is longer than callers should wait', async () => {
    const g = geocoder({ minIntervalMs: 1000, maxQueueWaitMs: 1500 });
    const results = await Promise.allSettled([
      g.search('Portla', 5),
      g.search('Portlan', 5),
      g.search('Portland', 5), // its turn would come after 2 s
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    const reason = (results[2] as PromiseRejectedResult).reason as HttpError;
    expect(reason).toBeInstanceOf(HttpError);
    expect(reason.statusCode).toBe(502);
    expect(reason.code).toBe('GEOCODER_UNAVAILABLE');
  });

  it.each([
    ['an error status', 'error'],
    ['a body that is not the expected JSON', 'garbage'],
  ] as const)('turns %s into 502 GEOCODER_UNAVAILABLE, and does not cache it', async (_name, mode) => {
    const errors: unknown[] = [];
    const g = geocoder({ onError: (error) => errors.push(error) });
    fake.state.mode = mode;
    await expect(g.search('Portl', 5)).rejects.toMatchObject({
      statusCode: 502,
      code: 'GEOCODER_UNAVAILABLE',
      message: expect.stringContaining('unavailable'),
    });
    expect(errors).toHaveLength(1);
    fake.state.mode = 'ok';
    expect(await g.search('Portl', 5)).toHaveLength(2);
  });

  it('gives up after the timeout with 502', async () => {
    const g = geocoder({ timeoutMs: 200 });
    fake.state.mode = 'hang';
    const started = Date.now();
    await expect(g.reverse(45.5, -122.6)).rejects.toMatchObject({
      statusCode: 502,
      code: 'GEOCODER_UNAVAILABLE',
    });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('answers 502 when nothing listens at the address', async () => {
    const g = geocoder({ baseUrl: 'http://127.0.0.1:9/' });
    await expect(g.search('Portl', 5)).rejects.toMatchObject({ statusCode: 502 });
  });
});

describe('places API with GEOCODER=nominatim', () => {
  let fake: Fake;
  let t: TestApp;
  let cookies: Record<string, string>;
  beforeAll(async () => {
    fake = await startFakeNominatim();
    t = await buildTestApp({ GEOCODER: 'nominatim', NOMINATIM_URL: fake.url });
    cookies = await sessionCookiesFor(t.app, await createUser(t.database.db));
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('forwards search and reverse look-up with an identifying User-Agent', async () => {
    const search = await t.app.inject({ method: 'GET', url: '/api/places/search?q=Portl', cookies });
    expect(search.statusCode).toBe(200);
    expect(search.json()).toHaveLength(2);
    expect(search.json()[0]).toEqual({
      id: 'osm:R186579',
      displayName: 'Portland, Multnomah County, Oregon, United States',
      latitude: 45.5202471,
      longitude: -122.674194,
    });
    expect(fake.seen[0]?.headers['user-agent']).toBe(
      `Barterhood/${packageJson.version} (+http://localhost:5000)`,
    );

    const reverse = await t.app.inject({
      method: 'GET',
      url: '/api/places/reverse?lat=45.5&lon=-122.6',
      cookies,
    });
    expect(reverse.statusCode).toBe(200);
    expect(reverse.json().displayName).toContain('Portland');

    const nowhere = await t.app.inject({ method: 'GET', url: '/api/places/reverse?lat=0&lon=0', cookies });
    expect(nowhere.statusCode).toBe(404);
    expect(nowhere.json().code).toBe('PLACE_NOT_FOUND');
  });

  it('answers 502 GEOCODER_UNAVAILABLE with a clear message when the service fails', async () => {
    fake.state.mode = 'error';
    const response = await t.app.inject({ method: 'GET', url: '/api/places/search?q=Seattle', cookies });
    fake.state.mode = 'ok';
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({
      code: 'GEOCODER_UNAVAILABLE',
      message: 'Location search is unavailable right now. Please try again in a moment.',
    });
  });
});
