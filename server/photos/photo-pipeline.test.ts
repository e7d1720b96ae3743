import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { HttpError } from '../errors';
import { localPhotoStore } from '../storage/photo-store';
import { exifHasGps, jpegWithGpsAndOrientation, pngBomb, solidImage } from '../test/images';
import { PHOTO_FEED_MAX_PX, PHOTO_LARGE_MAX_PX, processPhoto } from './photo-pipeline';

describe('processPhoto', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bh-photos-'));
  const store = localPhotoStore(dataDir);
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const stored = (url: string) => readFileSync(path.join(store.root, path.basename(url)));

  it('turns the photo upright and strips every piece of metadata, GPS included', async () => {
    const source = await jpegWithGpsAndOrientation();
    const before = await sharp(source).metadata();
    // The test photo really carries what a phone would leak.
    expect(exifHasGps(before.exif)).toBe(true);
    expect(before).toMatchObject({ orientation: 6, width: 60, height: 20 });
    expect(before.icc).toBeDefined();
    expect(before.xmp).toBeDefined();

    const { imageUrl, thumbnailUrl } = await processPhoto(source, store);
    expect(imageUrl).toMatch(/^\/photos\/[a-f0-9]{32}\.jpg$/);
    expect(thumbnailUrl).toMatch(/^\/photos\/[a-f0-9]{32}\.webp$/);

    for (const url of [imageUrl, thumbnailUrl]) {
      const file = stored(url);
      const after = await sharp(file).metadata();
      expect(after).toMatchObject({ format: url.endsWith('.jpg') ? 'jpeg' : 'webp', width: 20, height: 60 });
      expect(after.exif).toBeUndefined();
      expect(after.icc).toBeUndefined();
      expect(after.xmp).toBeUndefined();
      expect(after.orientation).toBeUndefined();
      expect(file.includes('TestPhone')).toBe(false);
      // Red was on the left; turned clockwise, it is on top.
      const { data } = await sharp(file).extract({ left: 10, top: 5, width: 1, height: 1 }).raw().toBuffer({
        resolveWithObject: true,
      });
      expect(data[0]).toBeGreaterThan(200);
      expect(data[2]).toBeLessThan(60);
    }
  });

  it('stores a large version and a feed-size one, never enlarging', async () => {
    const { imageUrl, thumbnailUrl } = await processPhoto(await solidImage(4000, 3000, 'jpeg'), store);
    expect(await sharp(stored(imageUrl)).metadata()).toMatchObject({
      width: PHOTO_LARGE_MAX_PX,
      height: 1200,
    });
    expect(await sharp(stored(thumbnailUrl)).metadata()).toMatchObject({
      width: PHOTO_FEED_MAX_PX,
      height: 450,
    });

    const small = await processPhoto(await solidImage(300, 500, 'png'), store);
    expect(await sharp(stored(small.imageUrl)).metadata()).toMatchObject({ width: 300, height: 500 });
    expect(await sharp(stored(small.thumbnailUrl)).metadata()).toMatchObject({ width: 300, height: 500 });
  });

  it('keeps transparency on cards, shows it on white in the large JPEG, and turns CMYK and 16-bit photos into ordinary sRGB', async () => {
    const base = (channels: 3 | 4) =>
      sharp({
        create: { width: 90, height: 60, channels, background: { r: 200, g: 30, b: 40, alpha: 0.5 } },
      });
    const transparent = await processPhoto(await base(4).png().toBuffer(), store);
    expect(await sharp(stored(transparent.thumbnailUrl)).metadata()).toMatchObject({
      hasAlpha: true,
      width: 90,
    });
    // Half-transparent red on white: a light red, never the black a dropped alpha channel would give.
    const large = await sharp(stored(transparent.imageUrl)).raw().toBuffer({ resolveWithObject: true });
    expect(large.info).toMatchObject({ channels: 3, width: 90 });
    expect([large.data[0], large.data[1], large.data[2]]).toEqual([
      expect.toSatisfy((red: number) => red > 215),
      expect.toSatisfy((green: number) => green > 130 && green < 150),
      expect.toSatisfy((blue: number) => blue > 135 && blue < 155),
    ]);
    for (const bytes of [
      await base(3).toColourspace('cmyk').jpeg().toBuffer(),
      await base(3).toColourspace('rgb16').png().toBuffer(),
    ]) {
      const { imageUrl } = await processPhoto(bytes, store);
      expect(await sharp(stored(imageUrl)).metadata()).toMatchObject({
        space: 'srgb',
        channels: 3,
        width: 90,
      });
      const { data } = await sharp(stored(imageUrl)).raw().toBuffer({ resolveWithObject: true });
      expect(data[0]).toBeGreaterThan(180);
      expect(data[1]).toBeLessThan(60);
    }
  });

  it('refuses a decompression bomb even when handed the bytes directly', async () => {
    const error = await processPhoto(pngBomb(), store).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ statusCode: 400, code: 'PHOTO_TOO_MANY_PIXELS' });
  });

  it('refuses bytes that do not decode', async () => {
    const error = await processPhoto(Buffer.from('not an image'), store).catch((e: unknown) => e);
    expect(error).toMatchObject({ statusCode: 400, code: 'INVALID_PHOTO' });
  });
});
