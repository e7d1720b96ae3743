import type { PhotoStore } from '../storage/photo-store';
import { openPhoto, toPhotoError } from './photo-input';

/** Long side of the stored photo shown on an item's own page. */
export const PHOTO_LARGE_MAX_PX = 1600;
/** Long side of the feed-size photo shown on cards. */
export const PHOTO_FEED_MAX_PX = 600;

/** The served URLs of a stored photo. */
export interface StoredPhoto {
  /** The large version (WebP, at most PHOTO_LARGE_MAX_PX). */
  imageUrl: string;
  /** The feed-size version (WebP, at most PHOTO_FEED_MAX_PX). */
  thumbnailUrl: string;
}

/**
 * Re-encode checked photo bytes (from decodeImageDataUrl) and store them: turned upright from the
 * EXIF orientation, then written as WebP with no metadata at all (sharp writes none unless asked:
 * no EXIF, so no GPS position, no XMP, no ICC profile; colours are converted to sRGB), in two sizes.
 * Photos are never enlarged. Pixels that cannot be decoded become 400 INVALID_PHOTO.
 */
export async function processPhoto(bytes: Buffer, store: PhotoStore): Promise<StoredPhoto> {
  let large: Buffer;
  let feed: Buffer;
  try {
    const upright = openPhoto(bytes).rotate();
    const resized = (maxPx: number) =>
      upright.clone().resize({ width: maxPx, height: maxPx, fit: 'inside', withoutEnlargement: true });
    [large, feed] = await Promise.all([
      resized(PHOTO_LARGE_MAX_PX).webp({ quality: 82 }).toBuffer(),
      resized(PHOTO_FEED_MAX_PX).webp({ quality: 76 }).toBuffer(),
    ]);
  } catch (error) {
    throw toPhotoError(error);
  }
  // Not undone if the second write fails: names are content hashes, so the first file may already
  // belong to another item; an orphan file is harmless, a missing one is not.
  const imageUrl = await store.put(large, 'webp');
  const thumbnailUrl = await store.put(feed, 'webp');
  return { imageUrl, thumbnailUrl };
}
