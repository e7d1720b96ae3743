import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLYER_NEIGHBORHOOD_LIMIT, type FlyerNeighborhood } from '#common/schemas/flyer.ts';
import type { UserRow } from '../../db/schema/users';
import { EARTH_RADIUS_MILES } from '../../geo/earth';
import { createItem, createUser, createWant, sessionCookiesFor } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';

const MINUTE = 60 * 1000;
/** Miles per degree of latitude, and of longitude at `latitude`. */
const MILES_PER_DEGREE = (EARTH_RADIUS_MILES * Math.PI) / 180;
const milesPerLonDegree = (latitude: number) => MILES_PER_DEGREE * Math.cos((latitude * Math.PI) / 180);

describe('GET /api/flyer/neighborhood', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());
  const db = () => t.database.db;

  const getAs = async (user: UserRow | null) =>
    t.app.inject({
      method: 'GET',
      url: '/api/flyer/neighborhood',
      cookies: user ? await sessionCookiesFor(t.app, user) : undefined,
    });

  it('answers 401 when signed out', async () => {
    const response = await getAs(null);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('without a location: the newest active offers and wants of others anywhere, at most six each', async () => {
    // Later than anything else in this file, so these are the newest overall.
    const base = Date.now() + 60 * MINUTE;
    const viewer = await createUser(db(), { firstName: 'Nola' });
    const ada = await createUser(db(), { firstName: 'Ada', lastName: 'Lovelace' });
    for (let n = 0; n < FLYER_NEIGHBORHOOD_LIMIT + 2; n++) {
      await createItem(db(), { userId: ada.id, title: `Offer ${n}`, createdAt: new Date(base + n * MINUTE) });
      await createWant(db(), { userId: ada.id, title: `Want ${n}`, createdAt: new Date(base + n * MINUTE) });
    }
    // Newest of all, but the viewer's own or no longer active.
    await createItem(db(), {
      userId: viewer.id,
      title: 'My own offer',
      createdAt: new Date(base + 99 * MINUTE),
    });
    await createWant(db(), {
      userId: viewer.id,
      title: 'My own want',
      createdAt: new Date(base + 99 * MINUTE),
    });
    await createItem(db(), {
      userId: ada.id,
      title: 'Gone offer',
      isActive: false,
      createdAt: new Date(base + 98 * MINUTE),
    });
    await createWant(db(), {
      userId: ada.id,
      title: 'Gone want',
      isActive: false,
      createdAt: new Date(base + 98 * MINUTE),
    });

    const response = await getAs(viewer);
    expect(response.statusCode).toBe(200);
    const body = response.json<FlyerNeighborhood>();
    expect(body.offers.map((o) => o.title)).toEqual([
      'Offer 7',
      'Offer 6',
      'Offer 5',
      'Offer 4',
      'Offer 3',
      'Offer 2',
    ]);
    expect(body.wants.map((w) => w.title)).toEqual([
      'Want 7',
      'Want 6',
      'Want 5',
      'Want 4',
      'Want 3',
      'Want 2',
    ]);
    expect(body.offers[0]).toEqual({
      title: 'Offer 7',
      category: 'tools',
      isService: false,
      firstName: 'Ada',
    });
    expect(body.wants[0]).toEqual({ title: 'Want 7', category: 'books', isService: false, firstName: 'Ada' });
  });

  it('with a location: only members within the max travel distance (box corners excluded), never those without a position', async () => {
    // Far from every other member this file makes.
    const home = { latitude: -41.3, longitude: 174.8 };
    const viewer = await createUser(db(), { firstName: 'Wiremu', ...home, maxTravelDistance: 10 });
    /** A member `north` and `east` miles away from the viewer. */
    const memberAt = (firstName: string, north: number, east: number) =>
      createUser(db(), {
        firstName,
        latitude: home.latitude + north / MILES_PER_DEGREE,
        longitude: home.longitude + east / milesPerLonDegree(home.latitude),
      });
    const near = await memberAt('Near', 5, 0);
    // A public point is at most 0.94 miles from the exact one (server/geo/README.md): every member
    // here is further than that from the edge of the circle, so the answers do not depend on the draw.
    const edge = await memberAt('Edge', 0, -9);
    // Inside the bounding box but about 11.3 miles away.
    const corner = await memberAt('Corner', 8, 8);
    const far = await memberAt('Far', 20, 0);
    const nowhere = await createUser(db(), { firstName: 'Nowhere' });
    for (const member of [near, edge, corner, far, nowhere]) {
      await createItem(db(), {
        userId: member.id,
        title: `${member.firstName}'s offer`,
        isService: member === edge,
      });
      await createWant(db(), { userId: member.id, title: `${member.firstName}'s want`, category: 'tools' });
    }
    await createItem(db(), { userId: viewer.id, title: "Wiremu's offer" });

    const body = (await getAs(viewer)).json<FlyerNeighborhood>();
    expect(body.offers).toEqual([
      { title: "Edge's offer", category: 'tools', isService: true, firstName: 'Edge' },
      { title: "Near's offer", category: 'tools', isService: false, firstName: 'Near' },
    ]);
    expect(body.wants.map((w) => w.firstName)).toEqual(['Edge', 'Near']);

    // A longer travel distance takes in the corner and the far member.
    const traveller = await createUser(db(), { firstName: 'Tama', ...home, maxTravelDistance: 25 });
    const wider = (await getAs(traveller)).json<FlyerNeighborhood>();
    expect(wider.offers.map((o) => o.firstName).sort()).toEqual(['Corner', 'Edge', 'Far', 'Near', 'Wiremu']);
  });

  it('shares first names only: no e-mail, last name, location, coordinates or ids', async () => {
    const home = { latitude: 52.1, longitude: 5.1 };
    const viewer = await createUser(db(), { firstName: 'Vos', ...home });
    const owner = await createUser(db(), {
      firstName: '  Grietje ',
      lastName: 'Uniquelastname',
      email: 'grietje.private@example.test',
      location: 'Utrecht, Secretstraat 12',
      latitude: 52.1234567,
      longitude: 5.1234567,
    });
    const blank = await createUser(db(), { firstName: '', latitude: 52.11, longitude: 5.11 });
    await createItem(db(), { userId: owner.id, title: 'Bread maker', description: 'Private description' });
    await createWant(db(), {
      userId: owner.id,
      title: 'Sourdough starter',
      description: 'Private too',
      maxValue: 12,
    });
    await createItem(db(), { userId: blank.id, title: 'Ladder' });

    const response = await getAs(viewer);
    const body = response.json<FlyerNeighborhood>();
    expect(body.offers).toEqual([
      { title: 'Ladder', category: 'tools', isService: false, firstName: null },
      { title: 'Bread maker', category: 'tools', isService: false, firstName: 'Grietje' },
    ]);
    expect(body.wants).toEqual([
      { title: 'Sourdough starter', category: 'books', isService: false, firstName: 'Grietje' },
    ]);
    for (const secret of [
      'grietje.private',
      'Uniquelastname',
      'Secretstraat',
      '52.12',
      '5.12',
      'Private',
      owner.id,
      '"id"',
      'email',
      'latitude',
    ]) {
      expect(response.body).not.toContain(secret);
    }
  });
});
