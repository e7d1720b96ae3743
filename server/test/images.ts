import { readFile } from 'node:fs/promises';
import { crc32, deflateSync } from 'node:zlib';
import sharp, { type Sharp } from 'sharp';

/** A data URL of these bytes, claiming `mime` (which need not be true). */
export function toDataUrl(bytes: Buffer, mime = 'image/jpeg'): string {
  return `data:${mime};base64,${bytes.toString('base64')}`;
}

/**
 * A 60 x 20 picture, red on its left half and blue on its right, stored as pixels. With EXIF
 * orientation 6 a viewer turns it 90 degrees clockwise: upright it is 20 x 60, red on top.
 */
function halfRedHalfBlue(): Sharp {
  const width = 60;
  const height = 20;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const offset = (y * width + x) * 3;
      if (x < width / 2) pixels[offset] = 255;
      else pixels[offset + 2] = 255;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } });
}

/**
 * A JPEG a phone might send: GPS position and camera make in its EXIF, orientation 6 (taken
 * sideways), a Display P3 ICC profile and an XMP packet.
 */
export function jpegWithGpsAndOrientation(): Promise<Buffer> {
  return halfRedHalfBlue()
    .jpeg({ quality: 90 })
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: 'TestPhone', Model: 'Model X' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '45/1 30/1 0/1',
        GPSLongitudeRef: 'E',
        GPSLongitude: '9/1 10/1 0/1',
      },
    })
    .withIccProfile('p3')
    .withXmp(
      '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
        '<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>Someone</dc:creator>' +
        '</rdf:Description></rdf:RDF></x:xmpmeta>',
    )
    .toBuffer();
}

/** A plain picture of the given size and format. */
export function solidImage(
  width: number,
  height: number,
  format: 'jpeg' | 'png' | 'webp' | 'avif' = 'png',
): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 90 } } })
    .toFormat(format)
    .toBuffer();
}

/** True when TIFF-structured EXIF data (as sharp's metadata().exif gives it) has a GPS IFD pointer. */
export function exifHasGps(exif: Buffer | undefined): boolean {
  if (!exif) return false;
  const start = exif.indexOf('Exif\0\0') === 0 ? 6 : 0;
  const tiff = exif.subarray(start);
  const little = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (offset: number) => (little ? tiff.readUInt16LE(offset) : tiff.readUInt16BE(offset));
  const u32 = (offset: number) => (little ? tiff.readUInt32LE(offset) : tiff.readUInt32BE(offset));
  const ifd0 = u32(4);
  const entries = u16(ifd0);
  for (let i = 0; i < entries; i++) {
    if (u16(ifd0 + 2 + i * 12) === 0x8825) return true; // GPSInfo
  }
  return false;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A decompression bomb: a valid black-and-white PNG of `size` x `size` pixels (30000: 900 megapixels,
 * gigabytes once decoded) that compresses to about 100 KB.
 */
export function pngBomb(size = 30_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const rows = Buffer.alloc((1 + Math.ceil(size / 8)) * size); // filter byte + packed pixels, all zero
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A 224 px square of coloured noise that the photo screening's model rates almost certainly
 * explicit (an adversarial example, made by scripts/make-screening-fixture.ts): it shows nothing,
 * so the tests can send a "likely explicit" photo through the real model without holding one.
 */
export function flaggedPhoto(): Promise<Buffer> {
  return readFile(new URL('../photos/screening/fixtures/flagged-noise.png', import.meta.url));
}
