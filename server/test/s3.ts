import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/** Key and secret the test store accepts (s3rver checks signatures made with them). */
const KEY = 'S3RVER';
const SECRET = 'S3RVER';

export interface TestS3 {
  /** STORAGE_URL for the bucket `bucket` (created at start). */
  url: string;
  bucket: string;
  /** STORAGE_URL for another bucket of the same store (one that does not exist, unless made). */
  urlFor: (bucket: string) => string;
  close: () => Promise<void>;
}

/**
 * A real S3-protocol server on loopback for tests (s3rver, objects kept in a temporary directory):
 * the app talks to it through the AWS SDK exactly as it would to AWS S3 or MinIO.
 */
export async function startTestS3(bucket = 'photos'): Promise<TestS3> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'bh-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  const urlFor = (name: string) => `s3+http://${KEY}:${SECRET}@127.0.0.1:${port}/${name}`;
  return {
    url: urlFor(bucket),
    bucket,
    urlFor,
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** A STORAGE_URL whose store refuses connections (a loopback port nothing listens on). */
export async function unreachableStorageUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `s3+http://${KEY}:${SECRET}@127.0.0.1:${port}/photos`;
}
