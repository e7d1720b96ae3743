import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { describePhotoStorage, type S3PhotoStorage } from '../config';
import { photoStorageUnavailable } from '../errors';
import {
  isPhotoName,
  PHOTO_URL_PREFIX,
  type PhotoStore,
  photoContentType,
  photoNameFor,
  photoNameOf,
} from './photo-store';

/** How long to wait for the store: to connect, and for an answer once connected (then a retry, then 503). */
const CONNECT_TIMEOUT_MS = 3_000;
const ANSWER_TIMEOUT_MS = 15_000;

/** True for the store's "no such object" answer (a missing bucket is a broken setting, not a missing photo). */
function isMissing(error: unknown): boolean {
  return error instanceof S3ServiceException && error.name === 'NoSuchKey';
}

/**
 * Photos as objects in a bucket of any S3-compatible store (AWS S3, MinIO, Ceph, R2...), through
 * the official AWS SDK. The key is the photo's name, the same as on disk, so URLs stay
 * `/photos/<name>` and the server streams them (the bucket stays private, the gate applies). A store
 * that cannot be reached or refuses us is a 503 PHOTO_STORAGE_UNAVAILABLE, never a 500.
 */
export function s3PhotoStore(storage: S3PhotoStorage): PhotoStore & { client: S3Client } {
  const client = new S3Client({
    region: storage.region,
    endpoint: storage.endpoint,
    forcePathStyle: storage.forcePathStyle,
    ...(storage.credentials ? { credentials: storage.credentials } : {}),
    requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, requestTimeout: ANSWER_TIMEOUT_MS },
    maxAttempts: 2,
  });
  const Bucket = storage.bucket;
  const description = describePhotoStorage(storage, '');
  /** Run one request; anything but an answer becomes the 503 (the cause kept for the log). */
  const call = async <T>(what: string, request: () => Promise<T>): Promise<T> => {
    try {
      return await request();
    } catch (error) {
      throw photoStorageUnavailable(`${what} in ${description}`, error);
    }
  };

  return {
    client,
    description,
    async put(data, extension) {
      const name = photoNameFor(data, extension);
      await call('storing a photo', () =>
        client.send(
          new PutObjectCommand({ Bucket, Key: name, Body: data, ContentType: photoContentType(name) }),
        ),
      );
      return `${PHOTO_URL_PREFIX}${name}`;
    },
    async remove(url) {
      const name = photoNameOf(url);
      if (!name) return;
      // Deleting a missing key succeeds in S3: unknown URLs are ignored, as on disk.
      await call('removing a photo', () => client.send(new DeleteObjectCommand({ Bucket, Key: name })));
    },
    async get(name) {
      if (!isPhotoName(name)) return null;
      let answer: GetObjectCommandOutput;
      try {
        answer = await client.send(new GetObjectCommand({ Bucket, Key: name }));
      } catch (error) {
        if (isMissing(error)) return null;
        throw photoStorageUnavailable(`reading a photo in ${description}`, error);
      }
      if (!answer.Body) return null;
      return {
        body: answer.Body as Readable,
        bytes: answer.ContentLength ?? 0,
        // From the name, not the object's metadata: only the three photo types are ever sent.
        contentType: photoContentType(name),
      };
    },
    async list() {
      const names: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await call('listing the photos', () =>
          client.send(new ListObjectsV2Command({ Bucket, ContinuationToken })),
        );
        for (const object of page.Contents ?? []) {
          if (object.Key && isPhotoName(object.Key)) names.push(object.Key);
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return names.sort();
    },
    async check(timeoutMs) {
      // HeadBucket: the store answers, the bucket exists and our key may use it; nothing is read.
      await call('checking the bucket', () =>
        client.send(new HeadBucketCommand({ Bucket }), { abortSignal: AbortSignal.timeout(timeoutMs) }),
      );
    },
  };
}
