import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { items } from '../../db/schema/trading';
import { type UserRow, users } from '../../db/schema/users';
import {
  createBarterRequest,
  createItem,
  createRating,
  createUser,
  sessionCookiesFor,
} from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { traderSummaryColumns } from './trades-repository';
import { currentMonthUtc } from './trades-service';

const DAY = 24 * 60 * 60 * 1000;

describe('trade history and stats', () => {
  let t: TestApp;
  let viewer: UserRow;
  let viewerCookies: Record<string, string>;
  beforeAll(async () => {
    t = await buildTestApp();
    viewer = await createUser(t.database.db, { firstName: 'Vera' });
    viewerCookies = await sessionCookiesFor(t.app, viewer);
  });
  afterAll(() => t.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  /** As the viewer unless other cookies are given; null: signed out. */
  const get = (url: string, cookies: Record<string, string> | null = viewerCookies) =>
    t.app.inject({ method: 'GET', url, cookies: cookies ?? undefined });
  const db = () => t.database.db;

  describe('GET /api/users/:id/trades', () => {
    it('lists completed trades with both members and items, newest first; others e-mails are null', async () => {
      const ana = await createUser(db(), { firstName: 'Ana', profileImageUrl: '/photos/ana.webp' });
      const ben = await createUser(db(), { firstName: 'Ben' });
      const drill = await createItem(db(), { userId: ana.id, title: 'Cordless drill', category: 'tools' });
      const bike = await createItem(db(), { userId: ben.id, title: 'Road bike', category: 'bikes' });
      const now = Date.now();
      const older = await createBarterRequest(db(), {
        fromUserId: ana.id,
        toUserId: ben.id,
        fromItemId: drill.id,
        toItemId: bike.id,
        status: 'completed',
        createdAt: new Date(now - 10 * DAY),
        updatedAt: new Date(now - 5 * DAY),
      });
      const newer = await createBarterRequest(db(), {
        fromUserId: ben.id,
        toUserId: ana.id,
        toItemId: drill.id,
        status: 'completed',
        updatedAt: new Date(now - DAY),
      });
      // Not trades: still open, declined, cancelled.
      for (const status of ['pending', 'accepted', 'declined', 'cancelled']) {
        await createBarterRequest(db(), { fromUserId: ana.id, toUserId: ben.id, status });
      }

      const response = await get(`/api/users/${ana.id}/trades`);
      expect(response.statusCode).toBe(200);
      const trades = response.json();
      expect(trades.map((trade: { id: number }) => trade.id)).toEqual([newer.id, older.id]);
      expect(trades[1]).toEqual({
        id: older.id,
        fromUserId: ana.id,
        toUserId: ben.id,
        fromUser: { firstName: 'Ana', email: null, profileImageUrl: '/photos/ana.webp' },
        toUser: { firstName: 'Ben', email: null, profileImageUrl: null },
        fromItem: { title: 'Cordless drill', category: 'tools' },
        toItem: { title: 'Road bike', category: 'bikes' },
        fromItems: [{ title: 'Cordless drill', category: 'tools' }],
        toItems: [{ title: 'Road bike', category: 'bikes' }],
        swapDay: null,
        status: 'completed',
        createdAt: new Date(now - 10 * DAY).toISOString(),
        updatedAt: new Date(now - 5 * DAY).toISOString(),
      });
      expect(trades[0]).toMatchObject({ fromItem: null, toItem: { title: 'Cordless drill' } });
      // No other field of a member or an item leaks, and no e-mail of anyone but the viewer.
      expect(response.body).not.toContain('@example.test');
      expect(response.body).not.toContain('latitude');
    });

    it("shows the viewer's own e-mail on the viewer's side only", async () => {
      const other = await createUser(db(), { firstName: 'Otto' });
      await createBarterRequest(db(), { fromUserId: viewer.id, toUserId: other.id, status: 'completed' });

      const mine = (await get(`/api/users/${viewer.id}/trades`)).json();
      expect(mine[0].fromUser).toEqual({ firstName: 'Vera', email: viewer.email, profileImageUrl: null });
      expect(mine[0].toUser).toEqual({ firstName: 'Otto', email: null, profileImageUrl: null });

      // The same trade seen by the other member: now Vera's e-mail is hidden and Otto's shown.
      const asOther = (
        await get(`/api/users/${viewer.id}/trades`, await sessionCookiesFor(t.app, other))
      ).json();
      expect(asOther[0].fromUser.email).toBeNull();
      expect(asOther[0].toUser.email).toBe(other.email);
    });

    it('orders trades updated at the same moment by id, newest first', async () => {
      const user = await createUser(db());
      const at = new Date('2026-01-15T12:00:00Z');
      const ids: number[] = [];
      for (let i = 0; i < 3; i++) {
        ids.push(
          (await createBarterRequest(db(), { fromUserId: user.id, status: 'completed', updatedAt: at })).id,
        );
      }
      const listed = (await get(`/api/users/${user.id}/trades`))
        .json()
        .map((trade: { id: number }) => trade.id);
      expect(listed).toEqual([...ids].reverse());
    });

    it('shows the items as they were traded, after they were edited or deleted', async () => {
      const owner = await createUser(db());
      const partner = await createUser(db());
      const lamp = await createItem(db(), { userId: owner.id, title: 'Desk lamp', category: 'home' });
      const kettle = await createItem(db(), { userId: partner.id, title: 'Kettle', category: 'kitchen' });
      await createBarterRequest(db(), {
        fromUserId: owner.id,
        toUserId: partner.id,
        fromItemId: lamp.id,
        toItemId: kettle.id,
        status: 'completed',
      });
      await db().update(items).set({ title: 'Renamed lamp' }).where(eq(items.id, lamp.id));
      await db().delete(items).where(eq(items.id, kettle.id));
      const [trade] = (await get(`/api/users/${owner.id}/trades`)).json();
      expect(trade).toMatchObject({
        fromItem: { title: 'Desk lamp', category: 'home' },
        toItem: { title: 'Kettle', category: 'kitchen' },
        fromItems: [{ title: 'Desk lamp', category: 'home' }],
        toItems: [{ title: 'Kettle', category: 'kitchen' }],
      });
    });

    it('keeps a trade whose other member or items were deleted, with null sides', async () => {
      const user = await createUser(db());
      await createBarterRequest(db(), { fromUserId: user.id, toUserId: null, status: 'completed' });
      const [trade] = (await get(`/api/users/${user.id}/trades`)).json();
      expect(trade).toMatchObject({ toUserId: null, toUser: null, fromItem: null, toItem: null });
    });

    it('returns at most `limit` trades (default 50, at most 100)', async () => {
      const busy = await createUser(db());
      for (let i = 0; i < 52; i++) {
        await createBarterRequest(db(), {
          fromUserId: busy.id,
          toUserId: null,
          status: 'completed',
          updatedAt: new Date(Date.now() - i * 1000),
        });
      }
      expect((await get(`/api/users/${busy.id}/trades`)).json()).toHaveLength(50);
      const five = (await get(`/api/users/${busy.id}/trades?limit=5`)).json();
      expect(five).toHaveLength(5);
      expect((await get(`/api/users/${busy.id}/trades?limit=100`)).json()).toHaveLength(52);
      for (const limit of ['0', '101', 'ten', '2.5']) {
        const response = await get(`/api/users/${busy.id}/trades?limit=${limit}`);
        expect(response.statusCode).toBe(400);
        expect(response.json().code).toBe('VALIDATION_FAILED');
      }
    });

    it('answers an empty list for a member without trades', async () => {
      const quiet = await createUser(db());
      expect((await get(`/api/users/${quiet.id}/trades`)).json()).toEqual([]);
    });
  });

  describe('GET /api/users/:id/trade-stats', () => {
    it('counts completed trades, this month (UTC) and the average rating received', async () => {
      const user = await createUser(db());
      const partner = await createUser(db());
      const [monthStart] = currentMonthUtc();
      const thisMonth = [
        await createBarterRequest(db(), {
          fromUserId: user.id,
          toUserId: partner.id,
          status: 'completed',
          updatedAt: new Date(monthStart.getTime() + 1000),
        }),
        await createBarterRequest(db(), { fromUserId: partner.id, toUserId: user.id, status: 'completed' }),
      ];
      const lastMonth = await createBarterRequest(db(), {
        fromUserId: user.id,
        toUserId: partner.id,
        status: 'completed',
        updatedAt: new Date(monthStart.getTime() - 1000),
      });
      await createBarterRequest(db(), { fromUserId: user.id, toUserId: partner.id, status: 'pending' });
      await createBarterRequest(db(), { fromUserId: user.id, toUserId: partner.id, status: 'declined' });

      // Received 5, 4 and 4: 4.333... shows as 4.3. The rating the user gave does not count.
      await createRating(db(), {
        barterRequestId: thisMonth[0]?.id,
        raterId: partner.id,
        rateeId: user.id,
        stars: 5,
      });
      await createRating(db(), {
        barterRequestId: thisMonth[1]?.id,
        raterId: partner.id,
        rateeId: user.id,
        stars: 4,
      });
      await createRating(db(), {
        barterRequestId: lastMonth.id,
        raterId: partner.id,
        rateeId: user.id,
        stars: 4,
      });
      await createRating(db(), {
        barterRequestId: lastMonth.id,
        raterId: user.id,
        rateeId: partner.id,
        stars: 1,
      });

      const response = await get(`/api/users/${user.id}/trade-stats`);
      expect(response.statusCode).toBe(200);
      // Three trades, all with one partner: one trading partner (ADR 074); three hand-overs kept (ADR 079).
      const handOvers = { kept: 3, due: 3 };
      expect(response.json()).toEqual({
        totalTrades: 3,
        rating: 4.3,
        thisMonth: 2,
        tradingPartners: 1,
        handOvers,
      });
      expect((await get(`/api/users/${partner.id}/trade-stats`)).json()).toEqual({
        totalTrades: 3,
        rating: 1,
        thisMonth: 2,
        tradingPartners: 1,
        handOvers,
      });
    });

    it('rounds the average half up to one decimal', async () => {
      const user = await createUser(db());
      for (const stars of [5, 4]) {
        const trade = await createBarterRequest(db(), { toUserId: user.id, status: 'completed' });
        await createRating(db(), {
          barterRequestId: trade.id,
          raterId: trade.fromUserId,
          rateeId: user.id,
          stars,
        });
      }
      expect((await get(`/api/users/${user.id}/trade-stats`)).json()).toMatchObject({ rating: 4.5 });
    });

    it('answers zeros and a null rating for a member without trades', async () => {
      const quiet = await createUser(db());
      expect((await get(`/api/users/${quiet.id}/trade-stats`)).json()).toEqual({
        totalTrades: 0,
        rating: null,
        thisMonth: 0,
        tradingPartners: 0,
        handOvers: { kept: 0, due: 0 },
      });
    });
  });

  describe('access', () => {
    it.each(['trades', 'trade-stats'])('%s: 404 for an unknown or malformed id', async (what) => {
      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '1', "x' OR '1'='1"]) {
        const response = await get(`/api/users/${encodeURIComponent(id)}/${what}`);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ code: 'NOT_FOUND', message: 'Member not found.' });
      }
    });

    it.each(['trades', 'trade-stats'])('%s: 401 when signed out', async (what) => {
      const response = await get(`/api/users/${viewer.id}/${what}`, null);
      expect(response.statusCode).toBe(401);
      expect(response.json().code).toBe('UNAUTHORIZED');
    });
  });

  describe('traderSummaryColumns', () => {
    it('gives rating and completed trades of each member, new traders included', async () => {
      const [a, b, c] = [await createUser(db()), await createUser(db()), await createUser(db())] as [
        UserRow,
        UserRow,
        UserRow,
      ];
      const ab = await createBarterRequest(db(), { fromUserId: a.id, toUserId: b.id, status: 'completed' });
      const ba = await createBarterRequest(db(), { fromUserId: b.id, toUserId: a.id, status: 'completed' });
      await createBarterRequest(db(), { fromUserId: a.id, toUserId: c.id, status: 'pending' });
      await createRating(db(), { barterRequestId: ab.id, raterId: b.id, rateeId: a.id, stars: 5 });
      await createRating(db(), { barterRequestId: ba.id, raterId: b.id, rateeId: a.id, stars: 4 });
      await createRating(db(), { barterRequestId: ab.id, raterId: a.id, rateeId: b.id, stars: 3 });
      const columns = traderSummaryColumns(sql`${users.id}`);
      const rows = await db()
        .select({
          userId: users.id,
          averageRating: columns.averageRating.mapWith((value) => (value == null ? null : Number(value))),
          completedTrades: columns.completedTrades.mapWith(Number),
        })
        .from(users)
        .where(inArray(users.id, [a.id, b.id, c.id]));
      expect(Object.fromEntries(rows.map(({ userId, ...summary }) => [userId, summary]))).toEqual({
        [a.id]: { averageRating: 4.5, completedTrades: 2 },
        [b.id]: { averageRating: 3, completedTrades: 2 },
        [c.id]: { averageRating: null, completedTrades: 0 },
      });
    });
  });

  it('currentMonthUtc spans the calendar month in UTC', () => {
    expect(currentMonthUtc(new Date('2026-12-31T23:59:59Z'))).toEqual([
      new Date('2026-12-01T00:00:00Z'),
      new Date('2027-01-01T00:00:00Z'),
    ]);
    expect(currentMonthUtc(new Date('2026-03-01T00:00:00Z'))[0]).toEqual(new Date('2026-03-01T00:00:00Z'));
  });
});
