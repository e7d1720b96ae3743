import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEED_NAMES } from '#common/feed-names.ts';
import type { FeedItem } from '#common/schemas/feed.ts';
import type { UserRow } from '../../db/schema/users';
import { createItem, createUser, sessionCookiesFor } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { servicesFeed } from '../../test/services-feed';
import { registeredFeeds, registerFeed } from './feed-registry';

/** The Ranking kept for a feed's key (feed-service.ts rankingKey: the feed's name comes first). */
function keptRankingOf(t: TestApp, feedName: string) {
  const rankings = t.app.feedCaches?.rankings;
  if (!rankings) throw new Error('the test app keeps rankings');
  const key = [...rankings.keys()].find((entry) => JSON.parse(entry)[0] === feedName);
  return key === undefined ? undefined : rankings.get(key);
}

describe('the feed registry', () => {
  // The one registration line (it returns what takes the feed out again).
  const unregister = registerFeed(servicesFeed);

  let t: TestApp;
  let viewer: UserRow;
  let cookies: Record<string, string>;
  const ids = {} as Record<'guitarLessons' | 'bikeRepair' | 'guitar' | 'ownService', number>;

  beforeAll(async () => {
    t = await buildTestApp();
    const db = t.app.db;
    viewer = await createUser(db, { firstName: 'Vera', lastName: 'Viewer' });
    const owner = await createUser(db, { firstName: 'Olga', lastName: 'Owens' });
    cookies = await sessionCookiesFor(t.app, viewer);
    const item = async (title: string, isService: boolean, userId = owner.id) =>
      (await createItem(db, { userId, title, isService, category: isService ? 'lessons' : 'music' })).id;
    ids.guitar = await item('Acoustic guitar', false);
    ids.guitarLessons = await item('Guitar lessons', true);
    ids.bikeRepair = await item('Bike repair', true);
    ids.ownService = await item('Guitar tuning', true, viewer.id);
  });
  afterAll(async () => {
    unregister();
    await t.close();
  });

  const get = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url, cookies });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as FeedItem[]).map((card) => card.id);
  };

  it('holds the three feeds of the home screen, as the web names them', () => {
    expect(registeredFeeds().map((feed) => feed.name)).toEqual([...FEED_NAMES, 'services']);
  });

  it('a registered feed is served by the route: its candidates, in its order', async () => {
    expect(await get('/api/feed/services')).toEqual([ids.bikeRepair, ids.guitarLessons]);
    expect(await get('/api/feed/everything')).toEqual([ids.bikeRepair, ids.guitarLessons, ids.guitar]);
  });

  it('a registered feed is cached: its ranking is kept, and the next page is read from it', async () => {
    expect(await get('/api/feed/services?limit=1')).toEqual([ids.bikeRepair]);
    const kept = keptRankingOf(t, 'services');
    expect(kept?.items.map((entry) => entry.id)).toEqual([ids.bikeRepair, ids.guitarLessons]);
    expect(kept?.complete).toBe(true);
    expect(await get('/api/feed/services?limit=1&offset=1')).toEqual([ids.guitarLessons]);
    expect(keptRankingOf(t, 'services')).toBe(kept);
  });

  it('a registered feed is found by search', async () => {
    expect(await get('/api/feed/services?q=guitar')).toEqual([ids.guitarLessons]);
    expect(await get('/api/feed/services?q=repair')).toEqual([ids.bikeRepair]);
  });

  it('an unregistered name is still a 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/feed/gardening', cookies });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'FEED_NOT_FOUND' });
  });
});
