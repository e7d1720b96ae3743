import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES, PHOTO_MAX_BYTES } from '../../../common/constants';
import type { Item } from '../../../common/schemas/listings';
import type { UserRow } from '../../db/schema/users';
import { createUser, sessionCookiesFor } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { exifHasGps, jpegWithGpsAndOrientation, pngBomb, solidImage, toDataUrl } from '../../test/images';

const listing = {
  title: 'Bread maker',
  description: 'Makes a loaf overnight.',
  category: 'appliances',
};

describe('item photos', () => {
  let t: TestApp;
  let owner: UserRow;
  let cookies: Record<string, string>;

  beforeAll(async () => {
    t = await buildTestApp();
    owner = await createUser(t.app.db);
    cookies = await sessionCookiesFor(t.app, owner);
  });
  afterAll(() => t.close());

  const photosDir = () => path.join(t.config.dataDir, 'photos');
  const storedFiles = () => (existsSync(photosDir()) ? readdirSync(photosDir()).sort() : []);
  const fileOf = (url: string) => path.join(photosDir(), path.basename(url));
  const call = (options: InjectOptions) => t.app.inject(options);
  const create = (payload: Record<string, unknown>) =>
    call({ method: 'POST', url: '/api/items', payload, cookies });
  const patch = (id: number, payload: Record<string, unknown>) =>
    call({ method: 'PATCH', url: `/api/items/${id}`, payload, cookies });
  const withPhoto = async (bytes: Buffer, mime = 'image/jpeg') => {
    const response = await create({ ...listing, imageUrl: toDataUrl(bytes, mime) });
    expect(response.statusCode).toBe(201);
    return response.json<Item>();
  };
  /** GET a served photo, as a browser would. */
  const fetchPhoto = (url: string) => call({ method: 'GET', url });

  it('stores a JPEG with GPS tags upright, without any metadata, and serves it cached for a year', async () => {
    const source = await jpegWithGpsAndOrientation();
    const before = await sharp(source).metadata();
    expect(before.exif).toBeDefined();
    expect(exifHasGps(before.exif)).toBe(true);

    const item = await withPhoto(source);
    expect(item.imageUrl).toMatch(/^\/photos\/[a-f0-9]{32}\.webp$/);
    expect(item.thumbnailUrl).toMatch(/^\/photos\/[a-f0-9]{32}\.webp$/);
    expect(item.thumbnailUrl).not.toBe(item.imageUrl);

    for (const url of [item.imageUrl, item.thumbnailUrl] as string[]) {
      const response = await fetchPhoto(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/webp');
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const served = await sharp(response.rawPayload).metadata();
      expect(served.exif).toBeUndefined();
      expect(served.icc).toBeUndefined();
      expect(served.xmp).toBeUndefined();
      // Taken sideways (orientation 6, stored 60 x 20): upright it is 20 x 60.
      expect(served).toMatchObject({ format: 'webp', width: 20, height: 60 });
      expect(existsSync(fileOf(url))).toBe(true);
    }
  });

  it('makes a feed-size version of a large photo', async () => {
    const item = await withPhoto(await solidImage(3000, 2000, 'png'), 'image/png');
    const large = await sharp((await fetchPhoto(item.imageUrl as string)).rawPayload).metadata();
    const feed = await sharp((await fetchPhoto(item.thumbnailUrl as string)).rawPayload).metadata();
    expect(large).toMatchObject({ width: 1600, height: 1067 });
    expect(feed).toMatchObject({ width: 600, height: 400 });
  });

  it('refuses text that claims to be a JPEG: 400 INVALID_PHOTO, nothing stored', async () => {
    const files = storedFiles();
    const response = await create({
      ...listing,
      imageUrl: toDataUrl(Buffer.from('just some text, honestly')),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'That file is not a photo we can read. Use a JPEG, PNG or WebP image.',
      code: 'INVALID_PHOTO',
    });
    expect(storedFiles()).toEqual(files);
  });

  it('refuses more than 10 MB of image: 413 PHOTO_TOO_LARGE', async () => {
    const jpegStart = await solidImage(16, 16, 'jpeg');
    const oversized = Buffer.concat([
      jpegStart,
      Buffer.alloc(PHOTO_MAX_BYTES + 512 * 1024 - jpegStart.length, 7),
    ]);
    const payload = { ...listing, imageUrl: toDataUrl(oversized) };
    expect(JSON.stringify(payload).length).toBeLessThan(BODY_LIMIT_BYTES); // reaches the photo check
    const response = await create(payload);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      message: 'That photo is too large. Use a photo under 10 MB.',
      code: 'PHOTO_TOO_LARGE',
    });
  });

  it('refuses a body over the request limit: 413 PAYLOAD_TOO_LARGE', async () => {
    const response = await create({
      ...listing,
      imageUrl: `data:image/jpeg;base64,${'A'.repeat(BODY_LIMIT_BYTES)}`,
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('refuses a decompression bomb (a 100 KB PNG of 30000 x 30000 pixels) from its header', async () => {
    const response = await create({ ...listing, imageUrl: toDataUrl(pngBomb(), 'image/png') });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'PHOTO_TOO_MANY_PIXELS' });
    expect(response.json<{ message: string }>().message).toContain('too many pixels');
  });

  it('stores nothing when the item is refused for another reason', async () => {
    const files = storedFiles();
    const photo = toDataUrl(await solidImage(50, 50, 'webp'), 'image/webp');
    expect((await create({ ...listing, category: 'lessons', imageUrl: photo })).statusCode).toBe(400);
    expect((await create({ ...listing, title: 'Cocaine for sale', imageUrl: photo })).statusCode).toBe(400);
    expect(storedFiles()).toEqual(files);
  });

  it('deleting an item removes its photo files', async () => {
    const item = await withPhoto(await solidImage(120, 80, 'jpeg'));
    const files = [fileOf(item.imageUrl as string), fileOf(item.thumbnailUrl as string)];
    for (const file of files) expect(existsSync(file)).toBe(true);
    expect((await call({ method: 'DELETE', url: `/api/items/${item.id}`, cookies })).statusCode).toBe(204);
    for (const file of files) expect(existsSync(file)).toBe(false);
    expect((await fetchPhoto(item.imageUrl as string)).statusCode).toBe(404);
  });

  it('keeps files another item still shows (names are content hashes)', async () => {
    const bytes = await solidImage(90, 90, 'png');
    const first = await withPhoto(bytes, 'image/png');
    const second = await withPhoto(bytes, 'image/png');
    expect(second.imageUrl).toBe(first.imageUrl);
    expect((await call({ method: 'DELETE', url: `/api/items/${first.id}`, cookies })).statusCode).toBe(204);
    expect(existsSync(fileOf(second.imageUrl as string))).toBe(true);
    expect(existsSync(fileOf(second.thumbnailUrl as string))).toBe(true);
  });

  it('PATCH replaces the photo (old files removed), keeps it, or removes it', async () => {
    const item = await withPhoto(await solidImage(200, 100, 'jpeg'));
    const oldFiles = [fileOf(item.imageUrl as string), fileOf(item.thumbnailUrl as string)];

    // Sending the current URL back (an edit form) keeps the photo.
    const kept = await patch(item.id, { imageUrl: item.imageUrl, title: 'Bread maker, like new' });
    expect(kept.statusCode).toBe(200);
    expect(kept.json()).toMatchObject({ imageUrl: item.imageUrl, thumbnailUrl: item.thumbnailUrl });

    // Another served URL is not a way to borrow someone's photo.
    const borrowed = await patch(item.id, { imageUrl: '/photos/0123456789abcdef0123456789abcdef.webp' });
    expect(borrowed.statusCode).toBe(400);

    const replaced = await patch(item.id, {
      imageUrl: toDataUrl(await solidImage(100, 200, 'png'), 'image/png'),
    });
    expect(replaced.statusCode).toBe(200);
    const updated = replaced.json<Item>();
    expect(updated.imageUrl).not.toBe(item.imageUrl);
    expect(existsSync(fileOf(updated.imageUrl as string))).toBe(true);
    for (const file of oldFiles) expect(existsSync(file)).toBe(false);

    const removed = await patch(item.id, { imageUrl: null });
    expect(removed.json()).toMatchObject({ imageUrl: null, thumbnailUrl: null });
    expect(existsSync(fileOf(updated.imageUrl as string))).toBe(false);
    expect(existsSync(fileOf(updated.thumbnailUrl as string))).toBe(false);
  });

  it('PATCH with a bad photo changes nothing', async () => {
    const item = await withPhoto(await solidImage(64, 64, 'jpeg'));
    const response = await patch(item.id, { title: 'New title', imageUrl: toDataUrl(Buffer.from('nope')) });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'INVALID_PHOTO' });
    const [listed] = (await call({ method: 'GET', url: '/api/items/my', cookies })).json<Item[]>();
    expect(listed).toMatchObject({ id: item.id, title: listing.title, imageUrl: item.imageUrl });
  });
});
