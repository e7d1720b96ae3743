/**
 * The card's reason names what matched (issue 31, ADR 089): on Barter Match, from the ranking query
 * (before the member's match graph is built) and from the graph alike, and on an item's detail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedItem, ItemDetail, MatchReason } from '#common/schemas/feed.ts';
import type { UserRow } from '../../db/schema/users';
import { createItem, createUser, createWant, sessionCookiesFor } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { graphState, settleMatchGraph } from '../match-graph';
import { matchReason, parseMatchWords } from './match-reason';

const DEG_PER_MILE = 1 / 69.0936;
const HOME = { latitude: 45.51237, longitude: -122.65871 };

describe("the card's reason", () => {
  let t: TestApp;
  let viewer: UserRow;
  let cookies: Record<string, string>;
  const ids = {} as Record<
    'exact' | 'allWords' | 'related' | 'someWords' | 'elsewhere' | 'category' | 'nearSpelling',
    number
  >;

  beforeAll(async () => {
    t = await buildTestApp();
    const db = t.app.db;
    viewer = await createUser(db, { firstName: 'Vera', ...HOME });
    const owner = await createUser(db, {
      firstName: 'Ann',
      latitude: HOME.latitude + DEG_PER_MILE,
      longitude: HOME.longitude,
    });
    cookies = await sessionCookiesFor(t.app, viewer);
    await createWant(db, { userId: viewer.id, title: 'Mountain bike', category: 'bikes' });
    await createWant(db, { userId: viewer.id, title: 'Sewing machine', category: 'household' });
    const item = async (title: string, category: string, description = 'In good order.') =>
      (await createItem(db, { userId: owner.id, title, category, description })).id;
    ids.exact = await item('Mountain Bike', 'bikes');
    ids.allWords = await item('Trek mountain bike 29er', 'bikes');
    ids.related = await item('Mountain bicycle, red', 'bikes');
    ids.someWords = await item("Kids' bike with training wheels", 'bikes');
    ids.elsewhere = await item('Trail helmet', 'sporting', 'Fits anyone who rides a mountain bike.');
    ids.category = await item('Tandem', 'bikes');
    ids.nearSpelling = await item('Sewing machnie', 'toys+games');
  });
  afterAll(() => t.close());

  const feed = async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/feed/barter-match',
      query: { radius: '5', limit: '50' },
      cookies,
    });
    expect(response.statusCode).toBe(200);
    return new Map((response.json() as FeedItem[]).map((item) => [item.id, item.match?.reason]));
  };

  const expected: Array<[keyof typeof ids, MatchReason]> = [
    ['exact', { kind: 'title', words: [], related: [] }],
    ['allWords', { kind: 'all-words', words: ['Mountain', 'bike'], related: [] }],
    ['related', { kind: 'related', words: ['Mountain'], related: ['bicycle'] }],
    ['someWords', { kind: 'some-words', words: ['bike'], related: [] }],
    ['elsewhere', { kind: 'elsewhere', words: ['Mountain', 'bike'], related: [] }],
    ['category', { kind: 'category', words: [], related: [] }],
    ['nearSpelling', { kind: 'near-spelling', words: [], related: [] }],
  ];

  it('names the words from the ranking query, before the graph is built', async () => {
    const reasons = await feed();
    for (const [name, reason] of expected) expect(reasons.get(ids[name]), name).toEqual(reason);
  });

  it('names the same words from the match graph', async () => {
    await settleMatchGraph(t.app.db);
    expect(await graphState(t.app.db, viewer.id)).toBe('built');
    const reasons = await feed();
    for (const [name, reason] of expected) expect(reasons.get(ids[name]), name).toEqual(reason);
  });

  it("names them on an item's detail", async () => {
    const response = await t.app.inject({ method: 'GET', url: `/api/items/${ids.related}`, cookies });
    expect(response.statusCode).toBe(200);
    expect((response.json() as ItemDetail).match?.reason).toEqual(expected[2]?.[1]);
  });

  it('derives the kind from the stored parts alone when no words were read', () => {
    const base = {
      score: 50,
      wantId: 1,
      wantTitle: 'x',
      mutual: false,
      theirWantTitle: null,
      maxValue: null,
    };
    expect(matchReason({ ...base, sameCategory: true, textPercent: 0 })?.kind).toBe('category');
    expect(matchReason({ ...base, sameCategory: false, textPercent: 0 })).toBeNull();
    expect(matchReason({ ...base, sameCategory: true, textPercent: 35 })?.kind).toBe('near-spelling');
    expect(matchReason({ ...base, sameCategory: true, textPercent: 12 })?.kind).toBe('category');
    expect(parseMatchWords('[["Bike","bike","Mountain"],null]')).toEqual({
      words: ['Bike', 'Mountain'],
      related: [],
    });
    expect(parseMatchWords(null)).toEqual({ words: [], related: [] });
  });
});
