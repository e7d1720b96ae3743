import type { Config } from './config';
import type { DatabaseHandle, Db } from './db/client';
import type { PhotoStore } from './storage/photo-store';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: DatabaseHandle;
    db: Db;
    /** Where photos are stored and read (server/storage/photo-store.ts): the one store of this app. */
    photoStore: PhotoStore;
  }
}
