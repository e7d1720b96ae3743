import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { photoStorageUnavailable } from '../errors';

/** The formats the photo pipeline stores. */
export type PhotoExtension = 'webp' | 'jpg' | 'png';

/** A stored photo, ready to be sent: its bytes as a stream, their number and their media type. */
export interface PhotoFile {
  body: Readable;
  bytes: number;
  contentType: string;
}

/**
 * Where photos live (ADR 008, 042): a directory under DATA_DIR, or a bucket of an S3-compatible
 * store (STORAGE_URL). Photos are named by their content, so a name is a URL path segment that means
 * the same bytes forever, whatever the store; callers never know which store they have.
 */
export interface PhotoStore {
  /** Where the photos are, for people (logs, the backup's report); never holds a secret. */
  readonly description: string;
  /** Store `data` under a content-derived name and return the URL it is served at. */
  put(data: Buffer, extension: PhotoExtension): Promise<string>;
  /** Remove the photo behind a URL returned by put(); unknown URLs are ignored. */
  remove(url: string): Promise<void>;
  /** The photo called `name` (the last part of its URL), or null when there is none or it is no photo name. */
  get(name: string): Promise<PhotoFile | null>;
  /** The name of every stored photo (anything else in the store is left out). */
  list(): Promise<string[]>;
  /**
   * Readiness (ADR 042, 053): resolves when the store can take a photo now (the directory is
   * writable; the bucket answers), else throws 503 PHOTO_STORAGE_UNAVAILABLE, within `timeoutMs`.
   * One cheap call: no photo is read or written.
   */
  check(timeoutMs: number): Promise<void>;
}

export const PHOTO_URL_PREFIX = '/photos/';

/** A photo's name: the first 32 hex digits of its SHA-256 and its format. Nothing else is ever looked up. */
const PHOTO_NAME = /^([a-f0-9]{32})\.(webp|jpg|png)$/;

const CONTENT_TYPES: Record<PhotoExtension, string> = {
  webp: 'image/webp',
  jpg: 'image/jpeg',
  png: 'image/png',
};

/** True for a name put() could have made; the only names any store reads, writes or lists. */
export function isPhotoName(name: string): boolean {
  return PHOTO_NAME.test(name);
}

/** The name `data` is stored under. */
export function photoNameFor(data: Buffer, extension: PhotoExtension): string {
  return `${createHash('sha256').update(data).digest('hex').slice(0, 32)}.${extension}`;
}

/** The name in a photo URL (`/photos/<name>`), or null when the URL is not one put() returns. */
export function photoNameOf(url: string): string | null {
  if (!url.startsWith(PHOTO_URL_PREFIX)) return null;
  const name = url.slice(PHOTO_URL_PREFIX.length);
  return isPhotoName(name) ? name : null;
}

/** The media type of a photo name (checked by isPhotoName). */
export function photoContentType(name: string): string {
  return CONTENT_TYPES[path.extname(name).slice(1) as PhotoExtension] ?? 'application/octet-stream';
}

/** Photos as files under `<DATA_DIR>/photos`, named by their SHA-256 so they can be cached forever. */
export function localPhotoStore(dataDir: string): PhotoStore & { root: string } {
  const root = path.join(dataDir, 'photos');
  return {
    root,
    description: `the directory ${root}`,
    async put(data, extension) {
      const name = photoNameFor(data, extension);
      await mkdir(root, { recursive: true });
      // Written aside and renamed, so a reader never sees half a photo under its final name.
      const partial = path.join(root, `.${name}.${randomBytes(6).toString('hex')}.partial`);
      await writeFile(partial, data);
      await rename(partial, path.join(root, name));
      return `${PHOTO_URL_PREFIX}${name}`;
    },
    async remove(url) {
      const name = photoNameOf(url);
      if (name) await rm(path.join(root, name), { force: true });
    },
    async get(name) {
      if (!isPhotoName(name)) return null;
      const file = await open(path.join(root, name)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null;
        throw error;
      });
      if (!file) return null;
      try {
        const info = await file.stat();
        if (!info.isFile()) {
          await file.close();
          return null;
        }
        return { body: file.createReadStream(), bytes: info.size, contentType: photoContentType(name) };
      } catch (error) {
        await file.close();
        throw error;
      }
    },
    async list() {
      const names = await readdir(root).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return [];
        throw error;
      });
      return names.filter(isPhotoName).sort();
    },
    async check() {
      try {
        // Made at the first photo otherwise; a file in its place, a read-only disk or a directory
        // the server may not write to fails here.
        await mkdir(root, { recursive: true });
        await access(root, constants.W_OK);
      } catch (error) {
        throw photoStorageUnavailable(`checking that ${root} is a writable directory`, error);
      }
    },
  };
}
