import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedItem } from '#common/schemas/feed.ts';
import { TOTAL_COUNT_HEADER } from '#common/schemas/listings.ts';
import type { MemberProfile, MemberRating, MemberWant } from '#common/schemas/members.ts';
import { items } from '../../db/schema/trading';
import { type UserRow, users } from '../../db/schema/users';
import {
  createBarterRequest,
  createItem,
  createRating,
  createUser,
  createWant,
  sessionCookiesFor,
} from '../../test/factories';
import { publicPointOf, seenMiles } from '../../test/geo';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { nearestPlace } from '../places';

const DAY = 24 * 60 * 60 * 1000;
/** Central Portland, Oregon. */
const PORTLAND = { latitude: 45.5152, longitude: -122.6784 };

describe('member page API', () => {
  let t: TestApp;
  let viewer: UserRow;
  let cookies: Record<string, string>;
  beforeAll(async () => {
    t = await buildTestApp();
    viewer = await createUser(t.database.db, { firstName: 'Vera', ...PORTLAND });
    cookies = await sessionCookiesFor(t.app, viewer);
  });
  afterAll(() => t.close());

  const db = () => t.database.db;
  const get = (url: string) => t.app.inject({ method: 'GET', url, cookies });
  /** The member's row as the database holds it now (with the public point its trigger drew). */
  const reload = async (member: UserRow) => {
    const [row] = await db().select().from(users).where(eq(users.id, member.id));
    if (!row) throw new Error('member vanished');
    return row;
  };
  /**
   * Nothing private in a response body: no e-mail, no location text, no coordinates of any kind but
   * the approximate area (the public point rounded to 0.01 degree, ADR 032; its value is checked by
   * the tests that read it), and never the exact point's digits.
   */
  const expectNothingPrivate = (body: string, member: UserRow) => {
    if (member.email) expect(body).not.toContain(member.email);
    expect(body).not.toContain('@');
    const withoutArea = body.replace(/"approximateArea":(null|\{[^{}]*\})/g, '');
    expect(withoutArea).not.toMatch(/latitude|longitude|public_|publicL|"lat"|"lon"|email/i);
    if (member.location) expect(body).not.toContain(member.location);
    for (const exact of [member.latitude, member.longitude])
      if (exact !== null) expect(body).not.toContain(String(Number(exact)));
  };
  /** Completed trades the member received a rating of `stars` for, from a new partner each. */
  const rateMember = async (member: UserRow, stars: number[]) => {
    for (const value of stars) {
      const partner = await createUser(db());
      const trade = await createBarterRequest(db(), {
        fromUserId: partner.id,
        toUserId: member.id,
        status: 'completed',
      });
      await createRating(db(), {
        barterRequestId: trade.id,
        raterId: partner.id,
        rateeId: member.id,
        stars: value,
      });
    }
  };

  describe('GET /api/members/:id', () => {
    it('shows name, picture, area, member since and the numbers of trade-stats; Trusted Trader when earned', async () => {
      const ann = await createUser(db(), {
        firstName: 'Ann',
        lastName: 'rivera',
        profileImageUrl: '/photos/ann.webp',
        location: '1200 SW Park Avenue, Portland',
        latitude: 45.5165,
        longitude: -122.6829,
        createdAt: new Date('2025-03-04T05:06:07Z'),
      });
      await rateMember(ann, [5, 5, 4]);
      // Not trades: pending and declined requests.
      await createBarterRequest(db(), { fromUserId: ann.id, status: 'pending' });
      await createBarterRequest(db(), { toUserId: ann.id, status: 'declined' });

      const response = await get(`/api/members/${ann.id}`);
      expect(response.statusCode).toBe(200);
      const stats = (await get(`/api/users/${ann.id}/trade-stats`)).json();
      expect(stats).toEqual({
        totalTrades: 3,
        rating: 4.7,
        thisMonth: 3,
        tradingPartners: 3,
        handOvers: { kept: 3, due: 3 },
      });
      const publicPoint = publicPointOf(await reload(ann));
      if (!publicPoint) throw new Error('no public point');
      expect(response.json<MemberProfile>()).toEqual({
        id: ann.id,
        displayName: 'Ann R.',
        profileImageUrl: '/photos/ann.webp',
        area: nearestPlace(publicPoint.latitude, publicPoint.longitude)?.displayName,
        approximateArea: {
          latitude: Math.round(publicPoint.latitude * 100) / 100,
          longitude: Math.round(publicPoint.longitude * 100) / 100,
          radiusMeters: 2500,
          name: 'Portland, Oregon, United States',
        },
        memberSince: '2025-03-04T05:06:07.000Z',
        stats,
        trustedTrader: true,
        bio: null,
      });
      expect(response.json<MemberProfile>().area).toBe('Portland, Oregon, United States');
      expectNothingPrivate(response.body, ann);
    });

    it('leaves the badge out below 3 trades or 4.5 stars, and says nothing of a member with no record', async () => {
      const two = await createUser(db());
      await rateMember(two, [5, 5]);
      const low = await createUser(db());
      await rateMember(low, [5, 4, 4]);
      const fresh = await createUser(db(), { firstName: 'Nova', lastName: null });

      const profile = async (member: UserRow) =>
        (await get(`/api/members/${member.id}`)).json<MemberProfile>();
      expect(await profile(two)).toMatchObject({
        stats: { totalTrades: 2, rating: 5 },
        trustedTrader: false,
      });
      expect(await profile(low)).toMatchObject({
        stats: { totalTrades: 3, rating: 4.3 },
        trustedTrader: false,
      });
      expect(await profile(fresh)).toMatchObject({
        displayName: 'Nova',
        area: null,
        approximateArea: null,
        stats: { totalTrades: 0, rating: null, thisMonth: 0, tradingPartners: 0 },
        trustedTrader: false,
      });
    });

    it('counts trading partners for the badge, not trades: one neighbour or one swap day is one (ADR 074)', async () => {
      const ann = await createUser(db());
      const ben = await createUser(db());
      // Three barters with Ben, and a swap day's two hand-overs with him (Ann to Ben, Ben to Ann).
      for (const [fromUserId, toUserId] of [
        [ann.id, ben.id],
        [ben.id, ann.id],
        [ann.id, ben.id],
        [ben.id, ann.id],
      ] as const) {
        const trade = await createBarterRequest(db(), { fromUserId, toUserId, status: 'completed' });
        await createRating(db(), { barterRequestId: trade.id, raterId: ben.id, rateeId: ann.id, stars: 5 });
      }
      expect((await get(`/api/members/${ann.id}`)).json<MemberProfile>()).toMatchObject({
        stats: { totalTrades: 4, rating: 5, tradingPartners: 1 },
        trustedTrader: false,
      });
      // A second partner, and one whose account is gone (each such barter counts on its own).
      await rateMember(ann, [5]);
      const gone = await createBarterRequest(db(), {
        fromUserId: null,
        toUserId: ann.id,
        status: 'completed',
      });
      expect(gone.fromUserId).toBeNull();
      expect((await get(`/api/members/${ann.id}`)).json<MemberProfile>()).toMatchObject({
        stats: { totalTrades: 6, rating: 5, tradingPartners: 3 },
        trustedTrader: true,
      });
    });

    it('names the town nearest the public point, never the one nearest the exact point', async () => {
      // Suburbs of Paris, a town every kilometre or two: somewhere the public point (0.3 to 1.5 km
      // from the exact one) is nearer another town. Members are made until one is found.
      let found = false;
      for (let attempt = 0; attempt < 60 && !found; attempt++) {
        const exact = { latitude: 48.8 + Math.random() * 0.15, longitude: 2.2 + Math.random() * 0.3 };
        const member = await reload(await createUser(db(), { ...exact, location: 'My street 1' }));
        const publicPoint = publicPointOf(member);
        if (!publicPoint) throw new Error('no public point');
        const nearExact = nearestPlace(exact.latitude, exact.longitude)?.displayName;
        const nearPublic = nearestPlace(publicPoint.latitude, publicPoint.longitude)?.displayName;
        if (nearExact === nearPublic) continue;
        found = true;
        const area = (await get(`/api/members/${member.id}`)).json<MemberProfile>().area;
        expect(area).toBe(nearPublic);
        expect(area).not.toBe(nearExact);
      }
      expect(found).toBe(true);
    });

    it('answers 404 alike for an unknown and a malformed id on every member route', async () => {
      const unknown = '00000000-0000-4000-8000-000000000000';
      for (const id of [unknown, 'abc', `${viewer.id}x`, '1', '%20', 'null']) {
        for (const suffix of ['', '/ratings', '/items', '/wants']) {
          const response = await get(`/api/members/${id}${suffix}`);
          expect({ id, suffix, status: response.statusCode }).toEqual({ id, suffix, status: 404 });
          expect(response.json()).toEqual({ message: 'Member not found.', code: 'NOT_FOUND' });
        }
      }
      // An upper-case spelling of a real id names the same member.
      expect((await get(`/api/members/${viewer.id.toUpperCase()}`)).json().id).toBe(viewer.id);
    });

    it('answers 401 to signed-out callers', async () => {
      const response = await t.app.inject({ method: 'GET', url: `/api/members/${viewer.id}` });
      expect(response.statusCode).toBe(401);
    });
  });

  describe('GET /api/members/:id/ratings', () => {
    it('lists ratings received, newest first, a page at a time, with who gave them', async () => {
      const member = await createUser(db());
      const rater = await createUser(db(), {
        firstName: 'Bob',
        lastName: 'stone',
        profileImageUrl: '/p/b.webp',
      });
      const now = Date.now();
      const made: number[] = [];
      for (let i = 0; i < 5; i++) {
        const trade = await createBarterRequest(db(), {
          fromUserId: rater.id,
          toUserId: member.id,
          status: 'completed',
        });
        const rating = await createRating(db(), {
          barterRequestId: trade.id,
          raterId: rater.id,
          rateeId: member.id,
          stars: 1 + i,
          comment: i === 4 ? 'Great trade, on time.' : null,
          createdAt: new Date(now - (5 - i) * DAY),
        });
        made.push(rating.id);
      }
      // A rater whose account is gone, and a rating the member gave (not received).
      const gone = await createBarterRequest(db(), {
        fromUserId: null,
        toUserId: member.id,
        status: 'completed',
      });
      const orphan = await createRating(db(), {
        barterRequestId: gone.id,
        raterId: null,
        rateeId: member.id,
        stars: 3,
        createdAt: new Date(now - 10 * DAY),
      });
      await createRating(db(), { barterRequestId: gone.id, raterId: member.id, rateeId: rater.id, stars: 1 });

      const first = await get(`/api/members/${member.id}/ratings?limit=2`);
      expect(first.statusCode).toBe(200);
      expect(first.headers[TOTAL_COUNT_HEADER]).toBe('6');
      const page1 = first.json<MemberRating[]>();
      expect(page1.map((r) => r.id)).toEqual([made[4], made[3]]);
      expect(page1[0]).toEqual({
        id: made[4],
        stars: 5,
        comment: 'Great trade, on time.',
        rater: { id: rater.id, displayName: 'Bob S.', profileImageUrl: '/p/b.webp' },
        createdAt: new Date(now - DAY).toISOString(),
      });
      const rest = await get(`/api/members/${member.id}/ratings?limit=10&offset=2`);
      expect(rest.headers[TOTAL_COUNT_HEADER]).toBe('6');
      const page2 = rest.json<MemberRating[]>();
      expect(page2.map((r) => r.id)).toEqual([made[2], made[1], made[0], orphan.id]);
      expect(page2[3]?.rater).toEqual({ id: null, displayName: 'Former member', profileImageUrl: null });
      expect((await get(`/api/members/${member.id}/ratings?offset=6`)).json()).toEqual([]);
      expectNothingPrivate(first.body + rest.body, rater);

      expect((await get(`/api/members/${member.id}/ratings?limit=0`)).statusCode).toBe(400);
      const none = await get(`/api/members/${viewer.id}/ratings`);
      expect(none.json()).toEqual([]);
      expect(none.headers[TOTAL_COUNT_HEADER]).toBe('0');
    });
  });

  describe('GET /api/members/:id/items', () => {
    it('lists active, unreserved items newest first as feed cards, distance to the public point', async () => {
      const owner = await createUser(db(), {
        firstName: 'Olga',
        lastName: 'Owen',
        location: '5 Oak Lane, Portland',
        latitude: PORTLAND.latitude + 0.03,
        longitude: PORTLAND.longitude,
      });
      await createWant(db(), { userId: owner.id, title: 'Canoe' });
      const now = Date.now();
      const listed = [];
      for (let i = 0; i < 3; i++) {
        listed.push(
          await createItem(db(), {
            userId: owner.id,
            title: `Listed ${i}`,
            createdAt: new Date(now - (3 - i) * DAY),
          }),
        );
      }
      await createItem(db(), { userId: owner.id, title: 'Hidden', isActive: false });
      const reserved = await createItem(db(), { userId: owner.id, title: 'Reserved' });
      const held = await createBarterRequest(db(), {
        toUserId: owner.id,
        toItemId: reserved.id,
        status: 'accepted',
      });
      await db().update(items).set({ reservedByRequestId: held.id }).where(eq(items.id, reserved.id));
      await createItem(db(), { title: 'Someone else' });
      // The viewer saved one of them.
      await t.app.inject({ method: 'POST', url: `/api/saved-items/${listed[1]?.id}`, cookies });

      const response = await get(`/api/members/${owner.id}/items?limit=2`);
      expect(response.statusCode).toBe(200);
      expect(response.headers[TOTAL_COUNT_HEADER]).toBe('3');
      const cards = response.json<FeedItem[]>();
      expect(cards.map((card) => card.title)).toEqual(['Listed 2', 'Listed 1']);
      expect(cards[1]).toMatchObject({
        id: listed[1]?.id,
        isSaved: true,
        user: { id: owner.id, firstName: 'Olga', lastName: 'O.' },
        owner: { rating: null, completedTrades: 0 },
        lookingFor: ['Canoe'],
        distanceMiles: seenMiles(viewer, await reload(owner)),
      });
      expect(cards[0]?.isSaved).toBe(false);
      // The very card the Saved list (and the feeds) show.
      expect((await get('/api/saved-items')).json<FeedItem[]>()).toContainEqual(cards[1]);
      const rest = await get(`/api/members/${owner.id}/items?limit=2&offset=2`);
      expect(rest.json<FeedItem[]>().map((card) => card.title)).toEqual(['Listed 0']);
      expect(rest.headers[TOTAL_COUNT_HEADER]).toBe('3');
      expectNothingPrivate(response.body + rest.body, owner);
    });

    it('measures nothing without a location, and shows one’s own items at 0 miles', async () => {
      const nowhere = await createUser(db());
      await createItem(db(), { userId: nowhere.id });
      const card = (await get(`/api/members/${nowhere.id}/items`)).json<FeedItem[]>()[0];
      expect(card?.distanceMiles).toBeNull();

      await createItem(db(), { userId: viewer.id, title: 'Mine' });
      const own = (await get(`/api/members/${viewer.id}/items`)).json<FeedItem[]>();
      expect(own.map((item) => [item.title, item.distanceMiles])).toEqual([['Mine', 0]]);
    });
  });

  describe('GET /api/members/:id/wants', () => {
    it('lists active wants newest first, at most 50', async () => {
      const member = await createUser(db());
      const now = Date.now();
      for (let i = 0; i < 51; i++) {
        await createWant(db(), {
          userId: member.id,
          title: `Want ${i}`,
          category: i === 50 ? 'services' : 'books',
          isService: i === 50,
          createdAt: new Date(now - (51 - i) * 1000),
        });
      }
      await createWant(db(), { userId: member.id, title: 'Old wish', isActive: false });
      const response = await get(`/api/members/${member.id}/wants`);
      expect(response.statusCode).toBe(200);
      const wants = response.json<MemberWant[]>();
      expect(wants).toHaveLength(50);
      expect(wants[0]).toEqual({
        id: expect.any(Number),
        title: 'Want 50',
        category: 'services',
        isService: true,
      });
      expect(wants.at(-1)?.title).toBe('Want 1');
      expect(wants.map((want) => want.title)).not.toContain('Old wish');
      expect((await get(`/api/members/${viewer.id}/wants`)).json()).toEqual([]);
    });
  });
});
