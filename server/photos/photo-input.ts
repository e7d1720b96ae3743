import sharp, { type Metadata, type Sharp } from 'sharp';
import { PHOTO_MAX_BYTES } from '../../common/constants';
import { PHOTO_ERROR_CODES } from '../../common/schemas/listings';
import { badRequest, HttpError } from '../errors';

/**
 * The most pixels the server decodes. Enough for a 48-megapixel phone photo (8064 x 6048); a
 * "decompression bomb" (a small file declaring a huge canvas) is refused from its header.
 */
export const PHOTO_MAX_PIXELS = 50_000_000;

/** The formats the server reads; anything else is refused before decoding. */
export type PhotoFormat = 'jpeg' | 'png' | 'webp' | 'heic' | 'avif';

/** A photo that passed the checks of decodeImageDataUrl: real bytes of a readable, bounded image. */
export interface DecodedPhoto {
  /** The image file's bytes, as sent (still with any metadata: never store or serve these). */
  bytes: Buffer;
  format: PhotoFormat;
  /** Pixel size as stored in the file, before EXIF orientation. */
  width: number;
  height: number;
}

const NOT_A_PHOTO = 'That file is not a photo we can read. Use a JPEG, PNG or WebP image.';

const invalidPhoto = (message = NOT_A_PHOTO) => badRequest(message, PHOTO_ERROR_CODES.invalid);
const photoTooLarge = () =>
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
/** Standard base64 as FileReader and canvas.toDataURL write it: padded, no whitespace. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** How many bytes a padded base64 string decodes to, without decoding it. */
function decodedLength(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}

/** HEIC is patent-encumbered: sharp's prebuilt binaries read AVIF but not HEVC-coded HEIF. */
function heifSuffixes(): readonly string[] {
  const heif = sharp.format.heif as { input?: { buffer?: boolean; fileSuffix?: string[] } } | undefined;
  return heif?.input?.buffer ? (heif.input.fileSuffix ?? []) : [];
}
const HEIC_SUPPORTED = heifSuffixes().some((suffix) => suffix === '.heic' || suffix === '.heif');
const AVIF_SUPPORTED = heifSuffixes().includes('.avif');

/** The formats this server accepts (HEIC and AVIF only when this build of sharp reads them). */
export function supportedPhotoFormats(): PhotoFormat[] {
  return [
    'jpeg',
    'png',
    'webp',
    ...(HEIC_SUPPORTED ? (['heic'] as const) : []),
    ...(AVIF_SUPPORTED ? (['avif'] as const) : []),
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
  return sharp(bytes, SAFE_INPUT);
}

/** Turn a sharp failure on an uploaded photo into a clear 4xx (HttpErrors pass through). */
export function toPhotoError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  const message = error instanceof Error ? error.message : '';
  if (/pixel limit/i.test(message)) return tooManyPixels();
  return invalidPhoto();
}

/**
 * Check a photo sent as a data URL and return its bytes. In order, so a hostile upload costs little:
 * the size is judged from the base64 length before anything is decoded (413 PHOTO_TOO_LARGE over
 * PHOTO_MAX_BYTES); the data URL must be a base64 `data:image/...` URL; the bytes' magic numbers must
 * say JPEG, PNG, WebP, or HEIC/AVIF where sharp reads them (the declared type is ignored); the header
 * must parse and declare at most PHOTO_MAX_PIXELS (400 PHOTO_TOO_MANY_PIXELS). Anything else: 400
 * INVALID_PHOTO. Pixels are decoded later, through openPhoto, under the same limit.
 */
export async function decodeImageDataUrl(dataUrl: string): Promise<DecodedPhoto> {
  const header = DATA_URL_HEADER.exec(dataUrl.slice(0, 256));
  if (!header) throw invalidPhoto();
  const payload = dataUrl.slice(header[0].length);
  if (decodedLength(payload) > PHOTO_MAX_BYTES) throw photoTooLarge();
  if (payload.length === 0 || payload.length % 4 !== 0 || !BASE64.test(payload)) throw invalidPhoto();

  const bytes = Buffer.from(payload, 'base64');
  const format = sniffImageType(bytes);
  if (!format) throw invalidPhoto();
  if ((format === 'heic' && !HEIC_SUPPORTED) || (format === 'avif' && !AVIF_SUPPORTED)) {
    throw invalidPhoto(
      'This server cannot read HEIC photos. Use a JPEG, PNG or WebP image (most phones can share photos as JPEG).',
    );
  }

  let metadata: Metadata;
  try {
    // Reads the header only; the pixel limit is checked below with a clearer message.
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw invalidPhoto();
  }
  if (metadata.format !== SHARP_FORMAT[format] || !metadata.width || !metadata.height) throw invalidPhoto();
  if (metadata.width * metadata.height > PHOTO_MAX_PIXELS) throw tooManyPixels();
  return { bytes, format, width: metadata.width, height: metadata.height };
}
