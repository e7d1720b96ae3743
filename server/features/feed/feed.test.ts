import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedItem, ItemDetail } from '#common/schemas/feed.ts';
import { items } from '../../db/schema/trading';
import type { UserRow } from '../../db/schema/users';
import { approximateArea } from '../../geo/approximate-area';
import { createItem, createUser, createWant, sessionCookiesFor } from '../../test/factories';
import { publicPointOf, seenMiles } from '../../test/geo';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { matchScore, nearnessPoints, settleMatchGraph, textSimilarityOf } from '../match-graph';

/** Degrees of latitude per mile (north is the same everywhere). */
const DEG_PER_MILE = 1 / 69.0936;
// Not round numbers, so a coordinate in a response cannot be mistaken for anything else.
const HOME = { latitude: 40.71277, longitude: -74.00597 };

describe('feeds API', () => {
  let t: TestApp;
  let viewer: UserRow;
  let neighbour: UserRow;
  let faraway: UserRow;
  let nowhere: UserRow;
  let viewerCookies: Record<string, string>;
  const ids = {} as Record<
    'drill' | 'lamp' | 'hammerDrill' | 'drillPress' | 'drillService' | 'noLocation' | 'inactive',
    number
  >;

  beforeAll(async () => {
    t = await buildTestApp();
    const db = t.app.db;
    viewer = await createUser(db, { firstName: 'Vera', lastName: 'Viewer', ...HOME });
    neighbour = await createUser(db, {
      firstName: 'Olga',
      lastName: 'Owens',
      latitude: HOME.latitude + DEG_PER_MILE,
      longitude: HOME.longitude,
    });
    // 19 miles: distances are to public points (at most 0.94 miles from the exact ones), and at
    // 18.1 to 19.9 miles the nearness points are 12 whatever the draw.
    faraway = await createUser(db, {
      firstName: 'Frank',
      lastName: 'Farr',
      latitude: HOME.latitude + 19 * DEG_PER_MILE,
      longitude: HOME.longitude,
    });
    nowhere = await createUser(db, { firstName: 'Nadia', lastName: 'Nowhere' });
    viewerCookies = await sessionCookiesFor(t.app, viewer);

    // The viewer wants a drill (at most 60) and offers a mountain bike, which the neighbour wants.
    await createWant(db, { userId: viewer.id, title: 'Cordless drill', category: 'tools', maxValue: 60 });
    await createItem(db, {
      userId: viewer.id,
      title: 'Mountain bike',
      description: 'Trek, 21 speeds.',
      category: 'bikes',
      estimatedValue: 200,
    });
    await createWant(db, { userId: neighbour.id, title: 'Mountain bike', category: 'bikes' });
    await createWant(db, {
      userId: neighbour.id,
      title: 'Guitar lessons',
      category: 'lessons',
      isService: true,
    });

    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    ids.drill = (
      await createItem(db, {
        userId: neighbour.id,
        title: 'Cordless drill, 18V',
        description: 'Two batteries and a charger.',
        category: 'tools',
        estimatedValue: 50,
        createdAt: at(10),
      })
    ).id;
    ids.lamp = (
      await createItem(db, {
        userId: neighbour.id,
        title: 'Reading lamp',
        description: 'Warm light, brass.',
        category: 'household',
        estimatedValue: 15,
        createdAt: at(20),
      })
    ).id;
    ids.hammerDrill = (
      await createItem(db, {
        userId: faraway.id,
        title: 'Hammer drill',
        description: 'For concrete and brick.',
        category: 'tools',
        estimatedValue: 40,
        createdAt: at(5),
      })
    ).id;
    // A drill above the viewer's budget (60 + 10%): never a match, but on everything.
    ids.drillPress = (
      await createItem(db, {
        userId: neighbour.id,
        title: 'Drill press',
        description: 'Bench model.',
        category: 'tools',
        estimatedValue: 120,
        createdAt: at(30),
      })
    ).id;
    // Goods want, service item: never a match even with the same words.
    ids.drillService = (
      await createItem(db, {
        userId: neighbour.id,
        title: 'Drill holes in walls',
        description: 'I bring my own drill.',
        category: 'skilled trade',
        isService: true,
        createdAt: at(40),
      })
    ).id;
    ids.noLocation = (
      await createItem(db, {
        userId: nowhere.id,
        title: 'Garden spade',
        description: 'Sturdy.',
        category: 'farm+garden',
        createdAt: at(1),
      })
    ).id;
    ids.inactive = (
      await createItem(db, {
        userId: neighbour.id,
        title: 'Old drill',
        description: 'Retired.',
        category: 'tools',
        isActive: false,
      })
    ).id;
  });
  afterAll(() => t.close());

  const call = (options: InjectOptions) => t.app.inject(options);
  const feed = async (name: string, query: Record<string, string | number> = {}, cookies = viewerCookies) => {
    // Barter Match reads the match graph, which the job brings up to date after a write (ADR 022).
    if (name === 'barter-match') await settleMatchGraph(t.app.db);
    const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
    const response = await call({ method: 'GET', url: `/api/feed/${name}?${search}`, cookies });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<FeedItem[]>();
  };
  const idsOf = (list: FeedItem[]) => list.map((item) => item.id);

  describe('barter-match', () => {
    it("shows the neighbour's matching item with a real score and its reasons", async () => {
      const list = await feed('barter-match');
      const drill = list.find((item) => item.id === ids.drill);
      expect(drill).toBeDefined();
      expect(drill?.match).toEqual({
        score: expect.any(Number),
        wantId: expect.any(Number),
        wantTitle: 'Cordless drill',
        // What matched, as the card names it (ADR 089): the want's words in the title, and more.
        reason: { kind: 'all-words', words: ['Cordless', 'drill'], related: [] },
        mutual: true,
        theirWantTitle: 'Mountain bike',
        // The viewer's bike, which the neighbour wants (issue 28: Propose Barter ticks it).
        yourItemId: expect.any(Number),
      });
      // Between the viewer's and the neighbour's public points (ADR 059), about a mile apart.
      expect(drill?.distanceMiles).toBe(seenMiles(viewer, neighbour));
      // Same category (10) + all of the want's words in the title (24) + mutual (43) + nearness at
      // about 1 mile (7 or 8) + within budget (4).
      expect(drill?.match?.score).toBeGreaterThanOrEqual(88);
      expect(drill?.user).toEqual({
        id: neighbour.id,
        firstName: 'Olga',
        lastName: 'O.',
        profileImageUrl: null,
      });
      expect(drill?.lookingFor).toEqual(['Guitar lessons', 'Mountain bike']);
      expect(drill?.owner).toEqual({ rating: null, completedTrades: 0, handOvers: { kept: 0, due: 0 } });
    });

    it('ranks the mutual match first and leaves out what does not match', async () => {
      const list = await feed('barter-match', { sort: 'match' });
      expect(idsOf(list)).toEqual([ids.drill, ids.hammerDrill]);
      const hammer = list[1];
      expect(hammer?.match).toMatchObject({ wantTitle: 'Cordless drill', mutual: false });
      expect(hammer?.match).not.toHaveProperty('theirWantTitle');
      expect(hammer?.match?.score).toBeLessThan(list[0]?.match?.score ?? 0);
    });

    it('computes in SQL exactly the score of the pure formula', async () => {
      const list = await feed('barter-match', { radius: 50, sort: 'match' });
      expect(idsOf(list)).toEqual([ids.drill, ids.hammerDrill]);
      // The drill has all the want's words in its title, and one more (18V); the hammer drill shares
      // the category and one word of two.
      const nothing = {
        words: 2,
        inTitle: 0,
        relatedInTitle: 0,
        titleWithinWant: false,
        inText: false,
        nearSpelling: false,
      };
      const found = {
        [ids.drill]: { ...nothing, inTitle: 2, relatedInTitle: 2, inText: true },
        [ids.hammerDrill]: { ...nothing, inTitle: 1, relatedInTitle: 1 },
      };
      for (const item of list) {
        const pure = matchScore({
          sameCategory: true,
          textSimilarity: textSimilarityOf(found[item.id] ?? nothing, true),
          mutual: item.match?.mutual ?? false,
          distanceMiles: item.distanceMiles,
          itemValue: item.estimatedValue,
          maxValue: 60,
        });
        expect(item.match?.score, item.title).toBe(pure);
      }
      // 10 + 24 + 43 + 7 or 8 (about 1 mile) + 4 and 10 + 4 + 0 + 4 or 5 (about 19 miles) + 4: the
      // public points (ADR 059) are each up to 0.94 miles from the exact ones, so two members a mile
      // apart can be drawn under a twentieth of a mile apart (0.0 miles: 8 points).
      const near = nearnessPoints(list[0]?.distanceMiles ?? null);
      expect(near === 7 || near === 8, `nearness ${near}`).toBe(true);
      const far = nearnessPoints(list[1]?.distanceMiles ?? null);
      expect(far === 4 || far === 5, `nearness ${far}`).toBe(true);
      expect(list.map((item) => item.match?.score)).toEqual([81 + near, 18 + far]);
    });

    it('falls back to near spellings for a want whose words no item has', async () => {
      const typist = await createUser(t.app.db, { ...HOME });
      await createWant(t.app.db, { userId: typist.id, title: 'Cordles dril', category: 'bikes' });
      const list = await feed('barter-match', {}, await sessionCookiesFor(t.app, typist));
      const drill = list.find((item) => item.id === ids.drill);
      expect(drill?.match).toMatchObject({ wantTitle: 'Cordles dril', mutual: false });
      // Not the category (bikes), a near spelling: 0 + 12 + 0 + 7 or 8 (about a mile) + 2 (no maxValue).
      expect(drill?.match?.score).toBe(14 + nearnessPoints(drill?.distanceMiles ?? null));
    });

    it('narrows with the radius: 5 miles leaves out the member 19 miles away, 50 brings them in', async () => {
      expect(idsOf(await feed('barter-match', { radius: 5 }))).toEqual([ids.drill]);
      expect(idsOf(await feed('barter-match', { radius: 50 }))).toContain(ids.hammerDrill);
    });
  });

  describe('everything', () => {
    it('shows every active item of others within the radius, with distances', async () => {
      const list = await feed('everything');
      expect(new Set(idsOf(list))).toEqual(
        new Set([ids.drill, ids.lamp, ids.hammerDrill, ids.drillPress, ids.drillService]),
      );
      const drill = list.find((item) => item.id === ids.drill);
      expect(drill?.distanceMiles).toBe(seenMiles(viewer, neighbour));
      expect(drill).not.toHaveProperty('match');
      expect(list.find((item) => item.id === ids.hammerDrill)?.distanceMiles).toBe(
        seenMiles(viewer, faraway),
      );
    });

    it('changes with the radius', async () => {
      const near = idsOf(await feed('everything', { radius: 5 }));
      expect(near).not.toContain(ids.hammerDrill);
      expect(near).toContain(ids.drill);
      expect(idsOf(await feed('everything', { radius: 50 }))).toContain(ids.hammerDrill);
    });

    it('applies no distance filter and shows no distance when the viewer has no location', async () => {
      const cookies = await sessionCookiesFor(t.app, nowhere);
      const list = await feed('everything', { radius: 5 }, cookies);
      expect(idsOf(list)).toEqual(expect.arrayContaining([ids.drill, ids.hammerDrill]));
      expect(list.every((item) => item.distanceMiles === null)).toBe(true);
      expect(idsOf(list)).not.toContain(ids.noLocation);
    });
  });

  describe('sort', () => {
    it('recent: newest first', async () => {
      expect(idsOf(await feed('everything'))).toEqual([
        ids.hammerDrill,
        ids.drill,
        ids.lamp,
        ids.drillPress,
        ids.drillService,
      ]);
    });

    it('distance: nearest first, ties by id', async () => {
      const list = await feed('everything', { sort: 'distance' });
      expect(idsOf(list).at(-1)).toBe(ids.hammerDrill);
      const distances = list.map((item) => item.distanceMiles ?? Number.POSITIVE_INFINITY);
      expect(distances).toEqual([...distances].sort((a, b) => a - b));
    });

    it('value: highest first, unknown last', async () => {
      expect(idsOf(await feed('everything', { sort: 'value' }))).toEqual([
        ids.drillPress,
        ids.drill,
        ids.hammerDrill,
        ids.lamp,
        ids.drillService,
      ]);
    });

    it('match: on feeds without scores, falls back to recent', async () => {
      expect(idsOf(await feed('everything', { sort: 'match' }))).toEqual(idsOf(await feed('everything')));
    });
  });

  describe('paging', () => {
    const pagesOf = async (name: string, query: Record<string, string | number>) => {
      const seen: number[] = [];
      for (let offset = 0; offset < 100; offset += 2) {
        const page = await feed(name, { ...query, limit: 2, offset });
        seen.push(...idsOf(page));
        if (page.length < 2) break;
      }
      return seen;
    };

    it('never repeats or skips, for every sort and for random-barter with a seed', async () => {
      // Many items with the same time and value, so the order rests on the tie-break.
      const same = new Date(Date.now() - 3 * 60_000);
      for (let n = 0; n < 6; n++) {
        await createItem(t.app.db, {
          userId: neighbour.id,
          title: `Garden chair ${n}`,
          description: 'Folding.',
          category: 'furniture',
          estimatedValue: 10,
          createdAt: same,
        });
      }
      for (const sort of ['recent', 'distance', 'value', 'match']) {
        const all = idsOf(await feed('everything', { sort, limit: 50 }));
        const paged = await pagesOf('everything', { sort });
        expect(paged, sort).toEqual(all);
        expect(new Set(paged).size).toBe(paged.length);
      }
      const all = idsOf(await feed('random-barter', { seed: 42, limit: 50 }));
      expect(await pagesOf('random-barter', { seed: 42 })).toEqual(all);
      expect(new Set(all)).toEqual(new Set(idsOf(await feed('everything', { limit: 50 }))));
      // Another seed, another order; no seed: the session's own, stable from page to page.
      expect(idsOf(await feed('random-barter', { seed: 7, limit: 50 }))).not.toEqual(all);
      const bySession = idsOf(await feed('random-barter', { limit: 50 }));
      expect(await pagesOf('random-barter', {})).toEqual(bySession);
    });
  });

  describe('search', () => {
    it('finds "drill" in "Cordless drill, 18V", title hits first', async () => {
      const list = await feed('everything', { q: 'drill', radius: 50 });
      expect(idsOf(list)).toEqual(expect.arrayContaining([ids.drill, ids.hammerDrill, ids.drillPress]));
      expect(idsOf(list)).not.toContain(ids.lamp);
      // The service mentions a drill in its title too; the inactive "Old drill" never shows.
      expect(idsOf(list)).not.toContain(ids.inactive);
    });

    it('tolerates near spellings: "dril"', async () => {
      expect(idsOf(await feed('everything', { q: 'dril' }))).toContain(ids.drill);
    });

    it('searches descriptions and categories too, within the radius', async () => {
      expect(idsOf(await feed('everything', { q: 'brass' }))).toEqual([ids.lamp]);
      expect(idsOf(await feed('everything', { q: 'household' }))).toEqual([ids.lamp]);
      expect(idsOf(await feed('everything', { q: 'concrete', radius: 5 }))).toEqual([]);
      expect(idsOf(await feed('everything', { q: 'concrete', radius: 25 }))).toEqual([ids.hammerDrill]);
    });

    it('puts title hits before description hits, then the chosen sort', async () => {
      const toolbox = await createItem(t.app.db, {
        userId: neighbour.id,
        title: 'Toolbox',
        description: 'Steel, fits a drill and bits.',
        category: 'household',
        estimatedValue: 999,
      });
      const list = await feed('everything', { q: 'drill', sort: 'value' });
      expect(idsOf(list)).toEqual([ids.drillPress, ids.drill, ids.hammerDrill, ids.drillService, toolbox.id]);
    });

    it('narrows barter-match too, and ignores blank text', async () => {
      expect(idsOf(await feed('barter-match', { q: 'cordless', radius: 50 }))).toEqual([ids.drill]);
      expect(idsOf(await feed('everything', { q: '   ' }))).toEqual(idsOf(await feed('everything')));
    });
  });

  describe('privacy', () => {
    it("never sends another member's e-mail, coordinates or whole last name", async () => {
      const bodies: string[] = [];
      for (const name of ['barter-match', 'random-barter', 'everything']) {
        for (const query of [{}, { q: 'drill', radius: 50 }, { sort: 'distance', radius: 50 }]) {
          const search = new URLSearchParams(query as Record<string, string>);
          bodies.push(
            (await call({ method: 'GET', url: `/api/feed/${name}?${search}`, cookies: viewerCookies })).body,
          );
        }
      }
      bodies.push(
        (await call({ method: 'GET', url: `/api/items/${ids.drill}`, cookies: viewerCookies })).body,
      );
      await call({ method: 'POST', url: `/api/saved-items/${ids.drill}`, cookies: viewerCookies });
      bodies.push((await call({ method: 'GET', url: '/api/saved-items', cookies: viewerCookies })).body);
      const all = bodies.join('\n');
      expect(all).toContain('Cordless drill, 18V');
      for (const member of [neighbour, faraway]) {
        expect(all).not.toContain(member.email as string);
        expect(all).not.toContain(member.lastName as string);
        // Neither the exact point nor the public one (distances are computed from it, never sent).
        for (const coordinate of [
          member.latitude,
          member.longitude,
          member.publicLatitude,
          member.publicLongitude,
        ]) {
          const text = String(coordinate);
          expect(all).not.toContain(text);
          expect(all).not.toContain(text.slice(0, 7));
        }
      }
      // The one position sent: the detail's approximate area, the public point rounded to 0.01 degree
      // (ADR 032; 'item detail' checks its value). No other coordinates of any kind.
      const withoutArea = all.replace(/"approximateArea":(null|\{[^{}]*\})/g, '');
      expect(withoutArea).not.toMatch(/"(latitude|longitude|email|location)"/);
    });
  });

  describe('absent location means no distance', () => {
    const distancesOf = (list: FeedItem[]) => list.map((item) => item.distanceMiles);

    it('a viewer without a location gets null on every feed, the detail and the saved list', async () => {
      const cookies = await sessionCookiesFor(t.app, nowhere);
      await createWant(t.app.db, { userId: nowhere.id, title: 'Cordless drill', category: 'tools' });
      for (const name of ['barter-match', 'random-barter', 'everything']) {
        for (const query of [{}, { sort: 'distance' }, { q: 'drill' }] as Array<Record<string, string>>) {
          const list = await feed(name, query, cookies);
          expect(list.length, `${name} ${JSON.stringify(query)}`).toBeGreaterThan(0);
          expect(new Set(distancesOf(list)), name).toEqual(new Set([null]));
        }
      }
      const detail = await call({ method: 'GET', url: `/api/items/${ids.drill}`, cookies });
      expect(detail.json<ItemDetail>().distanceMiles).toBeNull();
      await call({ method: 'POST', url: `/api/saved-items/${ids.drill}`, cookies });
      const saved = await call({ method: 'GET', url: '/api/saved-items', cookies });
      expect(distancesOf(saved.json<FeedItem[]>())).toEqual([null]);
    });

    it("an owner without a location is at no distance, not half the Earth's circumference away", async () => {
      const detail = await call({
        method: 'GET',
        url: `/api/items/${ids.noLocation}`,
        cookies: viewerCookies,
      });
      expect(detail.statusCode).toBe(200);
      expect(detail.json<ItemDetail>().distanceMiles).toBeNull();
      await call({ method: 'POST', url: `/api/saved-items/${ids.noLocation}`, cookies: viewerCookies });
      const saved = await call({ method: 'GET', url: '/api/saved-items', cookies: viewerCookies });
      const spade = saved.json<FeedItem[]>().find((item) => item.id === ids.noLocation);
      expect(spade).toMatchObject({ distanceMiles: null });
      // Nor are they anywhere in a feed with a radius.
      for (const name of ['barter-match', 'random-barter', 'everything']) {
        expect(idsOf(await feed(name, { radius: 50, limit: 50 }))).not.toContain(ids.noLocation);
      }
    });

    it('your own item is at 0 miles from you, not at your public point', async () => {
      const ownerCookies = await sessionCookiesFor(t.app, neighbour);
      const own = await call({ method: 'GET', url: `/api/items/${ids.drill}`, cookies: ownerCookies });
      expect(own.json<ItemDetail>()).toMatchObject({ isOwn: true, distanceMiles: 0 });
    });
  });

  describe('item detail', () => {
    it("opens another member's active item with its whole description, and counts the view", async () => {
      const before = (await t.app.db.select().from(items).where(eq(items.id, ids.drill)))[0]?.viewCount ?? 0;
      const response = await call({ method: 'GET', url: `/api/items/${ids.drill}`, cookies: viewerCookies });
      expect(response.statusCode).toBe(200);
      const detail = response.json<ItemDetail>();
      expect(detail).toMatchObject({
        id: ids.drill,
        description: 'Two batteries and a charger.',
        isOwn: false,
        isActive: true,
        distanceMiles: seenMiles(viewer, neighbour),
        match: { wantTitle: 'Cordless drill', mutual: true },
        // The map's circle: the owner's public point rounded, never their exact point (ADR 032).
        approximateArea: { ...approximateArea(publicPointOf(neighbour)), name: expect.any(String) },
      });
      expect(detail.approximateArea?.radiusMeters).toBe(2500);
      expect(response.body).not.toContain(String(Number(neighbour.latitude)));
      const [row] = await t.app.db.select().from(items).where(eq(items.id, ids.drill));
      expect(row?.viewCount).toBe(before + 1);
    });

    it('opens your own items, inactive too, without counting a view; hides inactive ones of others', async () => {
      const ownerCookies = await sessionCookiesFor(t.app, neighbour);
      const own = await call({ method: 'GET', url: `/api/items/${ids.inactive}`, cookies: ownerCookies });
      expect(own.statusCode).toBe(200);
      expect(own.json<ItemDetail>()).toMatchObject({ isOwn: true, isActive: false });
      const [row] = await t.app.db.select().from(items).where(eq(items.id, ids.inactive));
      expect(row?.viewCount).toBe(0);

      const hidden = await call({ method: 'GET', url: `/api/items/${ids.inactive}`, cookies: viewerCookies });
      expect(hidden.statusCode).toBe(404);
      const missing = await call({ method: 'GET', url: '/api/items/99999999', cookies: viewerCookies });
      expect(missing.statusCode).toBe(404);
      const bad = await call({ method: 'GET', url: '/api/items/abc', cookies: viewerCookies });
      expect(bad.statusCode).toBe(400);
    });
  });

  describe('errors', () => {
    it('answers 401 when signed out, before judging the query', async () => {
      for (const url of [
        '/api/feed/everything',
        '/api/feed/everything?radius=7',
        '/api/feed/nope',
        `/api/items/${ids.drill}`,
      ]) {
        const response = await call({ method: 'GET', url });
        expect(response.statusCode, url).toBe(401);
      }
    });

    it('answers 404 FEED_NOT_FOUND for an unknown feed', async () => {
      const response = await call({ method: 'GET', url: '/api/feed/nearby', cookies: viewerCookies });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: expect.any(String), code: 'FEED_NOT_FOUND' });
    });

    it('answers 400 for bad query parameters', async () => {
      for (const query of [
        'radius=7',
        'radius=abc',
        'sort=price',
        'limit=0',
        'limit=51',
        'limit=2.5',
        'offset=-1',
        'offset=10001',
        'seed=-3',
        `q=${'x'.repeat(101)}`,
      ]) {
        const response = await call({
          method: 'GET',
          url: `/api/feed/everything?${query}`,
          cookies: viewerCookies,
        });
        expect(response.statusCode, query).toBe(400);
        expect(response.json<{ code: string }>().code).toBe('VALIDATION_FAILED');
      }
    });

    it('takes odd search text in its stride', async () => {
      for (const q of ["'", '"', '!!', '-', 'a & b | c', ':*', '\\', '%_', 'the']) {
        await feed('everything', { q });
        await feed('barter-match', { q });
      }
    });
  });
});
