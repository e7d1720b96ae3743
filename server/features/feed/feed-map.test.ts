/**
 * A feed's map (ADR 086): the feed's own items, in its order, each at its owner's public point
 * rounded to 0.01 degree (never a home), with the viewer's own area to open on.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedItem } from '#common/schemas/feed.ts';
import type { FeedMap } from '#common/schemas/maps.ts';
import { type UserRow, users } from '../../db/schema/users';
import { approximateArea } from '../../geo/approximate-area';
import { createItem, createUser, createWant, sessionCookiesFor } from '../../test/factories';
import { publicPointOf } from '../../test/geo';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { settleMatchGraph } from '../match-graph';

const DEG_PER_MILE = 1 / 69.0936;
// Not round numbers, so a coordinate in an answer cannot be mistaken for anything else.
const HOME = { latitude: 45.51237, longitude: -122.65871 };

/** The area maps' centre for a member: their public point rounded to 0.01 degree. */
function centreOf(member: UserRow) {
  const area = approximateArea(publicPointOf(member));
  if (!area) throw new Error('no public point');
  return { latitude: area.latitude, longitude: area.longitude };
}

// As shipped (rankings kept), and with every page ranked afresh, where a page's cards come from
// the kept cards (and so do their points) whenever the card counter stands.
describe.each<{ kept: string; settings: Record<string, string> }>([
  { kept: 'rankings kept', settings: {} },
  { kept: 'every page ranked, cards kept', settings: { FEED_RANKING_CACHE_SECONDS: '0' } },
])('GET /api/feed/:feedName/map ($kept)', ({ settings }) => {
  let t: TestApp;
  let viewer: UserRow;
  let neighbour: UserRow;
  let across: UserRow;
  let faraway: UserRow;
  let nowhere: UserRow;
  let cookies: Record<string, string>;
  const ids = {} as Record<'drill' | 'lamp' | 'tent' | 'far' | 'ghost', number>;

  beforeAll(async () => {
    t = await buildTestApp(settings);
    const db = t.app.db;
    viewer = await createUser(db, { firstName: 'Vera', lastName: 'Viewer', ...HOME });
    neighbour = await createUser(db, {
      firstName: 'Olga',
      lastName: 'Owens',
      latitude: HOME.latitude + DEG_PER_MILE,
      longitude: HOME.longitude,
    });
    across = await createUser(db, {
      firstName: 'Alan',
      lastName: 'Across',
      latitude: HOME.latitude - 9 * DEG_PER_MILE,
      longitude: HOME.longitude + 0.05,
    });
    // 80 miles north: outside the widest radius.
    faraway = await createUser(db, {
      firstName: 'Frank',
      lastName: 'Farr',
      latitude: HOME.latitude + 80 * DEG_PER_MILE,
      longitude: HOME.longitude,
    });
    nowhere = await createUser(db, { firstName: 'Nadia', lastName: 'Nowhere' });
    cookies = await sessionCookiesFor(t.app, viewer);
    await createWant(db, { userId: viewer.id, title: 'Cordless drill', category: 'tools' });
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    ids.drill = (
      await createItem(db, {
        userId: neighbour.id,
        title: 'Cordless drill',
        category: 'tools',
        createdAt: at(5),
      })
    ).id;
    ids.lamp = (
      await createItem(db, { userId: neighbour.id, title: 'Desk lamp', category: 'home', createdAt: at(10) })
    ).id;
    ids.tent = (
      await createItem(db, {
        userId: across.id,
        title: 'Camping tent',
        category: 'outdoors',
        createdAt: at(15),
      })
    ).id;
    ids.far = (await createItem(db, { userId: faraway.id, title: 'Far sofa', category: 'home' })).id;
    ids.ghost = (await createItem(db, { userId: nowhere.id, title: 'Ghost chair', category: 'home' })).id;
    await createItem(db, { userId: viewer.id, title: 'My own bike', category: 'bikes' });
    await settleMatchGraph(db);
  });
  afterAll(() => t.close());

  const map = (
    feed: string,
    query: Record<string, string> = {},
    as: Record<string, string> | null = cookies,
  ) => t.app.inject({ method: 'GET', url: `/api/feed/${feed}/map`, query, ...(as ? { cookies: as } : {}) });

  it("places Everything's items at their owners' rounded public points, in the feed's order", async () => {
    const response = await map('everything', { radius: '25' });
    expect(response.statusCode).toBe(200);
    const body = response.json() as FeedMap;
    const feed = await t.app.inject({
      method: 'GET',
      url: '/api/feed/everything?radius=25&limit=50',
      cookies,
    });
    const listed = (feed.json() as FeedItem[]).map((item) => item.id);
    // The same items as the feed, in its order: the map's list beside it matches the feed.
    expect(body.items.map((item) => item.id)).toEqual(listed);
    expect(body.items.map((item) => item.id)).toEqual([ids.drill, ids.lamp, ids.tent]);
    const byId = new Map(body.items.map((item) => [item.id, item]));
    expect(byId.get(ids.drill)?.point).toEqual(centreOf(neighbour));
    expect(byId.get(ids.lamp)?.point).toEqual(centreOf(neighbour));
    expect(byId.get(ids.tent)?.point).toEqual(centreOf(across));
    expect(body.centre).toEqual(centreOf(viewer));
    expect(body).toMatchObject({ withoutPoint: 0, radiusMiles: 25 });
    // What the marker and the list beside the map show; Details opens the rest by id.
    const card = (feed.json() as FeedItem[]).find((item) => item.id === ids.tent);
    expect(byId.get(ids.tent)).toEqual({
      id: ids.tent,
      title: 'Camping tent',
      user: { id: across.id, firstName: 'Alan', lastName: 'A.' },
      distanceMiles: card?.distanceMiles,
      point: centreOf(across),
    });
  });

  it('never carries an exact or unrounded point', async () => {
    const text = (await map('everything', { radius: '50' })).body;
    for (const member of [neighbour, across, viewer]) {
      expect(text).not.toContain(String(member.latitude));
      expect(text).not.toContain(String(member.longitude));
      expect(text).not.toContain(String(member.publicLatitude));
      expect(text).not.toContain(String(member.publicLongitude));
    }
    const body = JSON.parse(text) as FeedMap;
    for (const { point } of body.items) {
      expect(Math.round(point.latitude * 100) / 100).toBe(point.latitude);
      expect(Math.round(point.longitude * 100) / 100).toBe(point.longitude);
    }
  });

  it("moves an item's point when its owner moves, though its card is kept between requests", async () => {
    const before = (await map('everything', { radius: '25' })).json() as FeedMap;
    expect(before.items.find((item) => item.id === ids.tent)?.point).toEqual(centreOf(across));
    // Alan moves about 4 miles north-east: a new public point, a new 0.01-degree centre.
    const [moved] = await t.app.db
      .update(users)
      .set({ latitude: HOME.latitude - 5 * DEG_PER_MILE, longitude: HOME.longitude + 0.1 })
      .where(eq(users.id, across.id))
      .returning();
    if (!moved) throw new Error('Alan was not moved');
    expect(centreOf(moved)).not.toEqual(centreOf(across));
    const after = (await map('everything', { radius: '25' })).json() as FeedMap;
    expect(after.items.find((item) => item.id === ids.tent)?.point).toEqual(centreOf(moved));
    across = moved;
  });

  it('follows the radius and the search text', async () => {
    const near = (await map('everything', { radius: '5' })).json() as FeedMap;
    expect(near.items.map((item) => item.id)).toEqual([ids.drill, ids.lamp]);
    const searched = (await map('everything', { radius: '25', q: 'tent' })).json() as FeedMap;
    expect(searched.items.map((item) => item.id)).toEqual([ids.tent]);
  });

  it('shows Barter Match with its reasons', async () => {
    const body = (await map('barter-match', { radius: '25' })).json() as FeedMap;
    expect(body.items.map((item) => item.id)).toContain(ids.drill);
    const drill = body.items.find((item) => item.id === ids.drill);
    expect(drill?.match?.score).toEqual(expect.any(Number));
    expect(drill?.match?.score).toBeGreaterThan(0);
    expect(drill?.point).toEqual(centreOf(neighbour));
  });

  it('counts what cannot be placed for a viewer without a location, and has no centre', async () => {
    const response = await map('everything', {}, await sessionCookiesFor(t.app, nowhere));
    expect(response.statusCode).toBe(200);
    const body = response.json() as FeedMap;
    expect(body.centre).toBeNull();
    // Without a location there is no distance filter: every item of others, the far one too.
    expect(body.items.map((item) => item.id)).toEqual(expect.arrayContaining([ids.drill, ids.far]));
    expect(body.items.map((item) => item.id)).not.toContain(ids.ghost); // their own
    expect(body.withoutPoint).toBe(0);
    const viewerSees = (await map('everything', { radius: '50' })).json() as FeedMap;
    expect(viewerSees.items.map((item) => item.id)).not.toContain(ids.ghost);
  });

  it('refuses bad input with 4xx in the error shape', async () => {
    const expectError = async (response: Awaited<ReturnType<typeof map>>, status: number) => {
      expect(response.statusCode).toBe(status);
      expect(response.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    };
    await expectError(await map('nothing-here'), 404);
    await expectError(await map('%2e%2e%2Feverything'), 404);
    await expectError(await map('everything', { radius: '7' }), 400);
    await expectError(await map('everything', { radius: '0x19' }), 400);
    await expectError(await map('everything', { sort: 'nearest' }), 400);
    await expectError(await map('everything', { q: 'drill\u0000' }), 400);
    await expectError(await map('everything', { q: 'x'.repeat(101) }), 400);
    await expectError(await map('everything', {}, null), 401);
  });
});
