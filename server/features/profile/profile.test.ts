import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/users';
import { createUser, sessionCookiesFor } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';

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
