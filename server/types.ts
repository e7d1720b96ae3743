import type { Config } from './config';
import type { DatabaseHandle, Db } from './db/client';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: DatabaseHandle;
    db: Db;
  }
}
