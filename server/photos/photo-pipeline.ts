import type { JpegOptions, WebpOptions } from 'sharp';
import type { PhotoStore } from '../storage/photo-store';
import { openPhoto, toPhotoError } from './photo-input';
import { type PhotoScreener, SCREEN_PX, type Screening } from './screening/photo-screener';
import { loadSharp } from './sharp';

/** Long side of the stored photo shown on an item's own page. */
export const PHOTO_LARGE_MAX_PX = 1600;
/** Long side of the feed-size photo shown on cards. */
export const PHOTO_FEED_MAX_PX = 600;

/**
 * The feed-size WebP: effort 2 at quality 76. Effort 0 (ADR 013) encoded a 600 px photo in about
 * 11 ms against 19 ms here, but its files were a quarter larger (31 against 24 KB on a detailed
 * photo), and the first card's photo is the feed's largest paint on a phone (issue 17, ADR 033);
 * effort 4 saved only 2 KB more for 29 ms.
 */
const FEED_WEBP_EFFORT = 2;
/**
 * The large size is a baseline JPEG: encoding it takes about 18 ms where a 1600 px WebP took 50 to
 * 60 ms on one thread, which brought one 12-megapixel photo under 100 ms of server time (issue 12);
 * the files are 20 to 50 % larger, and only an item's own page loads them (ADR 013).
 */
const LARGE_JPEG: JpegOptions = { quality: 85, mozjpeg: false, chromaSubsampling: '4:2:0' };
const FEED_WEBP: WebpOptions = { quality: 76, effort: FEED_WEBP_EFFORT };

/** The served URLs of a stored photo. */
export interface StoredPhoto {
  /** The large version (JPEG, at most PHOTO_LARGE_MAX_PX). */
  imageUrl: string;
  /** The feed-size version (WebP, at most PHOTO_FEED_MAX_PX). */
  thumbnailUrl: string;
  /** What the explicit-content screening made of it (ADR 027); null when screening is off. */
  screening: Screening | null;
}

/** The two files of a photo (large JPEG, feed-size WebP), before they are stored. */
export interface EncodedPhoto {
  large: Buffer;
  feed: Buffer;
  /** The photo squeezed to SCREEN_PX x SCREEN_PX, RGB on white: the screening model's input. */
  screenPixels: Buffer;
}

/** Mitchell resamples about 15 ms faster than the default Lanczos here, with no visible difference when shrinking. */
const inside = (maxPx: number) =>
  ({ width: maxPx, height: maxPx, fit: 'inside', withoutEnlargement: true, kernel: 'mitchell' }) as const;

/**
 * Re-encode checked photo bytes (from checkPhotoBytes) as the two sizes (a JPEG and a WebP). The photo is decoded
 * once, straight to at most PHOTO_LARGE_MAX_PX (JPEG shrinks while decoding), turned upright from
 * the EXIF orientation and converted to sRGB; both sizes are encoded from those pixels, on two
 * threads. The files carry no metadata at all (sharp writes none unless asked: no EXIF, so no GPS
 * position, no XMP, no ICC profile). Photos are never enlarged. Pixels that cannot be decoded
 * become 400 INVALID_PHOTO, too many of them 400 PHOTO_TOO_MANY_PIXELS.
 */
export async function encodePhoto(bytes: Buffer): Promise<EncodedPhoto> {
  try {
    const { data, info } = await openPhoto(bytes)
      .rotate()
      .resize(inside(PHOTO_LARGE_MAX_PX))
      .raw()
      .toBuffer({ resolveWithObject: true });
    const pixels = () =>
      loadSharp()(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
    const [large, feed, screenPixels] = await Promise.all([
      // JPEG has no transparency: a transparent PNG shows on white, as the pages show it.
      pixels().flatten({ background: '#ffffff' }).jpeg(LARGE_JPEG).toBuffer(),
      pixels().resize(inside(PHOTO_FEED_MAX_PX)).webp(FEED_WEBP).toBuffer(),
      pixels()
        .flatten({ background: '#ffffff' })
        .toColourspace('srgb')
        .resize(SCREEN_PX, SCREEN_PX, { fit: 'fill', kernel: 'mitchell' })
        .raw()
        .toBuffer(),
    ]);
    return { large, feed, screenPixels };
  } catch (error) {
    throw toPhotoError(error);
  }
}

/** How a photo is screened for explicit content (ADR 027). */
export interface ScreeningStep {
  screener: PhotoScreener;
  /**
   * Looks at the result before anything is stored, and throws to refuse the photo (a profile photo
   * the screening finds likely explicit is never stored).
   */
  check?: (screening: Screening) => void | Promise<void>;
}

/**
 * Re-encode checked photo bytes (encodePhoto), screen them when asked, and store both sizes. The
 * screening runs in its worker thread (ADR 027), within the caller's place in the photo queue.
 */
export async function processPhoto(
  bytes: Buffer,
  store: PhotoStore,
  screening: ScreeningStep | null = null,
): Promise<StoredPhoto> {
  const { large, feed, screenPixels } = await encodePhoto(bytes);
  const screened = screening ? await screening.screener.screen(screenPixels) : null;
  if (screened) await screening?.check?.(screened);
  // Not undone if the second write fails: names are content hashes, so the first file may already
  // belong to another item; an orphan file is harmless, a missing one is not.
  const imageUrl = await store.put(large, 'jpg');
  const thumbnailUrl = await store.put(feed, 'webp');
  return { imageUrl, thumbnailUrl, screening: screened };
}
