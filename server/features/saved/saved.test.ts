import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedItem } from '#common/schemas/feed.ts';
import { items } from '../../db/schema/trading';
import type { UserRow } from '../../db/schema/users';
import { createItem, createUser, sessionCookiesFor } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { countSavedItems } from './saved-repository';

describe('saved items API', () => {
  let t: TestApp;
  let member: UserRow;
  let neighbour: UserRow;
  let cookies: Record<string, string>;

  beforeAll(async () => {
    t = await buildTestApp();
    member = await createUser(t.app.db, { latitude: 51.50735, longitude: -0.12776 });
    neighbour = await createUser(t.app.db, { latitude: 51.51, longitude: -0.12 });
    cookies = await sessionCookiesFor(t.app, member);
  });
  afterAll(() => t.close());

  const call = (options: InjectOptions) => t.app.inject({ cookies, ...options });
  const save = (id: number | string) => call({ method: 'POST', url: `/api/saved-items/${id}` });
  const unsave = (id: number | string) => call({ method: 'DELETE', url: `/api/saved-items/${id}` });
  const savedList = async () => {
    const response = await call({ method: 'GET', url: '/api/saved-items' });
    expect(response.statusCode).toBe(200);
    return response.json<FeedItem[]>();
  };
  const inFeed = async (id: number) => {
    const response = await call({ method: 'GET', url: '/api/feed/everything?limit=50' });
    return response.json<FeedItem[]>().find((item) => item.id === id);
  };

  it('saves an item once however often it is asked, and lists it as a feed card', async () => {
    const item = await createItem(t.app.db, { userId: neighbour.id, title: 'Sewing machine' });
    expect((await inFeed(item.id))?.isSaved).toBe(false);

    const first = await save(item.id);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({ saved: true });
    const again = await save(item.id);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ saved: true });
    expect(await countSavedItems(t.app.db, member.id)).toBe(1);

    const list = await savedList();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      id: item.id,
      title: 'Sewing machine',
      isSaved: true,
      user: { id: neighbour.id, lastName: 'T.' },
      distanceMiles: expect.any(Number),
      owner: { rating: null, completedTrades: 0 },
      lookingFor: [],
    });
    expect(list[0]).not.toHaveProperty('match');
    expect((await inFeed(item.id))?.isSaved).toBe(true);
  });

  it('unsaves idempotently (204), and isSaved flips back', async () => {
    const item = await createItem(t.app.db, { userId: neighbour.id });
    await save(item.id);
    expect((await unsave(item.id)).statusCode).toBe(204);
    expect((await unsave(item.id)).statusCode).toBe(204);
    expect((await unsave(2_000_000_000)).statusCode).toBe(204);
    expect((await inFeed(item.id))?.isSaved).toBe(false);
    expect((await savedList()).map((saved) => saved.id)).not.toContain(item.id);
  });

  it('refuses your own item with 400 CANNOT_SAVE_OWN_ITEM', async () => {
    const own = await createItem(t.app.db, { userId: member.id });
    const response = await save(own.id);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'You cannot save your own item.',
      code: 'CANNOT_SAVE_OWN_ITEM',
    });
  });

  it('answers 404 for an unknown or inactive item, 400 for a malformed id', async () => {
    expect((await save(2_000_000_000)).statusCode).toBe(404);
    const hidden = await createItem(t.app.db, { userId: neighbour.id, isActive: false });
    const response = await save(hidden.id);
    expect(response.statusCode).toBe(404);
    expect(response.json<{ code: string }>().code).toBe('NOT_FOUND');
    for (const id of ['abc', '0', '-1', '1.5', '99999999999']) {
      expect((await save(id)).statusCode, id).toBe(400);
      expect((await unsave(id)).statusCode, id).toBe(400);
    }
  });

  it('answers 404 with the unknown-id body for an item of a member blocked either way (ADR 025)', async () => {
    const blocker = await createUser(t.app.db);
    const blocked = await createUser(t.app.db);
    const blockerCookies = await sessionCookiesFor(t.app, blocker);
    const blockedCookies = await sessionCookiesFor(t.app, blocked);
    const blockersItem = await createItem(t.app.db, { userId: blocker.id, title: 'Blocker’s lamp' });
    const blockedsItem = await createItem(t.app.db, { userId: blocked.id, title: 'Blocked’s kettle' });
    const blockResponse = await t.app.inject({
      method: 'POST',
      url: `/api/members/${blocked.id}/block`,
      cookies: blockerCookies,
    });
    expect(blockResponse.statusCode).toBeLessThan(300);

    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/saved-items/2000000000',
      cookies: blockedCookies,
    });
    expect(unknown.statusCode).toBe(404);
    for (const [cookie, item] of [
      [blockedCookies, blockersItem],
      [blockerCookies, blockedsItem],
    ] as const) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/saved-items/${item.id}`,
        cookies: cookie,
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(unknown.json());
    }
    expect(await countSavedItems(t.app.db, blocked.id)).toBe(0);
    expect(await countSavedItems(t.app.db, blocker.id)).toBe(0);
  });

  it('lists newest saved first, and only items that are still active', async () => {
    const older = await createItem(t.app.db, { userId: neighbour.id, title: 'Older save' });
    const newer = await createItem(t.app.db, { userId: neighbour.id, title: 'Newer save' });
    await save(older.id);
    await save(newer.id);
    let titles = (await savedList()).map((item) => item.title);
    expect(titles.indexOf('Newer save')).toBeLessThan(titles.indexOf('Older save'));

    await t.app.db.update(items).set({ isActive: false }).where(eq(items.id, newer.id));
    titles = (await savedList()).map((item) => item.title);
    expect(titles).not.toContain('Newer save');
    expect(titles).toContain('Older save');
  });

  it('pages the saved list with limit and offset and counts it all in X-Total-Count', async () => {
    const saver = await createUser(t.app.db, { latitude: 51.5, longitude: -0.12 });
    const saverCookies = await sessionCookiesFor(t.app, saver);
    const ids: number[] = [];
    for (let n = 0; n < 7; n++) {
      const item = await createItem(t.app.db, { userId: neighbour.id, title: `Paged ${n}` });
      ids.push(item.id);
      expect(
        (await t.app.inject({ method: 'POST', url: `/api/saved-items/${item.id}`, cookies: saverCookies }))
          .statusCode,
      ).toBe(201);
    }
    const page = async (query: string) => {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/saved-items?${query}`,
        cookies: saverCookies,
      });
      return response;
    };
    const seen: number[] = [];
    for (const offset of [0, 3, 6]) {
      const response = await page(`limit=3&offset=${offset}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-total-count']).toBe('7');
      seen.push(...response.json<FeedItem[]>().map((item) => item.id));
    }
    // Disjoint pages that together hold every saved item, newest saved first.
    expect(seen).toEqual([...ids].reverse());
    const past = await page('limit=3&offset=30');
    expect(past.json()).toEqual([]);
    expect(past.headers['x-total-count']).toBe('7');
    for (const bad of ['limit=0', 'limit=101', 'offset=-1', 'limit=1e3', 'offset=0x10']) {
      expect((await page(bad)).statusCode).toBe(400);
    }
  });

  it("keeps each member's saved list to themselves", async () => {
    const other = await createUser(t.app.db);
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/saved-items',
      cookies: await sessionCookiesFor(t.app, other),
    });
    expect(response.json()).toEqual([]);
  });

  it('answers 401 when signed out', async () => {
    for (const options of [
      { method: 'GET', url: '/api/saved-items' },
      { method: 'POST', url: '/api/saved-items/1' },
      { method: 'DELETE', url: '/api/saved-items/1' },
    ] as InjectOptions[]) {
      const response = await t.app.inject(options);
      expect(response.statusCode, `${options.method} ${options.url}`).toBe(401);
    }
  });
});
