import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { PHOTO_MAX_BYTES } from '#common/constants.ts';
import { HttpError } from '../errors';
import { pngBomb, solidImage, toDataUrl } from '../test/images';
import { decodeImageDataUrl, sniffImageType, supportedPhotoFormats } from './photo-input';

/** The status and code decodeImageDataUrl refuses `dataUrl` with. */
async function refusal(dataUrl: string) {
  const error = await decodeImageDataUrl(dataUrl).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpError);
  const { statusCode, code, message } = error as HttpError;
  return { statusCode, code, message };
}

const NOT_A_PHOTO = {
  statusCode: 400,
  code: 'INVALID_PHOTO',
  message: 'That file is not a photo we can read. Use a JPEG, PNG or WebP image.',
};

/** An ISO-BMFF file start: an ftyp box with these brands. */
function ftyp(major: string, ...compatible: string[]): Buffer {
  const size = 16 + compatible.length * 4;
  const box = Buffer.alloc(size + 32);
  box.writeUInt32BE(size, 0);
  box.write(`ftyp${major}`, 4, 'latin1');
  compatible.forEach((brand, i) => {
    box.write(brand, 16 + i * 4, 'latin1');
  });
  return box;
}

describe('sniffImageType', () => {
  it('recognises JPEG, PNG, WebP and AVIF from their bytes', async () => {
    expect(sniffImageType(await solidImage(8, 8, 'jpeg'))).toBe('jpeg');
    expect(sniffImageType(await solidImage(8, 8, 'png'))).toBe('png');
    expect(sniffImageType(await solidImage(8, 8, 'webp'))).toBe('webp');
    expect(sniffImageType(await solidImage(8, 8, 'avif'))).toBe('avif');
  });

  it('tells HEIC from AVIF by the ftyp brands', () => {
    expect(sniffImageType(ftyp('heic', 'mif1', 'heic'))).toBe('heic');
    expect(sniffImageType(ftyp('mif1', 'mif1', 'heic'))).toBe('heic');
    expect(sniffImageType(ftyp('mif1', 'mif1', 'avif'))).toBe('avif');
    expect(sniffImageType(ftyp('isom', 'mp41'))).toBeNull(); // an MP4 video
  });

  it('knows nothing else', () => {
    expect(sniffImageType(Buffer.from('GIF89a........'))).toBeNull();
    expect(sniffImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffImageType(Buffer.from('%PDF-1.7'))).toBeNull();
    expect(sniffImageType(Buffer.alloc(0))).toBeNull();
  });
});

describe('decodeImageDataUrl', () => {
  it('returns the bytes, real type and size of a photo, whatever type the data URL claims', async () => {
    const png = await solidImage(30, 20, 'png');
    const photo = await decodeImageDataUrl(toDataUrl(png, 'image/jpeg'));
    expect(photo).toEqual({ bytes: png, format: 'png', width: 30, height: 20 });
    expect((await decodeImageDataUrl(toDataUrl(await solidImage(5, 6, 'webp'), 'image/webp'))).format).toBe(
      'webp',
    );
  });

  it('accepts data URL parameters and upper-case type names', async () => {
    const jpeg = await solidImage(4, 4, 'jpeg');
    const url = `data:IMAGE/JPEG;name=photo.jpg;base64,${jpeg.toString('base64')}`;
    expect((await decodeImageDataUrl(url)).format).toBe('jpeg');
  });

  it('refuses text that claims to be a JPEG', async () => {
    expect(await refusal(toDataUrl(Buffer.from('hello, I am not a photo at all'), 'image/jpeg'))).toEqual(
      NOT_A_PHOTO,
    );
  });

  it.each([
    ['not a data URL', 'https://example.test/photo.jpg'],
    ['not base64', 'data:image/png,%89PNG'],
    ['not an image type', 'data:text/plain;base64,aGVsbG8='],
    [
      'an SVG (scripts, external references)',
      toDataUrl(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml'),
    ],
    ['a GIF', 'data:image/gif;base64,R0lGODlhAQABAAAAACwAAAAAAQABAAA='],
    ['broken base64', 'data:image/png;base64,iVBORw0KGgo*AAAA'],
    ['base64 with whitespace', 'data:image/png;base64,iVBO Rw0K'],
    ['unpadded base64', 'data:image/png;base64,iVBORw0KGg'],
    ['whitespace in a payload of whole quads', 'data:image/png;base64,iVBO Rw0KGg='],
    ['base64url characters', 'data:image/png;base64,iVBORw0KGgo-AAA_'],
    ['padding inside the payload', 'data:image/png;base64,iVBO==Rw0KGg'],
    ['an empty payload', 'data:image/png;base64,'],
  ])('refuses %s with 400 INVALID_PHOTO', async (_label, dataUrl) => {
    expect(await refusal(dataUrl)).toMatchObject({ statusCode: 400, code: 'INVALID_PHOTO' });
  });

  it('refuses a damaged file that starts like a photo', async () => {
    const png = await solidImage(30, 20, 'png');
    expect(await refusal(toDataUrl(png.subarray(0, 20), 'image/png'))).toEqual(NOT_A_PHOTO);
  });

  it('refuses HEIC clearly where this build of sharp cannot read it', async () => {
    if (supportedPhotoFormats().includes('heic')) return;
    const result = await refusal(toDataUrl(ftyp('heic', 'mif1', 'heic'), 'image/heic'));
    expect(result).toMatchObject({ statusCode: 400, code: 'INVALID_PHOTO' });
    expect(result.message).toMatch(/HEIC/);
  });

  it('judges the size from the base64 length, before decoding: 413 PHOTO_TOO_LARGE', async () => {
    // Not even an image: the size check comes first, so nothing of it is decoded.
    const justOver = 'A'.repeat(Math.ceil(((PHOTO_MAX_BYTES + 3) * 4) / 3 / 4) * 4);
    expect(await refusal(`data:image/jpeg;base64,${justOver}`)).toEqual({
      statusCode: 413,
      code: 'PHOTO_TOO_LARGE',
      message: 'That photo is too large. Use a photo under 10 MB.',
    });
  });

  it('refuses a decompression bomb from its header: 400 PHOTO_TOO_MANY_PIXELS', async () => {
    const bomb = pngBomb();
    expect(bomb.length).toBeLessThan(200_000);
    const started = Date.now();
    expect(await refusal(toDataUrl(bomb, 'image/png'))).toMatchObject({
      statusCode: 400,
      code: 'PHOTO_TOO_MANY_PIXELS',
    });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('accepts a photo of 48 megapixels (a phone camera) by its header', async () => {
    const header = await sharp({ create: { width: 8064, height: 6048, channels: 3, background: '#888' } })
      .jpeg({ quality: 10 })
      .toBuffer();
    const photo = await decodeImageDataUrl(toDataUrl(header));
    expect(photo).toMatchObject({ format: 'jpeg', width: 8064, height: 6048 });
  });
});
