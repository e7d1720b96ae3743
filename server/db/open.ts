import type { Config } from '../config';
import type { DatabaseHandle } from './client';
import { openEmbeddedDatabase } from './embedded';
import { lockDataDir } from './lock';

/**
 * Open the configured database and bring its schema up to date: PostgreSQL when DATABASE_URL is
 * set, otherwise PGlite under DATA_DIR behind a lock file (server/db/embedded.ts). The returned close() also releases the lock.
 *
 * This module and those it imports load nothing heavy: the database client, drizzle and the
 * migrations load after PGlite's thread has started (ADR 122).
 */
export async function openConfiguredDatabase(
  config: Config,
  /** Where a failed connection or a long hold is reported (a pino or Fastify logger). */
  log: { warn(details: object, message: string): void },
): Promise<DatabaseHandle> {
  if (config.databaseUrl) {
    const [{ openPostgres }, { migrateDatabase }] = await Promise.all([
      import('./postgres'),
      import('./migrate'),
    ]);
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
    const { migrateDatabase } = await import('./migrate');
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
