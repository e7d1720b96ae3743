import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedItem } from '#common/schemas/feed.ts';
import type { FlyerNeighborhood } from '#common/schemas/flyer.ts';
import { items } from '../db/schema/trading';
import { type UserRow, users } from '../db/schema/users';
import { createItem, createUser, sessionCookiesFor } from '../test/factories';
import { publicPointOf, seenMiles } from '../test/geo';
import { buildTestApp, type TestApp } from '../test/helpers';
import { KM_PER_DEGREE, KM_PER_MILE, kmBetween, milesBetween, type Point } from './earth';
import { cellOf, MAX_DISPLACEMENT_KM, OFFSET_KM } from './public-point';

const RADIANS = Math.PI / 180;

/** `point` moved `east` and `north` km (flat-map arithmetic: fine over a few km). */
const moved = (point: Point, east: number, north: number): Point => ({
  latitude: point.latitude + north / KM_PER_DEGREE,
  longitude: point.longitude + east / (KM_PER_DEGREE * Math.cos(point.latitude * RADIANS)),
});

/**
 * The public point (migration 0009, server/geo/README.md) as the database keeps it, and the API
 * measuring others only by it.
 */
describe('public points', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ LOCATION_CHANGE_RATE_LIMIT: '1000' });
  });
  afterAll(() => t.close());
  const db = () => t.app.db;

  const reload = async (id: string): Promise<UserRow> => {
    const [row] = await db().select().from(users).where(eq(users.id, id));
    if (!row) throw new Error('member gone');
    return row;
  };
  const itemPoint = async (id: number) => {
    const [row] = await db()
      .select({ latitude: items.latitude, longitude: items.longitude })
      .from(items)
      .where(eq(items.id, id));
    return row;
  };
  const moveTo = async (id: string, point: Point | null) => {
    await db()
      .update(users)
      .set({ latitude: point?.latitude ?? null, longitude: point?.longitude ?? null })
      .where(eq(users.id, id));
    return reload(id);
  };
  const exactOf = (member: UserRow): Point => ({
    latitude: Number(member.latitude),
    longitude: Number(member.longitude),
  });

  /** The public point lies 0.4-0.8 km from the centre of the exact point's cell. */
  const expectDrawnFor = (member: UserRow) => {
    const point = publicPointOf(member);
    if (!point) throw new Error('no public point');
    const fromCentre = kmBetween(cellOf(exactOf(member)).centre, point);
    expect(fromCentre).toBeGreaterThanOrEqual(OFFSET_KM.min - 1e-3);
    expect(fromCentre).toBeLessThanOrEqual(OFFSET_KM.max + 1e-3);
    expect(kmBetween(exactOf(member), point)).toBeLessThanOrEqual(MAX_DISPLACEMENT_KM + 1e-3);
    return point;
  };

  describe('in the database', () => {
    // The middle of a cell, so moves of up to 0.3 km stay in it.
    const centre = cellOf({ latitude: 52.37, longitude: 4.89 }).centre;

    it('is drawn for every new member with a location, and items carry it', async () => {
      const member = await createUser(db(), centre);
      const point = expectDrawnFor(member);
      const item = await createItem(db(), { userId: member.id });
      expect(await itemPoint(item.id)).toEqual(point);
      // Different members in one cell get different offsets.
      const other = await createUser(db(), centre);
      expect(publicPointOf(other)).not.toEqual(point);
      const none = await createUser(db(), {});
      expect(publicPointOf(none)).toBeNull();
    });

    it('stays put while the member moves within the cell', async () => {
      const member = await createUser(db(), centre);
      const item = await createItem(db(), { userId: member.id });
      const point = publicPointOf(member);
      for (const [east, north] of [
        [0.3, 0],
        [-0.3, 0.3],
        [0.2, -0.3],
        [0, 0],
      ] as const) {
        const there = moved(centre, east, north);
        expect(cellOf(there).centre).toEqual(centre);
        expect(publicPointOf(await moveTo(member.id, there))).toEqual(point);
      }
      expect(await itemPoint(item.id)).toEqual(point);
    });

    it('is drawn again when the member moves to another cell, and their items follow', async () => {
      const member = await createUser(db(), centre);
      const item = await createItem(db(), { userId: member.id });
      const first = publicPointOf(member);
      // 1.2 km east: inside the next cell, away from its edges.
      const after = await moveTo(member.id, moved(centre, 1.2, 0));
      const second = expectDrawnFor(after);
      expect(second).not.toEqual(first);
      expect(await itemPoint(item.id)).toEqual(second);
      // A long way off: the public point goes with the member.
      const far = await moveTo(member.id, { latitude: -41.29, longitude: 174.78 });
      expect(await itemPoint(item.id)).toEqual(expectDrawnFor(far));
      // No location: no public point, and the items have none either.
      const cleared = await moveTo(member.id, null);
      expect(publicPointOf(cleared)).toBeNull();
      expect(await itemPoint(item.id)).toEqual({ latitude: null, longitude: null });
    });

    it('cannot be set by anyone: writes to it or to an item copy are overruled', async () => {
      const member = await createUser(db(), { ...centre, publicLatitude: 1, publicLongitude: 2 });
      const point = expectDrawnFor(member);
      await db().update(users).set({ publicLatitude: 1, publicLongitude: 2 }).where(eq(users.id, member.id));
      expect(publicPointOf(await reload(member.id))).toEqual(point);
      const item = await createItem(db(), { userId: member.id, latitude: centre.latitude, longitude: 3 });
      expect(await itemPoint(item.id)).toEqual(point);
      await db()
        .update(items)
        .set({ latitude: centre.latitude, longitude: centre.longitude })
        .where(eq(items.id, item.id));
      expect(await itemPoint(item.id)).toEqual(point);
    });
  });

  describe('through the API', () => {
    const RADIUS_MILES = 5;

    /**
     * A member and two viewers near the line through the member's public and exact points, each
     * about RADIUS_MILES away from one of them, measured from the viewer's own PUBLIC point (ADR
     * 059): `nearExact` has the member's exact point inside the radius and their public point
     * outside; `nearPublic` the other way round.
     */
    async function arrangement() {
      // Near the equator the flat-map arithmetic over 8 km is good to a few metres.
      let owner = await createUser(db(), { latitude: 1.3, longitude: 103.8, firstName: 'Lin' });
      // A public point at least 1 km from the exact one, so the two differ clearly.
      for (let n = 1; kmBetween(exactOf(owner), publicPointOf(owner) as Point) < 1; n++) {
        owner = await moveTo(owner.id, moved(exactOf(owner), 1.5 * n, 0));
      }
      const exact = exactOf(owner);
      const point = publicPointOf(owner) as Point;
      const d = kmBetween(exact, point);
      const kmPerLon = KM_PER_DEGREE * Math.cos(exact.latitude * RADIANS);
      // Unit vector from the public point to the exact one, in km east and north.
      const east = (exact.longitude - point.longitude) * kmPerLon;
      const north = (exact.latitude - point.latitude) * KM_PER_DEGREE;
      const along = (from: Point, km: number) => moved(from, (east / d) * km, (north / d) * km);
      const radiusKm = RADIUS_MILES * KM_PER_MILE;
      const nearExact = along(exact, radiusKm - d / 2);
      const nearPublic = along(point, -(radiusKm - d / 2));
      const item = await createItem(db(), { userId: owner.id, title: 'Rice cooker' });
      /**
       * A viewer living near `at` whose public point fits: moved to other cells nearby (each draws
       * a new public point) until it does. The premise is checked on the sphere.
       */
      const viewer = async (at: Point, fits: (from: Point) => boolean) => {
        let member = await createUser(db(), { ...at, maxTravelDistance: RADIUS_MILES });
        for (let n = 1; !fits(publicPointOf(member) as Point); n++) {
          if (n > 300) throw new Error('no public point fits the arrangement');
          // A deterministic walk over the cells within about 1.5 km of `at`.
          member = await moveTo(
            member.id,
            moved(at, 1.5 * Math.sin(n * 2.39996), 1.5 * Math.cos(n * 1.61803)),
          );
        }
        return { at: publicPointOf(member) as Point, cookies: await sessionCookiesFor(t.app, member) };
      };
      const inside = (from: Point, to: Point) => milesBetween(from, to) < RADIUS_MILES - 0.05;
      const outside = (from: Point, to: Point) => milesBetween(from, to) > RADIUS_MILES + 0.05;
      return {
        owner,
        item,
        nearExact: await viewer(nearExact, (from) => inside(from, exact) && outside(from, point)),
        nearPublic: await viewer(nearPublic, (from) => outside(from, exact) && inside(from, point)),
      };
    }

    it('feeds, search and the flyer include a member by their public point, never their exact one', async () => {
      const { owner, item, nearExact, nearPublic } = await arrangement();
      const get = async <T>(url: string, cookies: Record<string, string>) => {
        const response = await t.app.inject({ method: 'GET', url, cookies });
        expect(response.statusCode, response.body).toBe(200);
        return response.json<T>();
      };
      for (const url of [
        `/api/feed/everything?radius=${RADIUS_MILES}`,
        `/api/feed/everything?radius=${RADIUS_MILES}&sort=distance`,
        `/api/feed/random-barter?radius=${RADIUS_MILES}`,
        `/api/feed/everything?radius=${RADIUS_MILES}&q=rice`,
      ]) {
        expect(await get<FeedItem[]>(url, nearExact.cookies), url).toEqual([]);
        const found = await get<FeedItem[]>(url, nearPublic.cookies);
        expect(
          found.map((card) => card.id),
          url,
        ).toEqual([item.id]);
        expect(found[0]?.distanceMiles, url).toBe(seenMiles(nearPublic.at, owner));
      }
      const flyer = (cookies: Record<string, string>) =>
        get<FlyerNeighborhood>('/api/flyer/neighborhood', cookies);
      expect((await flyer(nearExact.cookies)).offers).toEqual([]);
      expect((await flyer(nearPublic.cookies)).offers.map((offer) => offer.title)).toEqual(['Rice cooker']);
      // The detail shows the distance to the public point too.
      const detail = await get<FeedItem>(`/api/items/${item.id}`, nearExact.cookies);
      expect(detail.distanceMiles).toBe(seenMiles(nearExact.at, owner));
      expect(detail.distanceMiles).toBeGreaterThan(RADIUS_MILES);
    });

    it('moving through PUT /api/user/profile moves the public point the same way', async () => {
      const member = await createUser(db(), {});
      const cookies = await sessionCookiesFor(t.app, member);
      const put = (point: Point) =>
        t.app.inject({
          method: 'PUT',
          url: '/api/user/profile',
          cookies,
          payload: { location: 'Amsterdam', ...point, maxTravelDistance: 10 },
        });
      const home = cellOf({ latitude: 52.37, longitude: 4.89 }).centre;
      expect((await put(home)).statusCode).toBe(200);
      const first = expectDrawnFor(await reload(member.id));
      expect((await put(moved(home, 0.2, 0.2))).statusCode).toBe(200);
      expect(publicPointOf(await reload(member.id))).toEqual(first);
      expect((await put(moved(home, 0, -1.2))).statusCode).toBe(200);
      expect(expectDrawnFor(await reload(member.id))).not.toEqual(first);
      // And the member's own answer never shows the public point.
      const me = await t.app.inject({ method: 'GET', url: '/api/auth/user', cookies });
      expect(me.body).not.toMatch(/public/i);
    });
  });
});
