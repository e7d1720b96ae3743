import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStorageUrl } from '../config';
import { HttpError } from '../errors';
import { startTestS3, type TestS3, unreachableStorageUrl } from '../test/s3';
import { openPhotoStore } from './open-photo-store';
import { isPhotoName, localPhotoStore, type PhotoStore, photoNameFor } from './photo-store';
import { s3PhotoStore } from './s3-photo-store';

const photo = (text: string) => Buffer.from(`not really a photo: ${text}`);

/** Names no store may look up: encoded paths, "..", control characters, other formats, other lengths. */
const HOSTILE_NAMES = [
  '',
  '..',
  '../session-secret',
  '..%2Fsession-secret',
  `${'a'.repeat(32)}.webp/../x`,
  `${'a'.repeat(32)}.webp\u0000`,
  `${'a'.repeat(32)}\r\n.webp`,
  `${'A'.repeat(32)}.webp`,
  `${'a'.repeat(31)}.webp`,
  `${'a'.repeat(32)}.svg`,
  `${'a'.repeat(32)}.webp?x=1`,
  `/${'a'.repeat(32)}.webp`,
];

interface Subject {
  store: PhotoStore;
  /** Put something that is not a photo into the store behind the interface's back. */
  putForeign: (name: string) => Promise<void>;
}

const stores: Array<[string, () => Promise<Subject & { close: () => Promise<void> }>]> = [
  [
    'the local directory',
    async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bh-store-'));
      const store = localPhotoStore(dataDir);
      return {
        store,
        putForeign: async (name) => writeFileSync(path.join(store.root, name), 'foreign'),
        close: async () => rmSync(dataDir, { recursive: true, force: true }),
      };
    },
  ],
  [
    'an S3 bucket',
    async () => {
      const s3 = await startTestS3();
      const store = s3PhotoStore(parseStorageUrl(s3.url));
      return {
        store,
        putForeign: async (name) => {
          await store.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: name, Body: 'foreign' }));
        },
        close: () => s3.close(),
      };
    },
  ],
];

describe.each(stores)('the photo store in %s', (_kind, open) => {
  let subject: Subject & { close: () => Promise<void> };
  beforeAll(async () => {
    subject = await open();
  });
  afterAll(() => subject.close());

  it('puts under the content name, gets the same bytes back, lists and removes', async () => {
    const { store } = subject;
    const data = photo('round trip');
    const url = await store.put(data, 'webp');
    const name = photoNameFor(data, 'webp');
    expect(url).toBe(`/photos/${name}`);
    expect(isPhotoName(name)).toBe(true);
    // The same bytes again: the same name, still one photo.
    expect(await store.put(data, 'webp')).toBe(url);
    const jpg = await store.put(photo('second'), 'jpg');

    const got = await store.get(name);
    expect(got).toMatchObject({ bytes: data.length, contentType: 'image/webp' });
    expect(await buffer(got?.body as NodeJS.ReadableStream)).toEqual(data);
    const second = await store.get(jpg.slice('/photos/'.length));
    expect(second?.contentType).toBe('image/jpeg');
    second?.body.destroy();
    expect(await store.list()).toEqual([name, jpg.slice('/photos/'.length)].sort());

    await store.remove(url);
    expect(await store.get(name)).toBeNull();
    expect(await store.list()).toEqual([jpg.slice('/photos/'.length)]);
    // Removing twice, or an unknown URL, is no error.
    await store.remove(url);
    await store.remove('/photos/../../session-secret');
    await store.remove('https://elsewhere.example/x.webp');
    await store.remove(jpg);
    expect(await store.list()).toEqual([]);
  });

  it('answers null for an unknown photo and for every hostile name, without looking', async () => {
    expect(await subject.store.get(`${'0'.repeat(32)}.webp`)).toBeNull();
    for (const name of HOSTILE_NAMES) expect(await subject.store.get(name), JSON.stringify(name)).toBeNull();
  });

  it('lists photos only: anything else in the store is left out', async () => {
    await subject.putForeign('notes.txt');
    await subject.putForeign(`${'a'.repeat(32)}.svg`);
    const url = await subject.store.put(photo('listed'), 'png');
    expect(await subject.store.list()).toEqual([url.slice('/photos/'.length)]);
  });
});

describe('an S3 store that cannot be reached or used', () => {
  let s3: TestS3;
  beforeAll(async () => {
    s3 = await startTestS3();
  });
  afterAll(() => s3.close());

  /** The error a call ends with: the 503 PHOTO_STORAGE_UNAVAILABLE, whatever went wrong below. */
  const failure = async (call: Promise<unknown>) => {
    const error = await call.then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ statusCode: 503, code: 'PHOTO_STORAGE_UNAVAILABLE' });
    return error as HttpError;
  };

  it('refused connections are a 503 for put, get, list and remove', async () => {
    const store = await openPhotoStore({
      dataDir: '/nonexistent',
      photoStorage: parseStorageUrl(await unreachableStorageUrl()),
    });
    const error = await failure(store.put(photo('nowhere'), 'webp'));
    expect(String((error.cause as Error).message)).toMatch(/storing a photo in the S3 bucket photos at http/);
    await failure(store.get(`${'b'.repeat(32)}.webp`));
    await failure(store.list());
    await failure(store.remove(`/photos/${'b'.repeat(32)}.webp`));
  });

  it('a missing bucket or an unknown access key is a 503 too, not a 500 or a missing photo', async () => {
    const noBucket = s3PhotoStore(parseStorageUrl(s3.urlFor('no-such-bucket')));
    await failure(noBucket.put(photo('no bucket'), 'webp'));
    await failure(noBucket.list());
    const unknownKey = s3PhotoStore(parseStorageUrl(s3.url.replace('//S3RVER:', '//nobody:')));
    await failure(unknownKey.put(photo('unknown key'), 'webp'));
    await failure(unknownKey.get(`${'c'.repeat(32)}.webp`));
  });
});
