import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FeedItem } from '#common/schemas/feed.ts';
import { items, wants } from '../../db/schema/trading';
import { type UserRow, users } from '../../db/schema/users';
import {
  createBarterRequest,
  createItem,
  createRating,
  createUser,
  createWant,
  sessionCookiesFor,
} from '../../test/factories';
import { seenMiles } from '../../test/geo';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { settleMatchGraph } from '../match-graph';
import { findCardRows } from './feed-cards';
import { RANKING_WINDOW } from './feed-definition';
import { findRanking, readListingVersion } from './feed-ranking';

// The real functions, counted: how often a feed is ranked is what the ranking cache changes.
vi.mock('./feed-ranking', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./feed-ranking')>();
  return { ...actual, findRanking: vi.fn(actual.findRanking) };
});
vi.mock('./feed-cards', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./feed-cards')>();
  return { ...actual, findCardRows: vi.fn(actual.findCardRows) };
});
const rankings = vi.mocked(findRanking);
const cardReads = vi.mocked(findCardRows);

const DEG_PER_MILE = 1 / 69.0936;
const HOME = { latitude: 45.52345, longitude: -122.67621 };

/**
 * The feed ranking cache (ADR 012) through the API: Load More reads a kept ranking, and any write
 * that can reorder a feed retires it at once, whoever makes it. Here the writes go straight to the
 * database (as another server or a script would), not through this app's routes.
 */
describe('feed rankings kept between pages', () => {
  let t: TestApp;
  let cookies: Record<string, string>;
  let neighbour: UserRow;
  let neighbourId: string;
  let viewerId: string;
  let viewerRow: UserRow;
  const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);

  beforeAll(async () => {
    t = await buildTestApp();
    const db = t.app.db;
    const viewer = await createUser(db, { firstName: 'Rita', lastName: 'Rank', ...HOME });
    viewerId = viewer.id;
    viewerRow = viewer;
    neighbour = await createUser(db, {
      firstName: 'Nils',
      lastName: 'Near',
      latitude: HOME.latitude + DEG_PER_MILE,
      longitude: HOME.longitude,
    });
    neighbourId = neighbour.id;
    cookies = await sessionCookiesFor(t.app, viewer);
    await createItem(db, { userId: viewer.id, title: 'Canoe paddle', category: 'sports' });
    // 30 of the neighbour's items, a minute apart: two pages of 20 and one of... past the first two.
    for (let n = 0; n < 30; n++) {
      await createItem(db, {
        userId: neighbour.id,
        title: `Flower pot ${n}`,
        description: 'Terracotta.',
        category: 'garden',
        createdAt: minutesAgo(100 + n),
      });
    }
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(() => {
    rankings.mockClear();
    cardReads.mockClear();
  });

  const feed = async (name: string, query: Record<string, string | number> = {}) => {
    // Barter Match reads the match graph, which the job brings up to date after a write (ADR 022);
    // settled before every page, so no drain lands mid-test and retires a kept ranking on its own.
    await settleMatchGraph(t.app.db);
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/feed/${name}`,
      query: Object.fromEntries(Object.entries(query).map(([key, value]) => [key, String(value)])),
      cookies,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<FeedItem[]>();
  };
  const titles = (page: FeedItem[]) => page.map((item) => item.title);

  it('ranks once, then serves Load More from the kept ranking', async () => {
    const first = await feed('everything');
    const second = await feed('everything', { offset: 20 });
    expect(rankings).toHaveBeenCalledTimes(1);
    expect(first).toHaveLength(20);
    expect(second).toHaveLength(10);
    expect(titles(first)[0]).toBe('Flower pot 0');
    expect(titles(second).at(-1)).toBe('Flower pot 29');
    // The cards are read fresh even so: every field of a card, not just the id.
    expect(second[0]).toMatchObject({
      title: 'Flower pot 20',
      user: { firstName: 'Nils', lastName: 'N.' },
      distanceMiles: seenMiles(viewerRow, neighbour),
      owner: { rating: null, completedTrades: 0 },
    });
    // Another order is another ranking.
    await feed('everything', { sort: 'value' });
    expect(rankings).toHaveBeenCalledTimes(2);
  });

  it('shows a new item at once, however it was written', async () => {
    expect(titles(await feed('everything'))).not.toContain('Wheelbarrow');
    await createItem(t.app.db, { userId: neighbourId, title: 'Wheelbarrow', category: 'garden' });
    expect(titles(await feed('everything'))[0]).toBe('Wheelbarrow');
  });

  it('drops an item its owner hid, on the very next page', async () => {
    const before = await feed('everything');
    const hidden = before[0] as FeedItem;
    await t.app.db.update(items).set({ isActive: false }).where(eq(items.id, hidden.id));
    const after = await feed('everything');
    expect(after.map((item) => item.id)).not.toContain(hidden.id);
    await t.app.db.update(items).set({ isActive: true }).where(eq(items.id, hidden.id));
    expect((await feed('everything')).map((item) => item.id)).toContain(hidden.id);
  });

  it("follows an owner's move out of the radius", async () => {
    expect((await feed('everything', { radius: 5 })).length).toBeGreaterThan(0);
    await t.app.db
      .update(users)
      .set({ latitude: HOME.latitude + 40 * DEG_PER_MILE })
      .where(eq(users.id, neighbourId));
    expect(await feed('everything', { radius: 5 })).toEqual([]);
    await t.app.db
      .update(users)
      .set({ latitude: HOME.latitude + DEG_PER_MILE })
      .where(eq(users.id, neighbourId));
    expect((await feed('everything', { radius: 5 })).length).toBeGreaterThan(0);
  });

  it("re-ranks Barter Match when the member's wants or the items change", async () => {
    expect(await feed('barter-match')).toEqual([]);
    const want = await createWant(t.app.db, { userId: viewerId, title: 'Flower pot', category: 'garden' });
    const matched = await feed('barter-match');
    expect(matched.length).toBeGreaterThan(0);
    expect(matched[0]?.match).toMatchObject({ wantTitle: 'Flower pot' });
    await t.app.db.update(wants).set({ isActive: false }).where(eq(wants.id, want.id));
    expect(await feed('barter-match')).toEqual([]);
  });

  it('keeps the ranking through views, saves and other writes that do not reorder feeds', async () => {
    const page = await feed('everything');
    const item = page[0] as FeedItem;
    const version = await readListingVersion(t.app.db);
    const detail = await t.app.inject({ method: 'GET', url: `/api/items/${item.id}`, cookies });
    expect(detail.statusCode).toBe(200);
    const saved = await t.app.inject({ method: 'POST', url: `/api/saved-items/${item.id}`, cookies });
    expect(saved.statusCode).toBe(201);
    await t.app.db.update(items).set({ imageUrl: '/photos/x.webp' }).where(eq(items.id, item.id));
    await t.app.db.update(users).set({ firstName: 'Nico' }).where(eq(users.id, neighbourId));
    expect(await readListingVersion(t.app.db)).toBe(version);

    rankings.mockClear();
    const again = await feed('everything');
    expect(rankings).not.toHaveBeenCalled();
    // Yet the cards show what changed: saved, the new photo and name.
    expect(again[0]).toMatchObject({ id: item.id, isSaved: true, imageUrl: '/photos/x.webp' });
    expect(again[0]?.user.firstName).toBe('Nico');
  });

  it('reads cards once, then serves them from memory, yet saved flags and ratings show at once', async () => {
    const first = await feed('everything');
    const target = first[1] as FeedItem;
    cardReads.mockClear();
    rankings.mockClear();
    expect(await feed('everything')).toEqual(first);
    expect(cardReads).not.toHaveBeenCalled();
    expect(rankings).not.toHaveBeenCalled();

    // The viewer's own saved flag comes with the page state, not the kept card.
    const saved = await t.app.inject({ method: 'POST', url: `/api/saved-items/${target.id}`, cookies });
    expect(saved.statusCode).toBe(201);
    const afterSave = await feed('everything');
    expect(afterSave.find((item) => item.id === target.id)?.isSaved).toBe(true);
    expect(cardReads).not.toHaveBeenCalled();

    // A rating of the owner (written straight to the database) shows on the very next page.
    const rater = await createUser(t.app.db);
    const trade = await createBarterRequest(t.app.db, {
      fromUserId: rater.id,
      toUserId: target.user.id,
      status: 'completed',
    });
    await createRating(t.app.db, {
      barterRequestId: trade.id,
      raterId: rater.id,
      rateeId: target.user.id,
      stars: 4,
    });
    const afterRating = await feed('everything');
    expect(afterRating.find((item) => item.id === target.id)?.owner).toEqual({
      rating: 4,
      completedTrades: 1,
      // The completed barter is also a hand-over kept (ADR 079).
      handOvers: { kept: 1, due: 1 },
    });
    expect(cardReads).toHaveBeenCalledTimes(1);
    // ...without ranking the feed again: a rating changes no order.
    expect(rankings).not.toHaveBeenCalled();
  });

  it('shares kept cards between members, each with their own saved flags', async () => {
    const mine = (await feed('everything')).filter((item) => item.isSaved).map((item) => item.id);
    expect(mine.length).toBeGreaterThan(0);
    const other = await createUser(t.app.db, HOME);
    const otherCookies = await sessionCookiesFor(t.app, other);
    const theirFeed = async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/feed/everything',
        cookies: otherCookies,
      });
      return response.json<FeedItem[]>();
    };
    for (let n = 0; n < 2; n++) {
      const theirs = await theirFeed();
      for (const id of mine) expect(theirs.find((item) => item.id === id)?.isSaved).toBe(false);
    }
    cardReads.mockClear();
    const again = await feed('everything');
    expect(cardReads).not.toHaveBeenCalled();
    expect(again.filter((item) => item.isSaved).map((item) => item.id)).toEqual(mine);
  });

  it('ranks again past the end of the kept window, with no repeats or gaps', async () => {
    for (let n = 0; n < RANKING_WINDOW; n++) {
      await createItem(t.app.db, {
        userId: neighbourId,
        title: `Seed tray ${n}`,
        category: 'garden',
        createdAt: minutesAgo(1000 + n),
      });
    }
    rankings.mockClear();
    const seen: number[] = [];
    for (let offset = 0; ; offset += 20) {
      const page = await feed('everything', { offset });
      seen.push(...page.map((item) => item.id));
      if (page.length < 20) break;
    }
    const all = await t.app.db.select({ id: items.id }).from(items).where(eq(items.userId, neighbourId));
    expect(seen).toHaveLength(all.length);
    expect(new Set(seen).size).toBe(seen.length);
    // One ranking for the first window of pages, one more for the pages past it.
    expect(rankings).toHaveBeenCalledTimes(2);
  });
});

describe('feed rankings with FEED_CACHE_SECONDS=0', () => {
  let t: TestApp;
  afterAll(async () => {
    await t?.close();
  });

  it('ranks every page afresh', async () => {
    t = await buildTestApp({ FEED_CACHE_SECONDS: '0' });
    const viewer = await createUser(t.app.db, HOME);
    const owner = await createUser(t.app.db, HOME);
    for (let n = 0; n < 3; n++) await createItem(t.app.db, { userId: owner.id, title: `Rake ${n}` });
    const cookies = await sessionCookiesFor(t.app, viewer);
    rankings.mockClear();
    for (const offset of [0, 1, 2]) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/feed/everything?limit=1&offset=${offset}`,
        cookies,
      });
      expect(response.json<FeedItem[]>()).toHaveLength(1);
    }
    expect(rankings).toHaveBeenCalledTimes(3);
    expect(t.app.feedCaches).toBeNull();
  });
});
