import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import { type DatabaseHandle, openPostgres } from './client';
import { openEmbeddedDatabase } from './embedded';
import { lockDataDir } from './lock';
import { migrateDatabase } from './migrate';

/**
 * Open the configured database and bring its schema up to date: PostgreSQL when DATABASE_URL is
 * set, otherwise PGlite under DATA_DIR behind a lock file (server/db/embedded.ts). The returned close() also releases the lock.
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
      onPoolError: (error) => log.warn({ err: error }, 'a database connection failed'),
    });
    await migrateDatabase(handle, config.databaseUrl);
    return handle;
  }
  const release = lockDataDir(config.dataDir);
  try {
    // A damaged directory throws EmbeddedDatabaseDamagedError (naming npm run restore), never re-initialised.
    const handle = await openEmbeddedDatabase(config.dataDir, {
      acquireTimeoutMs: config.db.acquireTimeoutMs,
      sharedBuffersMb: config.db.pgliteSharedBuffersMb,
      slowHoldMs: config.db.slowHoldMs,
      onSlowHold: (hold) =>
        log.warn({ hold }, 'the embedded database was held long: others waited behind it'),
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
