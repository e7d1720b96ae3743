import type { Metadata, Sharp } from 'sharp';
import { PHOTO_MAX_BYTES } from '#common/constants.ts';
import { PHOTO_ERROR_CODES } from '#common/schemas/listings.ts';
import { badRequest, HttpError } from '../errors';
import { loadSharp } from './sharp';

/**
 * The most pixels the server decodes. Enough for a 48-megapixel phone photo (8064 x 6048); a
 * "decompression bomb" (a small file declaring a huge canvas) is refused from its header.
 */
export const PHOTO_MAX_PIXELS = 50_000_000;

/** The formats the server reads; anything else is refused before decoding. */
export type PhotoFormat = 'jpeg' | 'png' | 'webp' | 'heic' | 'avif';

/** A photo that passed checkPhotoBytes: real bytes of a readable, bounded image. */
export interface DecodedPhoto {
  /** The image file's bytes, as sent (still with any metadata: never store or serve these). */
  bytes: Buffer;
  format: PhotoFormat;
  /** Pixel size as stored in the file, before EXIF orientation. */
  width: number;
  height: number;
}

const NOT_A_PHOTO = 'That file is not a photo we can read. Use a JPEG, PNG or WebP image.';

/** 400 INVALID_PHOTO, with the usual sentence unless told otherwise. */
export const invalidPhoto = (message = NOT_A_PHOTO) => badRequest(message, PHOTO_ERROR_CODES.invalid);
/** 413 PHOTO_TOO_LARGE: more than PHOTO_MAX_BYTES of image, however it was sent. */
export const photoTooLarge = () =>
  new HttpError(
    413,
    PHOTO_ERROR_CODES.tooLarge,
    `That photo is too large. Use a photo under ${Math.round(PHOTO_MAX_BYTES / (1024 * 1024))} MB.`,
  );
const tooManyPixels = () =>
  badRequest(
    `That photo has too many pixels to process (more than ${PHOTO_MAX_PIXELS / 1_000_000} megapixels). Use a smaller photo.`,
    PHOTO_ERROR_CODES.tooManyPixels,
  );

/** `data:image/<type>[;param=value]*;base64,` and nothing else before the payload. */
const DATA_URL_HEADER =
  /^data:(image\/[a-z0-9.+-]{1,40})((?:;[a-z0-9-]{1,40}=[a-z0-9.+-]{1,60}){0,4});base64,/i;

/**
 * The text of a data URL: a JS string (from a JSON body parsed as usual), or its ASCII bytes (a large
 * JSON body whose data URL photoJsonParser kept out of JS strings).
 */
export type DataUrlText = string | Buffer;

function textSlice(text: DataUrlText, start: number, end: number): string {
  return typeof text === 'string' ? text.slice(start, end) : text.toString('latin1', start, end);
}

/** How many bytes the padded base64 from `start` decodes to, without decoding it. */
function decodedLength(text: DataUrlText, start: number): number {
  const tail = textSlice(text, Math.max(start, text.length - 2), text.length);
  const padding = tail === '==' ? 2 : tail.endsWith('=') ? 1 : 0;
  return Math.floor(((text.length - start) * 3) / 4) - padding;
}

/** Base64 is decoded this many characters at a time (a multiple of 4), about a millisecond each. */
const DECODE_SLICE_CHARS = 1024 * 1024;

/**
 * Decode `text` from `start` as standard base64 as FileReader and canvas.toDataURL write it (padded,
 * no whitespace), or null for anything else. Node's decoder skips characters outside the alphabet
 * and stops at inner padding, so those show as missing bytes; it also reads base64url's `-` and `_`,
 * refused here. A slice at a time, yielding to the event loop in between: a regular expression over
 * a 13 MB data URL held the event loop for 70 to 140 ms, one Buffer.from for 7 to 10 ms.
 */
async function decodeStrictBase64(text: DataUrlText, start: number): Promise<Buffer | null> {
  const length = text.length - start;
  if (length <= 0 || length % 4 !== 0) return null;
  if (text.indexOf('-', start) !== -1 || text.indexOf('_', start) !== -1) return null;
  const expected = decodedLength(text, start);
  const bytes = Buffer.allocUnsafe(expected);
  let written = 0;
  for (let offset = start; offset < text.length; offset += DECODE_SLICE_CHARS) {
    if (offset > start) await new Promise((resolve) => setImmediate(resolve));
    const slice = textSlice(text, offset, Math.min(text.length, offset + DECODE_SLICE_CHARS));
    written += bytes.write(slice, written, 'base64');
  }
  return written === expected ? bytes : null;
}

/** HEIC is patent-encumbered: sharp's prebuilt binaries read AVIF but not HEVC-coded HEIF. */
function heifSuffixes(): readonly string[] {
  const heif = loadSharp().format.heif as { input?: { buffer?: boolean; fileSuffix?: string[] } } | undefined;
  return heif?.input?.buffer ? (heif.input.fileSuffix ?? []) : [];
}

let heifReadable: { heic: boolean; avif: boolean } | undefined;

/** Whether this build of sharp reads HEIC and AVIF (asked once, at the first photo). */
function heifSupport(): { heic: boolean; avif: boolean } {
  if (!heifReadable) {
    const suffixes = heifSuffixes();
    heifReadable = {
      heic: suffixes.some((suffix) => suffix === '.heic' || suffix === '.heif'),
      avif: suffixes.includes('.avif'),
    };
  }
  return heifReadable;
}

/** The formats this server accepts (HEIC and AVIF only when this build of sharp reads them). */
export function supportedPhotoFormats(): PhotoFormat[] {
  return [
    'jpeg',
    'png',
    'webp',
    ...(heifSupport().heic ? (['heic'] as const) : []),
    ...(heifSupport().avif ? (['avif'] as const) : []),
  ];
}

const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs']);
const AVIF_BRANDS = new Set(['avif', 'avis']);
const GENERIC_HEIF_BRANDS = new Set(['mif1', 'msf1']);

/** The ISO-BMFF brands of an `ftyp` box: the major brand, then the compatible ones. */
function ftypBrands(bytes: Buffer): string[] {
  if (bytes.length < 16 || bytes.toString('latin1', 4, 8) !== 'ftyp') return [];
  const boxSize = Math.min(bytes.readUInt32BE(0), bytes.length, 256);
  const brands = [bytes.toString('latin1', 8, 12)];
  for (let offset = 16; offset + 4 <= boxSize; offset += 4)
    brands.push(bytes.toString('latin1', offset, offset + 4));
  return brands;
}

/** The image type the bytes really are, from their magic numbers; null for anything else. */
export function sniffImageType(bytes: Buffer): PhotoFormat | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'png';
  if (
    bytes.length >= 12 &&
    bytes.toString('latin1', 0, 4) === 'RIFF' &&
    bytes.toString('latin1', 8, 12) === 'WEBP'
  )
    return 'webp';
  const brands = ftypBrands(bytes);
  const [major] = brands;
  if (!major) return null;
  if (AVIF_BRANDS.has(major)) return 'avif';
  if (HEIC_BRANDS.has(major)) return 'heic';
  if (GENERIC_HEIF_BRANDS.has(major)) {
    if (brands.some((brand) => AVIF_BRANDS.has(brand))) return 'avif';
    if (brands.some((brand) => HEIC_BRANDS.has(brand))) return 'heic';
  }
  return null;
}

/** What sharp's metadata() calls each format. */
const SHARP_FORMAT: Record<PhotoFormat, string> = {
  jpeg: 'jpeg',
  png: 'png',
  webp: 'webp',
  heic: 'heif',
  avif: 'heif',
};

/** Options for every decode of an uploaded photo: bounded pixels, damaged files refused. */
const SAFE_INPUT = { limitInputPixels: PHOTO_MAX_PIXELS, failOn: 'error' } as const;

/** A sharp pipeline over checked photo bytes, with the pixel limit; pair with toPhotoError. */
export function openPhoto(bytes: Buffer): Sharp {
  return loadSharp()(bytes, SAFE_INPUT);
}

/** Turn a sharp failure on an uploaded photo into a clear 4xx (HttpErrors pass through). */
export function toPhotoError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  const message = error instanceof Error ? error.message : '';
  if (/pixel limit/i.test(message)) return tooManyPixels();
  return invalidPhoto();
}

/**
 * Check a photo sent as a data URL (a string, or its bytes: DataUrlText) and return its bytes. In
 * order, so a hostile upload costs little: the size is judged from the base64 length before anything
 * is decoded (413 PHOTO_TOO_LARGE over PHOTO_MAX_BYTES); the data URL must be a base64
 * `data:image/...` URL (strict, padded base64); then the bytes are checked by checkPhotoBytes.
 * Anything else: 400 INVALID_PHOTO.
 */
export async function decodeImageDataUrl(dataUrl: DataUrlText): Promise<DecodedPhoto> {
  const header = DATA_URL_HEADER.exec(textSlice(dataUrl, 0, 256));
  if (!header) throw invalidPhoto();
  const start = header[0].length;
  if (decodedLength(dataUrl, start) > PHOTO_MAX_BYTES) throw photoTooLarge();
  const bytes = await decodeStrictBase64(dataUrl, start);
  if (!bytes) throw invalidPhoto();
  return checkPhotoBytes(bytes);
}

/**
 * Check the bytes of an uploaded photo (a multipart file, or a decoded data URL): at most
 * PHOTO_MAX_BYTES (413 PHOTO_TOO_LARGE); the magic numbers must say JPEG, PNG, WebP, or HEIC/AVIF
 * where sharp reads them (any declared type is ignored); the header must parse and declare at most
 * PHOTO_MAX_PIXELS (400 PHOTO_TOO_MANY_PIXELS). Anything else: 400 INVALID_PHOTO. Only the header is
 * read (on libuv's thread pool); pixels are decoded later, through openPhoto, under the same limit.
 */
export async function checkPhotoBytes(bytes: Buffer): Promise<DecodedPhoto> {
  if (bytes.length > PHOTO_MAX_BYTES) throw photoTooLarge();
  const format = sniffImageType(bytes);
  if (!format) throw invalidPhoto();
  if ((format === 'heic' && !heifSupport().heic) || (format === 'avif' && !heifSupport().avif)) {
    throw invalidPhoto(
      'This server cannot read HEIC photos. Use a JPEG, PNG or WebP image (most phones can share photos as JPEG).',
    );
  }

  let metadata: Metadata;
  try {
    // Reads the header only; the pixel limit is checked below with a clearer message.
    metadata = await loadSharp()(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw invalidPhoto();
  }
  if (metadata.format !== SHARP_FORMAT[format] || !metadata.width || !metadata.height) throw invalidPhoto();
  if (metadata.width * metadata.height > PHOTO_MAX_PIXELS) throw tooManyPixels();
  return { bytes, format, width: metadata.width, height: metadata.height };
}
