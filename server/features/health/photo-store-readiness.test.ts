import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { parseStorageUrl } from '../../config';
import { localPhotoStore, type PhotoStore } from '../../storage/photo-store';
import { s3PhotoStore } from '../../storage/s3-photo-store';
import { openTestDatabase, testConfig } from '../../test/helpers';
import { startTestS3, type TestS3 } from '../../test/s3';
import { cachedCheck } from './cached-check';
import { PHOTO_STORE_CHECK_TIMEOUT_MS } from './health-routes';

/** The store, counting the readiness checks that reach it. */
function counted(store: PhotoStore): PhotoStore & { checks(): number } {
  let checks = 0;
  return {
    description: store.description,
    put: (data, extension) => store.put(data, extension),
    remove: (url) => store.remove(url),
    get: (name) => store.get(name),
    list: () => store.list(),
    check: (timeoutMs) => {
      checks += 1;
      return store.check(timeoutMs);
    },
    checks: () => checks,
  };
}

/** Run `use` with an app on a fresh database whose photos go to `store`. */
async function withApp(store: (dataDir: string) => PhotoStore, use: (app: FastifyInstance) => Promise<void>) {
  const config = testConfig();
  const { handle, drop } = await openTestDatabase();
  const app = await buildApp({ config, database: handle, photoStore: store(config.dataDir) });
  try {
    await app.ready();
    await use(app);
  } finally {
    await app.close();
    await drop();
    rmSync(config.dataDir, { recursive: true, force: true });
  }
}

const readyz = (app: FastifyInstance) => app.inject({ method: 'GET', url: '/readyz' });

const NOT_READY = {
  message: 'the photo store cannot be reached or written to; the log says which and why',
  code: 'PHOTO_STORAGE_UNAVAILABLE',
};

/** Issue 27: /readyz said 200 while the S3 photo store was down (ADR 042, 053). */
describe('readiness includes the photo store', () => {
  describe('an S3 bucket', () => {
    let s3: TestS3;
    beforeAll(async () => {
      s3 = await startTestS3();
    });
    afterAll(() => s3.close());

    it('running: 200, and a storm of probes reaches the store once', async () => {
      const store = counted(s3PhotoStore(parseStorageUrl(s3.url)));
      await withApp(
        () => store,
        async (app) => {
          const answers = await Promise.all(Array.from({ length: 20 }, () => readyz(app)));
          expect(answers.map((answer) => answer.statusCode)).toEqual(Array(20).fill(200));
          expect((await readyz(app)).statusCode).toBe(200);
          expect(store.checks()).toBe(1);
        },
      );
    });

    it('stopped: 503 PHOTO_STORAGE_UNAVAILABLE', async () => {
      const stopping = await startTestS3();
      await withApp(
        () => s3PhotoStore(parseStorageUrl(stopping.url)),
        async (app) => {
          await stopping.close();
          const answer = await readyz(app);
          expect(answer.statusCode).toBe(503);
          expect(answer.json()).toEqual(NOT_READY);
          // The health of the process itself is another question.
          expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
        },
      );
    });

    it("the store's own check: a bucket that does not exist fails", async () => {
      await expect(
        s3PhotoStore(parseStorageUrl(s3.urlFor('no-such-bucket'))).check(2_000),
      ).rejects.toMatchObject({ statusCode: 503, code: 'PHOTO_STORAGE_UNAVAILABLE' });
    });

    it(
      "the store's own check: a store that takes the connection and never answers fails within its bound",
      async () => {
        const sockets = new Set<Socket>();
        const silent: Server = createServer((socket) => {
          sockets.add(socket);
        });
        await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
        const { port } = silent.address() as { port: number };
        try {
          const store = s3PhotoStore(parseStorageUrl(`s3+http://S3RVER:S3RVER@127.0.0.1:${port}/photos`));
          await expect(store.check(PHOTO_STORE_CHECK_TIMEOUT_MS)).rejects.toMatchObject({
            statusCode: 503,
            code: 'PHOTO_STORAGE_UNAVAILABLE',
          });
        } finally {
          for (const socket of sockets) socket.destroy();
          await new Promise((resolve) => silent.close(resolve));
        }
      },
      // A test timeout, not a timed assertion: the check gives up after PHOTO_STORE_CHECK_TIMEOUT_MS;
      // without its bound, the store's own timeouts (15 s an answer, two attempts) take 30 s.
      PHOTO_STORE_CHECK_TIMEOUT_MS + 10_000,
    );
  });

  describe('the directory under DATA_DIR', () => {
    it("the store's own check: made if missing and writable passes; a file in its place fails", async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bh-ready-'));
      try {
        await expect(localPhotoStore(dataDir).check(2_000)).resolves.toBeUndefined();
        expect(statSync(path.join(dataDir, 'photos')).isDirectory()).toBe(true);
        rmSync(path.join(dataDir, 'photos'), { recursive: true });
        writeFileSync(path.join(dataDir, 'photos'), 'not a directory');
        await expect(localPhotoStore(dataDir).check(2_000)).rejects.toMatchObject({
          statusCode: 503,
          code: 'PHOTO_STORAGE_UNAVAILABLE',
        });
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    });

    it('something else in its place: 503 PHOTO_STORAGE_UNAVAILABLE', async () => {
      await withApp(
        (dataDir) => {
          writeFileSync(path.join(dataDir, 'photos'), 'not a directory');
          return localPhotoStore(dataDir);
        },
        async (app) => {
          const answer = await readyz(app);
          expect(answer.statusCode).toBe(503);
          expect(answer.json()).toEqual(NOT_READY);
        },
      );
    });
  });
});

describe('cachedCheck', () => {
  it('keeps an answer, a failure too, for keepMs from when the check started, then asks again', async () => {
    let clock = 0;
    let calls = 0;
    let failing = false;
    const check = cachedCheck(
      async () => {
        calls += 1;
        if (failing) throw new Error('down');
      },
      5_000,
      () => clock,
    );
    await Promise.all([check(), check(), check()]);
    expect(calls).toBe(1);
    failing = true;
    clock = 4_999;
    await expect(check()).resolves.toBeUndefined();
    expect(calls).toBe(1);
    clock = 5_000;
    await expect(check()).rejects.toThrow('down');
    await expect(check()).rejects.toThrow('down');
    expect(calls).toBe(2);
    failing = false;
    clock = 10_000;
    await expect(check()).resolves.toBeUndefined();
    expect(calls).toBe(3);
  });
});
