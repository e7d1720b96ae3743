/**
 * The feeds' condition filter (issue 31, ADR 082 addendum): `condition` keeps goods in that condition
 * or better on Everything (every sort), Random Barter, Barter Match (ranking query and match graph),
 * search and the map; services and goods listed without a condition are left out while it is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedItem } from '#common/schemas/feed.ts';
import type { FeedMap } from '#common/schemas/maps.ts';
import type { UserRow } from '../../db/schema/users';
import { createItem, createUser, createWant, sessionCookiesFor } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { settleMatchGraph } from '../match-graph';
import { conditionsAtLeast } from './feed-sql';

const DEG_PER_MILE = 1 / 69.0936;
const HOME = { latitude: 45.51237, longitude: -122.65871 };

describe('the condition filter of the feeds', () => {
  let t: TestApp;
  let viewer: UserRow;
  let cookies: Record<string, string>;
  const ids = {} as Record<
    'brandNew' | 'likeNew' | 'good' | 'fair' | 'parts' | 'unstated' | 'service',
    number
  >;

  beforeAll(async () => {
    // Rankings kept (ADR 012), so a key that left the condition out would serve the unfiltered list.
    t = await buildTestApp({ FEED_CACHE_SECONDS: '300' });
    const db = t.app.db;
    viewer = await createUser(db, { firstName: 'Vera', lastName: 'Viewer', ...HOME });
    const near = (miles: number, firstName: string) =>
      createUser(db, {
        firstName,
        lastName: 'Near',
        latitude: HOME.latitude + miles * DEG_PER_MILE,
        longitude: HOME.longitude,
      });
    const ann = await near(1, 'Ann');
    const ben = await near(2, 'Ben');
    cookies = await sessionCookiesFor(t.app, viewer);
    await createWant(db, { userId: viewer.id, title: 'Road bike', category: 'bikes' });
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    const bike = async (title: string, userId: string, minutesAgo: number, condition: string | null) =>
      (
        await createItem(db, {
          userId,
          title,
          category: 'bikes',
          estimatedValue: 100 + minutesAgo,
          createdAt: at(minutesAgo),
          condition: condition as never,
        })
      ).id;
    ids.brandNew = await bike('Road bike new in box', ann.id, 1, 'new');
    ids.likeNew = await bike('Road bike barely ridden', ben.id, 2, 'like-new');
    ids.good = await bike('Road bike with scuffs', ann.id, 3, 'good');
    ids.fair = await bike('Road bike needs tune-up', ben.id, 4, 'fair');
    ids.parts = await bike('Road bike frame for parts', ann.id, 5, 'for-parts');
    ids.unstated = await bike('Road bike, condition untold', ben.id, 6, null);
    ids.service = (
      await createItem(db, {
        userId: ann.id,
        title: 'Road bike tune-up',
        category: 'bikes',
        isService: true,
        createdAt: at(7),
      })
    ).id;
  });
  afterAll(() => t.close());

  const feed = async (name: string, query: Record<string, string>) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/feed/${name}`, query, cookies });
    expect(response.statusCode).toBe(200);
    return (response.json() as FeedItem[]).map((item) => item.id);
  };
  const sorted = (list: number[]) => [...list].sort((a, b) => a - b);

  it('orders the conditions best first, and "at least" includes the better ones', () => {
    expect(conditionsAtLeast('new')).toEqual(['new']);
    expect(conditionsAtLeast('good')).toEqual(['new', 'like-new', 'good']);
    expect(conditionsAtLeast('for-parts')).toHaveLength(5);
  });

  it('keeps goods in the condition or better on Everything, in every sort', async () => {
    expect(await feed('everything', { radius: '5' })).toEqual([
      ids.brandNew,
      ids.likeNew,
      ids.good,
      ids.fair,
      ids.parts,
      ids.unstated,
      ids.service,
    ]);
    expect(await feed('everything', { radius: '5', condition: 'like-new' })).toEqual([
      ids.brandNew,
      ids.likeNew,
    ]);
    expect(await feed('everything', { radius: '5', condition: 'good', sort: 'value' })).toEqual([
      ids.good,
      ids.likeNew,
      ids.brandNew,
    ]);
    // By distance (public points, so Ann and Ben may come either way): the unfiltered order, filtered.
    const good = [ids.brandNew, ids.likeNew, ids.good];
    const byDistance = await feed('everything', { radius: '5', sort: 'distance' });
    expect(byDistance).toHaveLength(7);
    expect(await feed('everything', { radius: '5', condition: 'good', sort: 'distance' })).toEqual(
      byDistance.filter((id) => good.includes(id)),
    );
    expect(await feed('everything', { radius: '5', condition: 'new' })).toEqual([ids.brandNew]);
    // 'for parts' or better: every good with a stated condition; never a service or an untold one.
    expect(sorted(await feed('everything', { radius: '5', condition: 'for-parts' }))).toEqual(
      sorted([ids.brandNew, ids.likeNew, ids.good, ids.fair, ids.parts]),
    );
  });

  it('filters search results and Random Barter', async () => {
    expect(await feed('everything', { radius: '5', q: 'road bike', condition: 'fair' })).toEqual([
      ids.brandNew,
      ids.likeNew,
      ids.good,
      ids.fair,
    ]);
    expect(await feed('everything', { radius: '5', q: 'tune-up', condition: 'good' })).toEqual([]);
    expect(sorted(await feed('random-barter', { radius: '5', condition: 'like-new', seed: '7' }))).toEqual(
      sorted([ids.brandNew, ids.likeNew]),
    );
  });

  it('filters Barter Match before and after its match graph is built', async () => {
    const fromQuery = await feed('barter-match', { radius: '5', condition: 'good' });
    expect(sorted(fromQuery)).toEqual(sorted([ids.brandNew, ids.likeNew, ids.good]));
    await settleMatchGraph(t.app.db);
    const all = await feed('barter-match', { radius: '5' });
    expect(all).toEqual(expect.arrayContaining([ids.fair, ids.parts, ids.unstated]));
    const fromGraph = await feed('barter-match', { radius: '5', condition: 'good' });
    expect(sorted(fromGraph)).toEqual(sorted([ids.brandNew, ids.likeNew, ids.good]));
    const exactly = await feed('barter-match', { radius: '5', condition: 'new', sort: 'match' });
    expect(exactly).toEqual([ids.brandNew]);
  });

  it('keeps a ranking per condition: the kept unfiltered list is not served for a filter', async () => {
    const before = await feed('everything', { radius: '10' });
    expect(before).toContain(ids.parts);
    expect(await feed('everything', { radius: '10', condition: 'new' })).toEqual([ids.brandNew]);
    // And back: the filtered ranking is not served for the unfiltered feed either.
    expect(await feed('everything', { radius: '10' })).toEqual(before);
  });

  it('gives the map the same items as the list', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/feed/everything/map',
      query: { radius: '5', condition: 'like-new' },
      cookies,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json() as FeedMap;
    expect(body.items.map((item) => item.id)).toEqual(
      await feed('everything', { radius: '5', condition: 'like-new' }),
    );
    expect(body.items.map((item) => item.id)).toEqual([ids.brandNew, ids.likeNew]);
  });

  it('refuses a condition that is not one of the five with a clear 400', async () => {
    for (const url of ['/api/feed/everything', '/api/feed/barter-match/map']) {
      for (const condition of ['excellent', 'NEW', 'like new', '', 'new\u0000', 'good%00']) {
        const response = await t.app.inject({ method: 'GET', url, query: { condition }, cookies });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({
          code: expect.any(String),
          message: expect.stringContaining('condition must be one of new, like-new, good, fair, for-parts'),
        });
      }
      const twice = await t.app.inject({
        method: 'GET',
        url: `${url}?condition=new&condition=good`,
        cookies,
      });
      expect(twice.statusCode).toBe(400);
    }
  });
});
