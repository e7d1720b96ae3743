import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/users';
import { createUser, sessionCookiesFor } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { changesCoordinates } from './location-limit';

describe('PUT /api/user/profile', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const signedIn = async () => {
    const user = await createUser(t.database.db, { firstName: 'Pat' });
    return { user, cookies: await sessionCookiesFor(t.app, user) };
  };
  const put = (cookies: Record<string, string> | undefined, payload: unknown) =>
    t.app.inject({ method: 'PUT', url: '/api/user/profile', payload: payload as object, cookies });

  const portland = {
    location: 'Portland, Oregon, United States',
    latitude: 45.52345,
    longitude: -122.67621,
    maxTravelDistance: 30,
  };

  it('saves location, coordinates and travel distance, and GET /api/auth/user reflects them', async () => {
    const { user, cookies } = await signedIn();
    const response = await put(cookies, { ...portland, location: '  Portland, Oregon, United States ' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const expected = {
      id: user.id,
      firstName: 'Pat',
      lastName: 'Tester',
      email: user.email,
      location: 'Portland, Oregon, United States',
      latitude: 45.52345,
      longitude: -122.67621,
      maxTravelDistance: 30,
      profileImageUrl: null,
      isDemo: false,
      emailVerified: false,
      hasPassword: false,
      role: 'member',
      suspendedUntil: null,
    };
    expect(response.json()).toEqual(expected);

    const me = await t.app.inject({ method: 'GET', url: '/api/auth/user', cookies });
    expect(me.json()).toEqual(expected);
  });

  it('a new location shows on the very next GET /api/auth/user, though the session was cached', async () => {
    const { cookies } = await signedIn();
    const me = () => t.app.inject({ method: 'GET', url: '/api/auth/user', cookies });
    expect((await me()).json()).toMatchObject({ firstName: 'Pat', location: null });
    expect((await put(cookies, portland)).statusCode).toBe(200);
    expect((await me()).json()).toMatchObject({ firstName: 'Pat', location: portland.location });
    expect((await put(cookies, { location: 'Somewhere else', maxTravelDistance: 5 })).statusCode).toBe(200);
    expect((await me()).json()).toMatchObject({ location: 'Somewhere else', maxTravelDistance: 5 });
  });

  it('accepts the limits 1 and 100, and no coordinates, which clears earlier ones', async () => {
    const { cookies } = await signedIn();
    expect((await put(cookies, { ...portland, maxTravelDistance: 100 })).json()).toMatchObject({
      maxTravelDistance: 100,
    });
    const cleared = await put(cookies, { location: 'Somewhere', maxTravelDistance: 1 });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toMatchObject({
      location: 'Somewhere',
      latitude: null,
      longitude: null,
      maxTravelDistance: 1,
    });
    const nulls = await put(cookies, {
      location: 'Elsewhere',
      latitude: null,
      longitude: null,
      maxTravelDistance: 5,
    });
    expect(nulls.statusCode).toBe(200);
  });

  it('accepts the extreme coordinates', async () => {
    const { cookies } = await signedIn();
    const response = await put(cookies, { ...portland, latitude: -90, longitude: 180 });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ latitude: -90, longitude: 180 });
  });

  it.each([
    ['no location', { ...portland, location: undefined }, 'Location is required'],
    ['a blank location', { ...portland, location: '   ' }, 'Location is required'],
    ['a location that is not text', { ...portland, location: 42 }, 'Location is required'],
    ['a NUL in the location', { ...portland, location: 'Port\u0000land' }, 'not allowed'],
    ['a very long location', { ...portland, location: 'x'.repeat(201) }, 'at most 200'],
    ['travel distance 0', { ...portland, maxTravelDistance: 0 }, 'between 1 and 100 miles'],
    ['travel distance 101', { ...portland, maxTravelDistance: 101 }, 'between 1 and 100 miles'],
    ['travel distance -5', { ...portland, maxTravelDistance: -5 }, 'between 1 and 100 miles'],
    ['a fractional travel distance', { ...portland, maxTravelDistance: 2.5 }, 'whole number'],
    ['a travel distance as text', { ...portland, maxTravelDistance: '30' }, 'between 1 and 100 miles'],
    ['no travel distance', { ...portland, maxTravelDistance: undefined }, 'between 1 and 100 miles'],
    ['latitude 90.5', { ...portland, latitude: 90.5 }, 'Latitude must be between -90 and 90'],
    ['latitude -91', { ...portland, latitude: -91 }, 'Latitude must be between -90 and 90'],
    ['longitude 180.1', { ...portland, longitude: 180.1 }, 'Longitude must be between -180 and 180'],
    ['longitude -181', { ...portland, longitude: -181 }, 'Longitude must be between -180 and 180'],
    ['latitude as text', { ...portland, latitude: '45.5' }, 'Latitude must be between -90 and 90'],
    ['latitude without longitude', { ...portland, longitude: undefined }, 'given together'],
    ['longitude without latitude', { ...portland, latitude: null }, 'given together'],
    ['an unknown field', { ...portland, email: 'x@example.com' }, 'email'],
  ])('refuses %s with 400 and a clear message', async (_name, payload, message) => {
    const { user, cookies } = await signedIn();
    const response = await put(cookies, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 'VALIDATION_FAILED', message: expect.stringContaining(message) });
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.location).toBeNull();
    expect(row?.maxTravelDistance).toBe(25);
  });

  it('refuses a body that is not an object', async () => {
    const { cookies } = await signedIn();
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/user/profile',
      cookies,
      headers: { 'content-type': 'application/json' },
      payload: '[]',
    });
    expect(response.statusCode).toBe(400);
  });

  it('answers 401 when signed out, before looking at the body', async () => {
    expect((await put(undefined, portland)).json()).toEqual({
      code: 'UNAUTHORIZED',
      message: expect.any(String),
    });
    const bad = await put(undefined, { location: '' });
    expect(bad.statusCode).toBe(401);
  });
});

describe('PUT /api/user/profile: how often a member may move', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ LOCATION_CHANGE_RATE_LIMIT: '3' });
  });
  afterAll(() => t.close());

  const member = async () => {
    const user = await createUser(t.database.db, { firstName: 'Mo' });
    return { user, cookies: await sessionCookiesFor(t.app, user) };
  };
  const put = (cookies: Record<string, string>, payload: object) =>
    t.app.inject({ method: 'PUT', url: '/api/user/profile', payload, cookies });
  const at = (latitude: number) => ({
    location: 'Portland, Oregon, United States',
    latitude,
    longitude: -122.67621,
    maxTravelDistance: 30,
  });

  it('allows LOCATION_CHANGE_RATE_LIMIT changes of coordinates an hour, then 429 with Retry-After, writing nothing', async () => {
    const { user, cookies } = await member();
    for (const latitude of [45.1, 45.2, 45.3]) {
      expect((await put(cookies, at(latitude))).statusCode).toBe(200);
    }
    const refused = await put(cookies, at(45.4));
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(
        /^You can change your location at most 3 times an hour\. Please try again in \d+ minutes?\.$/,
      ),
    });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.latitude).toBe(45.3);
    // Clearing the coordinates is a change too.
    expect((await put(cookies, { location: 'Nowhere', maxTravelDistance: 5 })).statusCode).toBe(429);
  });

  it('does not count saves that keep the coordinates (the place name or travel distance only)', async () => {
    const { cookies } = await member();
    expect((await put(cookies, at(45.5))).statusCode).toBe(200);
    for (let n = 1; n <= 6; n++) {
      const response = await put(cookies, { ...at(45.5), location: `Portland ${n}`, maxTravelDistance: n });
      expect(response.statusCode).toBe(200);
    }
    expect((await put(cookies, at(45.6))).statusCode).toBe(200);
    expect((await put(cookies, at(45.7))).statusCode).toBe(200);
    expect((await put(cookies, at(45.8))).statusCode).toBe(429);
  });

  it('counts each member apart', async () => {
    const first = await member();
    const second = await member();
    for (const latitude of [40.1, 40.2, 40.3]) await put(first.cookies, at(latitude));
    expect((await put(first.cookies, at(40.4))).statusCode).toBe(429);
    expect((await put(second.cookies, at(40.4))).statusCode).toBe(200);
  });
});

describe('changesCoordinates', () => {
  it('compares at the stored precision (8 decimals), and counts setting and clearing', () => {
    const home = { latitude: 45.12345678, longitude: -122.12345678 };
    expect(changesCoordinates(home, { latitude: 45.123456781, longitude: -122.123456779 })).toBe(false);
    expect(changesCoordinates(home, { latitude: 45.12345679, longitude: -122.12345678 })).toBe(true);
    expect(changesCoordinates(home, { latitude: null, longitude: null })).toBe(true);
    expect(changesCoordinates({ latitude: null, longitude: null }, {})).toBe(false);
    expect(changesCoordinates({ latitude: null, longitude: null }, home)).toBe(true);
  });
});

describe('PUT /api/user/bio', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('shows a few words on the member page; wording that breaks the Terms is refused; blank removes them', async () => {
    const member = await createUser(t.database.db, { firstName: 'Bo' });
    const viewer = await createUser(t.database.db, { firstName: 'Vi' });
    const cookies = await sessionCookiesFor(t.app, member);
    const put = (bio: unknown) =>
      t.app.inject({ method: 'PUT', url: '/api/user/bio', cookies, payload: { bio } });
    const page = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/members/${member.id}`,
          cookies: await sessionCookiesFor(t.app, viewer),
        })
      ).json().bio;

    expect((await put('  I fix bikes and bake bread.  ')).json()).toEqual({
      bio: 'I fix bikes and bake bread.',
    });
    expect(await page()).toBe('I fix bikes and bake bread.');
    const refused = await put('Text me at 503-555-0199');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'CONTENT_NOT_ALLOWED' });
    expect(await page()).toBe('I fix bikes and bake bread.');
    expect((await put('x'.repeat(281))).statusCode).toBe(400);
    expect((await put(42)).statusCode).toBe(400);
    expect((await put('   ')).json()).toEqual({ bio: null });
    expect(await page()).toBeNull();
  });
});
