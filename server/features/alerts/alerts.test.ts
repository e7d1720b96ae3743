import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAVED_SEARCHES_MAX, type SavedSearch, type WantedCount } from '#common/schemas/alerts.ts';
import { savedSearches } from '../../db/schema/alerts';
import type { UserRow } from '../../db/schema/users';
import { createItem, createUser, createWant, sessionCookiesFor } from '../../test/factories';
import { buildTestApp, json, type TestApp } from '../../test/helpers';
import { WANTED_COUNT_PER_MINUTE } from './alerts-routes';

const ORIGIN = { latitude: 40.7128, longitude: -74.006 };
const MILE_DEGREES = 1 / 69;

describe('saved searches API', () => {
  let t: TestApp;
  let member: UserRow;
  let other: UserRow;
  let cookies: Record<string, string>;
  let otherCookies: Record<string, string>;

  beforeAll(async () => {
    t = await buildTestApp();
    member = await createUser(t.app.db, ORIGIN);
    other = await createUser(t.app.db, ORIGIN);
    cookies = await sessionCookiesFor(t.app, member);
    otherCookies = await sessionCookiesFor(t.app, other);
  });
  afterAll(() => t.close());

  const call = (options: InjectOptions, as = cookies) => t.app.inject({ cookies: as, ...options });
  const save = (payload: object, as = cookies) =>
    call({ method: 'POST', url: '/api/saved-searches', payload }, as);
  const list = async (as = cookies) => {
    const response = await call({ method: 'GET', url: '/api/saved-searches' }, as);
    expect(response.statusCode).toBe(200);
    return json<SavedSearch[]>(response);
  };

  it('saves a search with its feed, text and radius, lists it newest first, and removes it', async () => {
    const first = await save({ name: 'Bikes', feed: 'everything', q: 'bike', radius: 5 });
    expect(first.statusCode).toBe(201);
    const second = await save({ name: '  Anything nearby  ', feed: 'random-barter', q: '   ', radius: 10 });
    expect(second.statusCode).toBe(201);
    expect(json<SavedSearch>(second)).toMatchObject({ name: 'Anything nearby', q: null, radius: 10 });
    const rows = await list();
    expect(rows.map((r) => r.name)).toEqual(['Anything nearby', 'Bikes']);
    expect(rows[1]).toMatchObject({ feed: 'everything', q: 'bike', radius: 5 });

    // Someone else's is unknown to you, and stays.
    const id = json<SavedSearch>(first).id;
    expect(
      (await call({ method: 'DELETE', url: `/api/saved-searches/${id}` }, otherCookies)).statusCode,
    ).toBe(404);
    expect(await list(otherCookies)).toEqual([]);
    expect((await call({ method: 'DELETE', url: `/api/saved-searches/${id}` })).statusCode).toBe(204);
    expect((await call({ method: 'DELETE', url: `/api/saved-searches/${id}` })).statusCode).toBe(404);
    expect((await list()).map((r) => r.name)).toEqual(['Anything nearby']);
  });

  it('refuses bad input with a 400 in the contract shape', async () => {
    const bad = [
      { name: '', feed: 'everything', radius: 5 },
      { name: 'x'.repeat(61), feed: 'everything', radius: 5 },
      { name: 'Bell\u0007', feed: 'everything', radius: 5 },
      { name: 'Rtl \u202e', feed: 'everything', radius: 5 },
      { name: 'Feed', feed: 'nope', radius: 5 },
      { name: 'Radius', feed: 'everything', radius: 7 },
      { name: 'Radius', feed: 'everything', radius: '5' },
      { name: 'Text', feed: 'everything', q: 'q'.repeat(101), radius: 5 },
      { name: 'Text', feed: 'everything', q: 'tab\u0000', radius: 5 },
    ];
    for (const payload of bad) {
      const response = await save(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(json(response)).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
    for (const url of [
      '/api/saved-searches/abc',
      '/api/saved-searches/0',
      '/api/saved-searches/1e3',
      '/api/saved-searches/%00',
    ]) {
      expect((await call({ method: 'DELETE', url })).statusCode, url).toBe(400);
    }
    // A dot-segment path is no saved search: refused, never a 500.
    const dots = await call({ method: 'DELETE', url: '/api/saved-searches/%2e%2e' });
    expect([400, 404]).toContain(dots.statusCode);
    expect(json(dots)).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    expect((await t.app.inject({ method: 'GET', url: '/api/saved-searches' })).statusCode).toBe(401);
  });

  it(`keeps at most ${SAVED_SEARCHES_MAX} per member, even when two saves race for the last place`, async () => {
    const racer = await createUser(t.app.db, ORIGIN);
    const as = await sessionCookiesFor(t.app, racer);
    for (let i = 0; i < SAVED_SEARCHES_MAX - 1; i++) {
      expect(
        (await save({ name: `Search ${i}`, feed: 'everything', q: `thing ${i}`, radius: 5 }, as)).statusCode,
      ).toBe(201);
    }
    const [a, b] = await Promise.all([
      save({ name: 'Last A', feed: 'everything', radius: 5 }, as),
      save({ name: 'Last B', feed: 'everything', radius: 5 }, as),
    ]);
    expect([a?.statusCode, b?.statusCode].sort()).toEqual([201, 409]);
    const refused = [a, b].find((r) => r?.statusCode === 409);
    expect(refused && json(refused)).toMatchObject({ code: 'SAVED_SEARCH_LIMIT' });
    expect(await list(as)).toHaveLength(SAVED_SEARCHES_MAX);
  });
});

describe('wanted count API', () => {
  let t: TestApp;
  let lister: UserRow;
  let cookies: Record<string, string>;

  beforeAll(async () => {
    t = await buildTestApp();
    const db = t.app.db;
    lister = await createUser(db, ORIGIN);
    cookies = await sessionCookiesFor(t.app, lister);
    // Four neighbours want a pasta maker within a mile or so; one too far for their own distance.
    for (const miles of [0.3, 0.6, 1, 1.2]) {
      const neighbour = await createUser(db, {
        latitude: ORIGIN.latitude + miles * MILE_DEGREES,
        longitude: ORIGIN.longitude,
        firstName: 'Secret',
      });
      await createWant(db, { userId: neighbour.id, title: 'Pasta maker', category: 'kitchen' });
    }
    const homebody = await createUser(db, {
      latitude: ORIGIN.latitude + 8 * MILE_DEGREES,
      longitude: ORIGIN.longitude,
      maxTravelDistance: 2,
    });
    await createWant(db, { userId: homebody.id, title: 'Pasta maker', category: 'kitchen' });
    // The lister's own want never counts.
    await createWant(db, { userId: lister.id, title: 'Pasta maker', category: 'kitchen' });
  });
  afterAll(() => t.close());

  const count = (query: string, as = cookies) =>
    t.app.inject({ method: 'GET', url: `/api/alerts/wanted-count?${query}`, cookies: as });

  it('counts neighbours whose want the draft matches within their distance, naming nobody', async () => {
    const response = await count('title=Pasta%20maker&category=kitchen');
    expect(response.statusCode).toBe(200);
    const body = json<WantedCount>(response);
    expect(body.count).toBe(4);
    expect(body.withinMiles).toBeGreaterThanOrEqual(1);
    expect(body.withinMiles).toBeLessThanOrEqual(4);
    expect(response.body).not.toContain('Secret');
    expect(Object.keys(body).sort()).toEqual(['count', 'withinMiles']);
    // By the words alone, without the category.
    expect(json<WantedCount>(await count('title=Pasta%20maker')).count).toBe(4);
    expect(json<WantedCount>(await count('title=Lawn%20mower&category=garden'))).toEqual({
      count: 0,
      withinMiles: null,
    });
  });

  it("counts a saved search whose word no listing has yet (the search's corrections aside)", async () => {
    const db = t.app.db;
    const searcher = await createUser(db, {
      latitude: ORIGIN.latitude + 0.5 * MILE_DEGREES,
      longitude: ORIGIN.longitude,
    });
    await db.insert(savedSearches).values({
      userId: searcher.id,
      name: 'Espresso',
      feed: 'everything',
      q: 'espresso',
      radiusMiles: 5,
    });
    // A listed word spelt near "espresso" (pg_trgm), which the search corrects "espresso" to.
    await createItem(db, { title: 'Espress kettle', category: 'household' });
    expect(json<WantedCount>(await count('title=Espresso%20machine&category=appliances')).count).toBe(1);
  });

  it('answers nothing nearby to a member without a location', async () => {
    const nowhere = await createUser(t.app.db);
    const as = await sessionCookiesFor(t.app, nowhere);
    expect(json(await count('title=Pasta%20maker', as))).toEqual({ count: 0, withinMiles: null });
  });

  it('refuses bad drafts with a 400, and a flood with a 429', async () => {
    for (const query of ['', 'title=', `title=${'a'.repeat(201)}`, 'title=a%00b', 'title=a&isService=yes']) {
      expect((await count(query)).statusCode, query).toBe(400);
    }
    const flooder = await createUser(t.app.db, ORIGIN);
    const as = await sessionCookiesFor(t.app, flooder);
    for (let i = 0; i < WANTED_COUNT_PER_MINUTE; i++) {
      expect((await count('title=drill', as)).statusCode).toBe(200);
    }
    const refused = await count('title=drill', as);
    expect(refused.statusCode).toBe(429);
    expect(json(refused)).toMatchObject({ code: 'RATE_LIMITED' });
  });
});
