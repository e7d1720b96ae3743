import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import { type DatabaseHandle, openPglite, openPostgres } from './client';
import { lockDataDir } from './lock';
import { migrateDatabase } from './migrate';

/**
 * Open the configured database and bring its schema up to date: PostgreSQL when DATABASE_URL is
 * set, otherwise PGlite under DATA_DIR behind a lock file. The returned close() also releases the lock.
 */
export async function openConfiguredDatabase(
  config: Config,
  log: FastifyBaseLogger,
): Promise<DatabaseHandle> {
  if (config.databaseUrl) {
    const handle = openPostgres({
      url: config.databaseUrl,
      poolMax: config.db.poolMax,
      statementTimeoutMs: config.db.statementTimeoutMs,
      acquireTimeoutMs: config.db.acquireTimeoutMs,
      onPoolError: (error) => log.warn({ err: error }, 'idle database connection failed'),
    });
    await migrateDatabase(handle, config.databaseUrl);
    return handle;
  }
  const release = lockDataDir(config.dataDir);
  try {
    const handle = await openPglite({
      dataDir: path.join(config.dataDir, 'pglite'),
      acquireTimeoutMs: config.db.acquireTimeoutMs,
    });
    await migrateDatabase(handle);
    const close = handle.close;
    handle.close = async () => {
      try {
        await close();
      } finally {
        release();
      }
    };
    return handle;
  } catch (error) {
    release();
    throw error;
  }
}
