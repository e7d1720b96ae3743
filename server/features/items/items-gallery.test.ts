import { existsSync } from 'node:fs';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PHOTO_MAX_BYTES } from '#common/constants.ts';
import type { FeedItem, ItemDetail } from '#common/schemas/feed.ts';
import { ITEM_PHOTOS_MAX, type Item } from '#common/schemas/listings.ts';
import type { UserRow } from '../../db/schema/users';
import { photoQueue } from '../../photos/photo-queue';
import { createUser, sessionCookiesFor } from '../../test/factories';
import { formBody } from '../../test/forms';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { solidImage, toDataUrl } from '../../test/images';

/** Several photos per item and a condition for goods (issue 31, ADR 082). */

const listing = { title: 'Road bike', description: 'Steel frame, 56 cm.', category: 'bikes' };

/** A small PNG unlike any other of this file (files are named by their content). */
let shade = 0;
async function distinctPhoto(): Promise<string> {
  shade += 1;
  return toDataUrl(await solidImage(20 + shade, 16, 'png'), 'image/png');
}

describe('item photos and condition', () => {
  let t: TestApp;
  let owner: UserRow;
  let neighbour: UserRow;
  let cookies: Record<string, string>;
  let neighbourCookies: Record<string, string>;

  beforeAll(async () => {
    t = await buildTestApp();
    owner = await createUser(t.app.db, { latitude: 40.71277, longitude: -74.00597 });
    neighbour = await createUser(t.app.db, { latitude: 40.72, longitude: -74.0 });
    cookies = await sessionCookiesFor(t.app, owner);
    neighbourCookies = await sessionCookiesFor(t.app, neighbour);
  });
  afterAll(() => t.close());
  afterEach(async () => {
    await vi.waitFor(() => expect(photoQueue.stats()).toMatchObject({ held: 0, running: 0, waiting: 0 }));
  });

  const fileOf = (url: string) => path.join(t.config.dataDir, 'photos', path.basename(url));
  const call = (options: InjectOptions) => t.app.inject(options);
  const create = async (payload: Record<string, unknown>) => {
    const response = await call({ method: 'POST', url: '/api/items', payload, cookies });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Item>();
  };
  const addPhoto = (id: number, imageUrl: string) =>
    call({ method: 'POST', url: `/api/items/${id}/photos`, payload: { imageUrl }, cookies });
  const order = (id: number, photos: unknown, as = cookies) =>
    call({ method: 'PUT', url: `/api/items/${id}/photos`, payload: { photos }, cookies: as });
  const urlsOf = (item: Item) => (item.photos ?? []).map((photo) => photo.imageUrl);

  /** An item with `count` photos, each added after the first. */
  async function itemWithPhotos(count: number): Promise<Item> {
    let item = await create({ ...listing, imageUrl: await distinctPhoto() });
    for (let i = 1; i < count; i++) {
      const response = await addPhoto(item.id, await distinctPhoto());
      expect(response.statusCode, response.body).toBe(200);
      item = response.json<Item>();
    }
    return item;
  }

  it('adds photos after the cover, by data URL and as a multipart file, each re-encoded like the cover', async () => {
    const item = await create({ ...listing, imageUrl: await distinctPhoto() });
    expect(item.photos).toEqual([{ imageUrl: item.imageUrl, thumbnailUrl: item.thumbnailUrl }]);

    const second = await addPhoto(item.id, await distinctPhoto());
    expect(second.statusCode, second.body).toBe(200);
    const form = await formBody({}, { bytes: await solidImage(3000, 2000, 'jpeg') });
    const third = await call({ method: 'POST', url: `/api/items/${item.id}/photos`, cookies, ...form });
    expect(third.statusCode, third.body).toBe(200);
    const after = third.json<Item>();
    expect(after.photos).toHaveLength(3);
    // The cover stays the first photo; the others follow in the order they came.
    expect(after.imageUrl).toBe(item.imageUrl);
    expect(after.photos?.[1]?.imageUrl).toBe(second.json<Item>().photos?.[1]?.imageUrl);
    for (const photo of after.photos ?? []) {
      expect(photo.imageUrl).toMatch(/^\/photos\/[a-f0-9]{32}\.jpg$/);
      expect(photo.thumbnailUrl).toMatch(/^\/photos\/[a-f0-9]{32}\.webp$/);
      expect(existsSync(fileOf(photo.imageUrl))).toBe(true);
      expect(existsSync(fileOf(photo.thumbnailUrl))).toBe(true);
    }

    // The same photo again (a retried upload) changes nothing.
    const again = await addPhoto(
      item.id,
      await (async () => toDataUrl(await solidImage(3000, 2000, 'jpeg')))(),
    );
    expect(again.statusCode).toBe(200);
    expect(again.json<Item>().photos).toEqual(after.photos);
  });

  it('reorders and removes photos; the cover is the first, on the card and in the detail', async () => {
    const item = await itemWithPhotos(3);
    const [a, b, c] = item.photos ?? [];
    if (!a || !b || !c) throw new Error('three photos expected');

    const reordered = await order(item.id, [c.imageUrl, a.imageUrl, b.imageUrl]);
    expect(reordered.statusCode, reordered.body).toBe(200);
    expect(reordered.json<Item>()).toMatchObject({ imageUrl: c.imageUrl, thumbnailUrl: c.thumbnailUrl });

    const detail = await call({ method: 'GET', url: `/api/items/${item.id}`, cookies: neighbourCookies });
    expect(detail.json<ItemDetail>().photos).toEqual([c, a, b]);
    expect(detail.json<ItemDetail>().imageUrl).toBe(c.imageUrl);
    const feed = await call({
      method: 'GET',
      url: '/api/feed/everything?limit=50',
      cookies: neighbourCookies,
    });
    const card = feed.json<FeedItem[]>().find((entry) => entry.id === item.id);
    expect(card).toMatchObject({ imageUrl: c.imageUrl, thumbnailUrl: c.thumbnailUrl });

    // Removing one: its files go once no item shows them.
    const removed = await order(item.id, [c.imageUrl, b.imageUrl]);
    expect(removed.json<Item>().photos).toEqual([c, b]);
    expect(existsSync(fileOf(a.imageUrl))).toBe(false);
    expect(existsSync(fileOf(a.thumbnailUrl))).toBe(false);
    expect(existsSync(fileOf(b.imageUrl))).toBe(true);

    // Removing the cover through the item's edit (imageUrl null) makes the next one the cover.
    const edited = await call({
      method: 'PATCH',
      url: `/api/items/${item.id}`,
      payload: { imageUrl: null },
      cookies,
    });
    expect(edited.json<Item>()).toMatchObject({ imageUrl: b.imageUrl, photos: [b] });

    const none = await order(item.id, []);
    expect(none.json<Item>()).toMatchObject({ imageUrl: null, thumbnailUrl: null, photos: [] });
    expect(existsSync(fileOf(b.imageUrl))).toBe(false);
  });

  it(`refuses a ${ITEM_PHOTOS_MAX + 1}th photo with 409 ITEM_PHOTO_LIMIT before doing any work`, async () => {
    const item = await itemWithPhotos(ITEM_PHOTOS_MAX);
    expect(item.photos).toHaveLength(ITEM_PHOTOS_MAX);
    const ninth = await distinctPhoto();
    const response = await addPhoto(item.id, ninth);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      code: 'ITEM_PHOTO_LIMIT',
      message: `An item has at most ${ITEM_PHOTOS_MAX} photos. Remove one before adding another.`,
    });
    const mine = await call({ method: 'GET', url: '/api/items/my', cookies });
    expect(mine.json<Item[]>().find((entry) => entry.id === item.id)?.photos).toEqual(item.photos);
    // A list of nine is refused by the schema too.
    const nine = await order(item.id, [...urlsOf(item), '/photos/x.jpg']);
    expect(nine.statusCode).toBe(400);
  });

  it('two adds racing for the last place: one is taken, the other is 409, never nine', async () => {
    const item = await itemWithPhotos(ITEM_PHOTOS_MAX - 1);
    const [one, two] = await Promise.all([
      addPhoto(item.id, await distinctPhoto()),
      addPhoto(item.id, await distinctPhoto()),
    ]);
    expect([one.statusCode, two.statusCode].sort()).toEqual([200, 409]);
    const mine = await call({ method: 'GET', url: '/api/items/my', cookies });
    expect(mine.json<Item[]>().find((entry) => entry.id === item.id)?.photos).toHaveLength(ITEM_PHOTOS_MAX);
    // The refused photo's files were not left behind.
    const refused = one.statusCode === 409 ? one : two;
    expect(refused.json()).toMatchObject({ code: 'ITEM_PHOTO_LIMIT' });
  });

  it('two reorders racing: each applies whole, one after the other, never a mix', async () => {
    const item = await itemWithPhotos(4);
    const urls = urlsOf(item);
    const first = [urls[3], urls[2], urls[1], urls[0]];
    const second = [urls[1], urls[0], urls[3], urls[2]];
    const answers = await Promise.all([order(item.id, first), order(item.id, second)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    const mine = await call({ method: 'GET', url: '/api/items/my', cookies });
    const final = urlsOf(mine.json<Item[]>().find((entry) => entry.id === item.id) as Item);
    expect([first, second]).toContainEqual(final);
  });

  it('a reorder after a removal it did not see is 409 ITEM_PHOTOS_CHANGED, and changes nothing', async () => {
    const item = await itemWithPhotos(3);
    const urls = urlsOf(item);
    expect((await order(item.id, [urls[0], urls[1]])).statusCode).toBe(200);
    const stale = await order(item.id, [urls[2], urls[0], urls[1]]);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'ITEM_PHOTOS_CHANGED' });
    const mine = await call({ method: 'GET', url: '/api/items/my', cookies });
    expect(urlsOf(mine.json<Item[]>().find((entry) => entry.id === item.id) as Item)).toEqual([
      urls[0],
      urls[1],
    ]);
  });

  it('refuses hostile photos and orders with a clear 4xx, storing nothing', async () => {
    const item = await itemWithPhotos(1);
    const text = await addPhoto(item.id, toDataUrl(Buffer.from('not a photo, honestly')));
    expect(text.statusCode).toBe(400);
    expect(text.json()).toMatchObject({ code: 'INVALID_PHOTO' });

    const start = await solidImage(16, 16, 'jpeg');
    const huge = Buffer.concat([start, Buffer.alloc(PHOTO_MAX_BYTES + 1 - start.length, 7)]);
    const tooLarge = await call({
      method: 'POST',
      url: `/api/items/${item.id}/photos`,
      cookies,
      ...(await formBody({}, { bytes: huge })),
    });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toMatchObject({ code: 'PHOTO_TOO_LARGE' });

    const noPhoto = await call({ method: 'POST', url: `/api/items/${item.id}/photos`, payload: {}, cookies });
    expect(noPhoto.statusCode).toBe(400);
    const servedUrl = await addPhoto(item.id, item.imageUrl as string);
    expect(servedUrl.statusCode).toBe(400);

    for (const photos of [
      [item.imageUrl, item.imageUrl],
      ['/photos/..%2f..%2fetc%2fpasswd'],
      ['/photos/a\u0000.jpg'],
      'not a list',
      [42],
    ]) {
      const response = await order(item.id, photos);
      expect(response.statusCode, JSON.stringify(photos)).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, JSON.stringify(photos)).toBeLessThan(500);
    }
    const mine = await call({ method: 'GET', url: '/api/items/my', cookies });
    expect(mine.json<Item[]>().find((entry) => entry.id === item.id)?.photos).toEqual(item.photos);

    // Someone else's item, a missing one and an encoded id answer like a missing one.
    expect((await order(item.id, [], neighbourCookies)).statusCode).toBe(404);
    expect((await order(2_000_000_000, [])).statusCode).toBe(404);
    expect((await order('1%2F..' as unknown as number, [])).statusCode).toBe(400);
  });

  it('keeps a condition for goods: set, shown on the card and the detail, cleared; none for services', async () => {
    const good = await create({ ...listing, condition: 'like-new' });
    expect(good.condition).toBe('like-new');
    const feed = await call({
      method: 'GET',
      url: '/api/feed/everything?limit=50',
      cookies: neighbourCookies,
    });
    expect(feed.json<FeedItem[]>().find((entry) => entry.id === good.id)?.condition).toBe('like-new');
    const detail = await call({ method: 'GET', url: `/api/items/${good.id}`, cookies: neighbourCookies });
    expect(detail.json<ItemDetail>().condition).toBe('like-new');

    // Multipart sends it as text, like the JSON body.
    const form = await formBody({ ...listing, isService: 'false', condition: 'for-parts' });
    const viaForm = await call({ method: 'POST', url: '/api/items', cookies, ...form });
    expect(viaForm.statusCode, viaForm.body).toBe(201);
    expect(viaForm.json<Item>().condition).toBe('for-parts');

    // Optional: left out or blank is none.
    expect((await create(listing)).condition).toBeNull();
    expect((await create({ ...listing, condition: '' })).condition).toBeNull();

    const patch = (payload: Record<string, unknown>) =>
      call({ method: 'PATCH', url: `/api/items/${good.id}`, payload, cookies });
    expect((await patch({ condition: 'fair' })).json<Item>().condition).toBe('fair');
    expect((await patch({ condition: null })).json<Item>().condition).toBeNull();

    const unknown = await patch({ condition: 'mint' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain('Choose a condition from the list');

    const service = await call({
      method: 'POST',
      url: '/api/items',
      payload: {
        title: 'Bike tune-up',
        description: 'An hour.',
        category: 'lessons',
        isService: true,
        condition: 'good',
      },
      cookies,
    });
    expect(service.statusCode).toBe(400);
    expect(service.json().message).toContain('Services have no condition');

    // A good made a service loses its condition.
    await patch({ condition: 'good' });
    const madeService = await patch({ isService: true, category: 'lessons' });
    expect(madeService.statusCode, madeService.body).toBe(200);
    expect(madeService.json<Item>()).toMatchObject({ isService: true, condition: null });
    const serviceCondition = await patch({ condition: 'new' });
    expect(serviceCondition.statusCode).toBe(400);
  });
});
