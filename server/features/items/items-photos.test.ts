import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DATA_URL_BODY_LIMIT_BYTES, PHOTO_MAX_BYTES } from '#common/constants.ts';
import type { Item } from '#common/schemas/listings.ts';
import type { UserRow } from '../../db/schema/users';
import { type PhotoTicket, photoQueue } from '../../photos/photo-queue';
import { createUser, sessionCookiesFor } from '../../test/factories';
import { type FilePart, formBody } from '../../test/forms';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { exifHasGps, jpegWithGpsAndOrientation, pngBomb, solidImage, toDataUrl } from '../../test/images';

const listing = {
  title: 'Bread maker',
  description: 'Makes a loaf overnight.',
  category: 'appliances',
};

/** The same listing as multipart text fields. */
const listingFields = { ...listing, isService: 'false', estimatedValue: '25' };

/** A JPEG of noise: as a data URL, its JSON body is over 64 KB (the size photoJsonParser looks into). */
function noisyJpeg(): Promise<Buffer> {
  const width = 320;
  const height = 240;
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7919) % 251;
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 95 })
    .toBuffer();
}

/** Something that starts like a JPEG and is `size` bytes long. */
async function jpegOfSize(size: number): Promise<Buffer> {
  const start = await solidImage(16, 16, 'jpeg');
  return Buffer.concat([start, Buffer.alloc(size - start.length, 7)]);
}

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
  // Every request gives its place in the photo queue back, whatever its answer.
  afterEach(async () => {
    await vi.waitFor(() => expect(photoQueue.stats()).toMatchObject({ held: 0, running: 0, waiting: 0 }));
  });

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
  const sendForm = async (
    method: 'POST' | 'PATCH',
    url: string,
    fields: Record<string, string>,
    ...files: FilePart[]
  ) => call({ method, url, cookies, ...(await formBody(fields, ...files)) });
  const createWithForm = (fields: Record<string, string>, ...files: FilePart[]) =>
    sendForm('POST', '/api/items', fields, ...files);

  it('stores a JPEG with GPS tags upright, without any metadata, and serves it cached for a year', async () => {
    const source = await jpegWithGpsAndOrientation();
    const before = await sharp(source).metadata();
    expect(before.exif).toBeDefined();
    expect(exifHasGps(before.exif)).toBe(true);

    const item = await withPhoto(source);
    expect(item.imageUrl).toMatch(/^\/photos\/[a-f0-9]{32}\.jpg$/);
    expect(item.thumbnailUrl).toMatch(/^\/photos\/[a-f0-9]{32}\.webp$/);
    expect(item.thumbnailUrl).not.toBe(item.imageUrl);

    for (const url of [item.imageUrl, item.thumbnailUrl] as string[]) {
      const response = await fetchPhoto(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe(url.endsWith('.jpg') ? 'image/jpeg' : 'image/webp');
      expect(response.headers['cache-control']).toBe('private, max-age=31536000, immutable');
      const served = await sharp(response.rawPayload).metadata();
      expect(served.exif).toBeUndefined();
      expect(served.icc).toBeUndefined();
      expect(served.xmp).toBeUndefined();
      // Taken sideways (orientation 6, stored 60 x 20): upright it is 20 x 60.
      expect(served).toMatchObject({ format: url.endsWith('.jpg') ? 'jpeg' : 'webp', width: 20, height: 60 });
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
    expect(JSON.stringify(payload).length).toBeLessThan(DATA_URL_BODY_LIMIT_BYTES); // reaches the photo check
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
      imageUrl: `data:image/jpeg;base64,${'A'.repeat(DATA_URL_BODY_LIMIT_BYTES)}`,
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

  describe('sent as multipart/form-data (the photo streamed as a file, ADR 013)', () => {
    it('creates the item with its photo re-encoded upright, without any metadata', async () => {
      const response = await createWithForm(listingFields, { bytes: await jpegWithGpsAndOrientation() });
      expect(response.statusCode).toBe(201);
      const item = response.json<Item>();
      expect(item).toMatchObject({
        title: listing.title,
        isService: false,
        estimatedValue: 25,
        isActive: true,
      });
      expect(item.imageUrl).toMatch(/^\/photos\/[a-f0-9]{32}\.jpg$/);
      expect(item.thumbnailUrl).toMatch(/^\/photos\/[a-f0-9]{32}\.webp$/);
      for (const url of [item.imageUrl, item.thumbnailUrl] as string[]) {
        expect(existsSync(fileOf(url))).toBe(true);
        const served = await sharp((await fetchPhoto(url)).rawPayload).metadata();
        expect(served).toMatchObject({
          format: url.endsWith('.jpg') ? 'jpeg' : 'webp',
          width: 20,
          height: 60,
        });
        expect(served.exif).toBeUndefined();
        expect(served.icc).toBeUndefined();
        expect(served.xmp).toBeUndefined();
      }
    });

    it('refuses a file over 10 MB: 413 PHOTO_TOO_LARGE, nothing stored', async () => {
      const files = storedFiles();
      const response = await createWithForm(listingFields, { bytes: await jpegOfSize(PHOTO_MAX_BYTES + 1) });
      expect(response.statusCode).toBe(413);
      expect(response.json()).toEqual({
        message: 'That photo is too large. Use a photo under 10 MB.',
        code: 'PHOTO_TOO_LARGE',
      });
      expect(storedFiles()).toEqual(files);
    });

    it('refuses a file that is not an image, whatever type it claims: 400 INVALID_PHOTO', async () => {
      const files = storedFiles();
      const response = await createWithForm(listingFields, {
        bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
        type: 'image/jpeg',
        name: 'cover.jpg',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        message: 'That file is not a photo we can read. Use a JPEG, PNG or WebP image.',
        code: 'INVALID_PHOTO',
      });
      expect(storedFiles()).toEqual(files);
    });

    it('checks the fields exactly like a JSON body, before the photo is processed', async () => {
      const files = storedFiles();
      const photo = { bytes: await solidImage(50, 50, 'jpeg') };
      const { title: _title, ...withoutTitle } = listingFields;
      const missing = await createWithForm(withoutTitle, photo);
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: 'title: Title is required.',
      });
      const unknown = await createWithForm({ ...listingFields, ownerId: '1' }, photo);
      expect(unknown.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Unknown field: ownerId.' });
      const notBoolean = await createWithForm({ ...listingFields, isService: 'maybe' }, photo);
      expect(notBoolean.statusCode).toBe(400);
      expect(storedFiles()).toEqual(files);
    });

    it('refuses a second file, a file under another name, and imageUrl beside the file', async () => {
      const photo = { bytes: await solidImage(30, 30, 'png'), type: 'image/png', name: 'a.png' };
      const two = await createWithForm(listingFields, photo, photo);
      expect(two.statusCode).toBe(400);
      expect(two.json()).toMatchObject({ message: 'Send one photo, as the "photo" file.' });
      const otherName = await createWithForm(listingFields, { ...photo, field: 'image' });
      expect(otherName.statusCode).toBe(400);
      const both = await createWithForm(
        { ...listingFields, imageUrl: toDataUrl(photo.bytes, 'image/png') },
        photo,
      );
      expect(both.statusCode).toBe(400);
      expect(both.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    });

    it('PATCH with a photo file replaces the photo and removes the old files', async () => {
      const item = await withPhoto(await solidImage(200, 100, 'jpeg'));
      const oldFiles = [fileOf(item.imageUrl as string), fileOf(item.thumbnailUrl as string)];
      const response = await sendForm(
        'PATCH',
        `/api/items/${item.id}`,
        { title: 'Bread maker, new photo' },
        { bytes: await solidImage(100, 300, 'png'), type: 'image/png' },
      );
      expect(response.statusCode).toBe(200);
      const updated = response.json<Item>();
      expect(updated.title).toBe('Bread maker, new photo');
      expect(updated.imageUrl).not.toBe(item.imageUrl);
      const large = await sharp((await fetchPhoto(updated.imageUrl as string)).rawPayload).metadata();
      expect(large).toMatchObject({ format: 'jpeg', width: 100, height: 300 });
      for (const file of oldFiles) expect(existsSync(file)).toBe(false);
    });

    it('takes a large data URL as bytes, and one whose slashes a serializer escaped', async () => {
      const photo = await noisyJpeg();
      const body = JSON.stringify({ ...listing, imageUrl: toDataUrl(photo) });
      expect(body.length).toBeGreaterThan(64 * 1024);
      for (const payload of [body, body.replaceAll('/', '\\/')]) {
        const response = await call({
          method: 'POST',
          url: '/api/items',
          cookies,
          payload,
          headers: { 'content-type': 'application/json' },
        });
        expect(response.statusCode).toBe(201);
        const large = await sharp(
          (await fetchPhoto(response.json<Item>().imageUrl as string)).rawPayload,
        ).metadata();
        expect(large).toMatchObject({ format: 'jpeg', width: 320, height: 240 });
      }
      const item = (await create(listing)).json<Item>();
      const edited = await patch(item.id, { imageUrl: toDataUrl(photo), title: 'Bread maker, photographed' });
      expect(edited.statusCode).toBe(200);
      expect(edited.json<Item>()).toMatchObject({ title: 'Bread maker, photographed' });
      expect(edited.json<Item>().imageUrl).toMatch(/^\/photos\/[a-f0-9]{32}\.jpg$/);
      // A broken large data URL is refused like a small one.
      const broken = await create({ ...listing, imageUrl: `${toDataUrl(photo).slice(0, -8)}*!*!*!*!` });
      expect(broken.statusCode).toBe(400);
      expect(broken.json()).toMatchObject({ code: 'INVALID_PHOTO' });
    });

    it('still takes the data-URL form of the spec, for both create and edit', async () => {
      const created = await create({ ...listing, imageUrl: toDataUrl(await solidImage(64, 48, 'jpeg')) });
      expect(created.statusCode).toBe(201);
      const item = created.json<Item>();
      expect((await fetchPhoto(item.imageUrl as string)).statusCode).toBe(200);
      const edited = await patch(item.id, {
        imageUrl: toDataUrl(await solidImage(48, 64, 'webp'), 'image/webp'),
      });
      expect(edited.statusCode).toBe(200);
      const large = await sharp(
        (await fetchPhoto(edited.json<Item>().imageUrl as string)).rawPayload,
      ).metadata();
      expect(large).toMatchObject({ format: 'jpeg', width: 48, height: 64 });
    });
  });

  describe('photo queue', () => {
    it('answers 503 PHOTO_QUEUE_FULL with Retry-After while every place is taken, and recovers', async () => {
      const photo = { bytes: await solidImage(40, 40, 'jpeg') };
      const taken: PhotoTicket[] = [];
      try {
        while (!photoQueue.isFull()) taken.push(photoQueue.reserve());
        expect(taken.length).toBe(photoQueue.capacity);

        const files = storedFiles();
        const asForm = await createWithForm(listingFields, photo);
        expect(asForm.statusCode).toBe(503);
        expect(asForm.json()).toMatchObject({ code: 'PHOTO_QUEUE_FULL' });
        const retryAfter = Number(asForm.headers['retry-after']);
        expect(retryAfter).toBe(photoQueue.retryAfterSeconds());
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(asForm.json<{ message: string }>().message).toContain(`try again in ${retryAfter} second`);

        const asDataUrl = await create({ ...listing, imageUrl: toDataUrl(photo.bytes) });
        expect(asDataUrl.statusCode).toBe(503);
        expect(asDataUrl.headers['retry-after']).toBe(String(retryAfter));
        expect(storedFiles()).toEqual(files);

        // Listings without a photo do not wait for photos.
        expect((await create(listing)).statusCode).toBe(201);
      } finally {
        for (const ticket of taken) ticket.release();
      }
      const recovered = await createWithForm(listingFields, photo);
      expect(recovered.statusCode).toBe(201);
      expect(recovered.json<Item>().imageUrl).toMatch(/^\/photos\//);
    });
  });
});
