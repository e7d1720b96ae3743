import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Item } from '#common/schemas/listings.ts';
import { createUser, sessionCookiesFor } from '../test/factories';
import { formBody } from '../test/forms';
import { buildTestApp, type TestApp } from '../test/helpers';
import { solidImage } from '../test/images';
import { startTestS3, type TestS3, unreachableStorageUrl } from '../test/s3';

const listing = { title: 'Bread maker', description: 'Makes a loaf overnight.', category: 'appliances' };
const CACHED = 'private, max-age=31536000, immutable';

/** Upload a photo with a new item through the real route (multipart, as the web app sends it). */
async function createItemWithPhoto(t: TestApp, cookies: Record<string, string>) {
  const photo = await solidImage(64, 48, 'jpeg');
  return t.app.inject({
    method: 'POST',
    url: '/api/items',
    cookies,
    ...(await formBody(
      { ...listing, isService: 'false' },
      { bytes: photo, type: 'image/jpeg', name: 'bread.jpg' },
    )),
  });
}

describe.each([
  ['the local directory', false],
  ['an S3 bucket (STORAGE_URL)', true],
])('photos served at /photos/... from %s', (_kind, onS3) => {
  let s3: TestS3 | null = null;
  let t: TestApp;
  let cookies: Record<string, string>;
  let item: Item;

  beforeAll(async () => {
    s3 = onS3 ? await startTestS3() : null;
    t = await buildTestApp(s3 ? { STORAGE_URL: s3.url } : {});
    cookies = await sessionCookiesFor(t.app, await createUser(t.app.db));
    const created = await createItemWithPhoto(t, cookies);
    expect(created.statusCode).toBe(201);
    item = created.json<Item>();
  });
  afterAll(async () => {
    await t.close();
    await s3?.close();
  });

  it('an uploaded photo comes back through /photos/..., cached for a year, with its ETag', async () => {
    expect(item.imageUrl).toMatch(/^\/photos\/[a-f0-9]{32}\.jpg$/);
    for (const url of [item.imageUrl, item.thumbnailUrl] as string[]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe(url.endsWith('.jpg') ? 'image/jpeg' : 'image/webp');
      expect(response.headers['cache-control']).toBe(CACHED);
      expect(response.headers.etag).toBe(`"${path.basename(url)}"`);
      expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
      expect(await sharp(response.rawPayload).metadata()).toMatchObject({ width: 64, height: 48 });
    }
    // On S3 nothing is written to DATA_DIR/photos; locally that is where it is.
    const photosDir = path.join(t.config.dataDir, 'photos');
    const onDisk = existsSync(photosDir) ? readdirSync(photosDir) : [];
    expect(onDisk.includes(path.basename(item.imageUrl as string))).toBe(!onS3);
  });

  it('a request with the ETag it has is a 304 without a body', async () => {
    const url = item.thumbnailUrl as string;
    const etag = `"${path.basename(url)}"`;
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`]) {
      const response = await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': ifNoneMatch } });
      expect(response.statusCode).toBe(304);
      expect(response.rawPayload.length).toBe(0);
      expect(response.headers['cache-control']).toBe(CACHED);
    }
    const changed = await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': '"other"' } });
    expect(changed.statusCode).toBe(200);
  });

  it('an unknown photo is a 404 in the API error shape', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/photos/${'0'.repeat(32)}.webp` });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect(response.headers['cache-control']).toBeUndefined();
  });

  it('an encoded path that climbs out ("..%2F") is a 404', async () => {
    for (const url of [
      '/photos/..%2Fsession-secret',
      '/photos/..%2F..%2Fetc%2Fpasswd',
      '/photos/%2e%2e%2fsession-secret',
      `/photos/..%2Fphotos%2F${path.basename(item.imageUrl as string)}`,
      `/photos/${path.basename(item.imageUrl as string)}%2F..%2F..%2Fsession-secret`,
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect({ url, status: response.statusCode }).toEqual({ url, status: 404 });
    }
  });

  it('a plain ".." in the path is a 404', async () => {
    for (const url of ['/photos/..', '/photos/../session-secret', '/photos/../../etc/passwd', '/photos/.']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect({ url, status: response.statusCode }).toEqual({ url, status: 404 });
    }
  });

  it('control characters in the name are a 404', async () => {
    const name = path.basename(item.imageUrl as string);
    for (const url of [
      `/photos/${name}%00`,
      `/photos/%00${name}`,
      `/photos/${name}%0d%0aSet-Cookie:%20x=1`,
      `/photos/${name.replace('.jpg', '%09.jpg')}`,
      `/photos/${name}%7F`,
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect({ url, status: response.statusCode }).toEqual({ url, status: 404 });
      expect(response.headers['set-cookie']).toBeUndefined();
    }
  });

  it('names that are not photo names are a 404: other formats, cases, lengths and suffixes', async () => {
    const hash = path.basename(item.imageUrl as string, '.jpg');
    for (const url of [
      `/photos/${hash}.svg`,
      `/photos/${hash.toUpperCase()}.jpg`,
      `/photos/${hash.slice(1)}.jpg`,
      `/photos/${hash}.jpg.html`,
      `/photos/${hash}.JPG`,
      '/photos/',
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect({ url, status: response.statusCode }).toEqual({ url, status: 404 });
    }
  });
});

describe('photos when the S3 store cannot be reached', () => {
  let t: TestApp;
  let cookies: Record<string, string>;

  beforeAll(async () => {
    t = await buildTestApp({ STORAGE_URL: await unreachableStorageUrl() });
    cookies = await sessionCookiesFor(t.app, await createUser(t.app.db));
  });
  afterAll(() => t.close());

  it('an upload is a 503 PHOTO_STORAGE_UNAVAILABLE with Retry-After, and no item is made', async () => {
    const response = await createItemWithPhoto(t, cookies);
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      message: 'Photos cannot be stored or shown right now. Please try again shortly.',
      code: 'PHOTO_STORAGE_UNAVAILABLE',
    });
    expect(response.headers['retry-after']).toBe('5');
    const mine = await t.app.inject({ method: 'GET', url: '/api/items/my', cookies });
    expect(mine.json()).toEqual([]);
  });

  it('a profile photo upload is a 503 too', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/user/photo',
      cookies,
      ...(await formBody({}, { bytes: await solidImage(32, 32, 'png'), type: 'image/png', name: 'me.png' })),
    });
    expect(response.statusCode).toBe(503);
    expect(response.json().code).toBe('PHOTO_STORAGE_UNAVAILABLE');
  });

  it('reading a photo is a 503, not a 404 or a 500', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/photos/${'d'.repeat(32)}.webp` });
    expect(response.statusCode).toBe(503);
    expect(response.json().code).toBe('PHOTO_STORAGE_UNAVAILABLE');
    expect(response.headers['cache-control']).toBeUndefined();
  });
});
