import { createHash } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Where photos live. Local disk now; object storage can implement the same three calls later. */
export interface PhotoStore {
  /** Store `data` under a content-derived name and return the URL it is served at. */
  put(data: Buffer, extension: 'webp' | 'jpg' | 'png'): Promise<string>;
  /** Remove the photo behind a URL returned by put(); unknown URLs are ignored. */
  remove(url: string): Promise<void>;
}

export const PHOTO_URL_PREFIX = '/photos/';

/** Photos as files under `<DATA_DIR>/photos`, named by their SHA-256 so they can be cached forever. */
export function localPhotoStore(dataDir: string): PhotoStore & { root: string } {
  const root = path.join(dataDir, 'photos');
  return {
    root,
    async put(data, extension) {
      const name = `${createHash('sha256').update(data).digest('hex').slice(0, 32)}.${extension}`;
      await mkdir(root, { recursive: true });
      await writeFile(path.join(root, name), data);
      return `${PHOTO_URL_PREFIX}${name}`;
    },
    async remove(url) {
      if (!url.startsWith(PHOTO_URL_PREFIX)) return;
      const name = path.basename(url);
      if (!/^[a-f0-9]{32}\.(webp|jpg|png)$/.test(name)) return;
      await rm(path.join(root, name), { force: true });
    },
  };
}
