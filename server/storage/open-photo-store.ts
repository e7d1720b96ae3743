import type { Config, PhotoStorage } from '../config';
import { localPhotoStore, type PhotoStore } from './photo-store';

/** The store the settings name: DATA_DIR/photos, or an S3 bucket (loaded only then: the SDK is large). */
export async function openPhotoStore(config: Pick<Config, 'dataDir' | 'photoStorage'>): Promise<PhotoStore> {
  return photoStoreFor(config.dataDir, config.photoStorage);
}

async function photoStoreFor(dataDir: string, storage: PhotoStorage): Promise<PhotoStore> {
  if (storage.kind === 'local') return localPhotoStore(dataDir);
  const { s3PhotoStore } = await import('./s3-photo-store');
  return s3PhotoStore(storage);
}
