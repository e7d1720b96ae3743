import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedItem } from '#common/schemas/feed.ts';
import { type UserRow, users } from '../db/schema/users';
import { createItem, createUser, sessionCookiesFor } from '../test/factories';
import { publicPointOf, seenMiles } from '../test/geo';
import { buildTestApp, type TestApp } from '../test/helpers';
import { KM_PER_DEGREE, type Point } from './earth';
import { cellOf } from './public-point';

const RADIANS = Math.PI / 180;
/** `point` moved `east` and `north` km (flat-map arithmetic: fine over a few km). */
const moved = (point: Point, east: number, north: number): Point => ({
  latitude: point.latitude + north / KM_PER_DEGREE,
  longitude: point.longitude + east / (KM_PER_DEGREE * Math.cos(point.latitude * RADIANS)),
});

/**
 * Distances between members are measured between their two public points (ADR 059): A sees B at
 * the figure B sees A, and moving one's exact home within its cell changes nothing anyone sees.
 */
describe('distances both ways', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const db = () => t.app.db;
  const reload = async (id: string): Promise<UserRow> => {
    const [row] = await db().select().from(users).where(eq(users.id, id));
    if (!row) throw new Error('member vanished');
    return row;
  };
  const get = async <T>(cookies: Record<string, string>, url: string): Promise<T> => {
    const response = await t.app.inject({ method: 'GET', url, cookies });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<T>();
  };
  /** The distance `viewer` is shown to `item` on every surface that shows one, all alike. */
  async function seen(
    viewer: Record<string, string>,
    itemId: number,
    ownerId: string,
  ): Promise<number | null> {
    const figures = new Set<number | null>();
    for (const url of [
      '/api/feed/everything?radius=50&limit=50',
      '/api/feed/everything?radius=50&limit=50&sort=distance',
      '/api/feed/everything?radius=50&limit=50&q=kettle',
    ]) {
      figures.add(
        (await get<FeedItem[]>(viewer, url)).find((card) => card.id === itemId)?.distanceMiles ?? null,
      );
    }
    figures.add((await get<FeedItem>(viewer, `/api/items/${itemId}`)).distanceMiles);
    const theirs = await get<FeedItem[]>(viewer, `/api/members/${ownerId}/items`);
    figures.add(theirs.find((card) => card.id === itemId)?.distanceMiles ?? null);
    expect(figures.size, `one figure everywhere, got ${[...figures].join(', ')}`).toBe(1);
    return [...figures][0] ?? null;
  }

  it('A sees B at the figure B sees A, the one between their public points', async () => {
    // Two homes a little over a mile apart, each near a corner of its cell, so that measuring from
    // either exact home would give another figure than the public points do, for most draws.
    const homeA = moved(cellOf({ latitude: 45.5152, longitude: -122.6784 }).centre, 0.45, 0.45);
    const homeB = moved(homeA, 1.2, 1.3);
    const a = await createUser(db(), { firstName: 'Ana', lastName: 'Ames', ...homeA });
    const b = await createUser(db(), { firstName: 'Ben', lastName: 'Bode', ...homeB });
    const kettle = await createItem(db(), { userId: a.id, title: 'Kettle A', category: 'appliances' });
    const kettleB = await createItem(db(), { userId: b.id, title: 'Kettle B', category: 'appliances' });
    const cookiesA = await sessionCookiesFor(t.app, a);
    const cookiesB = await sessionCookiesFor(t.app, b);

    const bSeesA = await seen(cookiesB, kettle.id, a.id);
    const aSeesB = await seen(cookiesA, kettleB.id, b.id);
    expect(bSeesA).toBe(aSeesB);
    expect(aSeesB).toBe(seenMiles(a, b));

    // A moves around the block (her exact home, within the same cell): nothing anyone sees changes.
    const before = publicPointOf(a);
    for (const [east, north] of [
      [-0.8, 0],
      [0, -0.8],
      [-0.4, -0.3],
    ] as const) {
      const next = moved(homeA, east, north);
      expect(cellOf(next)).toEqual(cellOf(homeA));
      await db().update(users).set(next).where(eq(users.id, a.id));
      expect(publicPointOf(await reload(a.id))).toEqual(before);
      expect(await seen(cookiesA, kettleB.id, b.id)).toBe(aSeesB);
      expect(await seen(cookiesB, kettle.id, a.id)).toBe(aSeesB);
    }
  });

  it('the radius filter and the figure agree: whatever a radius lets in is shown within it', async () => {
    const home = cellOf({ latitude: 40.7128, longitude: -74.006 }).centre;
    const viewer = await createUser(db(), { firstName: 'Vic', lastName: 'Viewer', ...home });
    const cookies = await sessionCookiesFor(t.app, viewer);
    // Owners from 3 to 7 miles north, 0.25 mile apart: some just inside 5 miles, some just outside.
    for (let n = 0; n <= 16; n++) {
      const owner = await createUser(db(), { ...moved(home, 0, (3 + n * 0.25) * 1.609344) });
      await createItem(db(), { userId: owner.id, title: `Lamp ${n}`, category: 'appliances' });
    }
    const all = await get<FeedItem[]>(cookies, '/api/feed/everything?radius=10&limit=50');
    const within = await get<FeedItem[]>(cookies, '/api/feed/everything?radius=5&limit=50');
    const lamps = (cards: FeedItem[]) => cards.filter((card) => card.title.startsWith('Lamp '));
    expect(lamps(all)).toHaveLength(17);
    for (const card of lamps(within)) expect(card.distanceMiles).toBeLessThanOrEqual(5);
    // Every lamp shown at 5 miles or less (well inside, not at the rounding edge) is let in.
    const shownInside = lamps(all).filter((card) => (card.distanceMiles ?? 99) < 4.95);
    expect(lamps(within).map((card) => card.id)).toEqual(
      expect.arrayContaining(shownInside.map((c) => c.id)),
    );
  });
});
