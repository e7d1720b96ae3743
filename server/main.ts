import type { Logger } from 'pino';
import { ConfigError, loadConfig } from './config';
import type { DatabaseHandle } from './db/client';
import { EmbeddedDatabaseDamagedError } from './db/embedded';
import { DataDirLockedError } from './db/lock';
import { openConfiguredDatabase } from './db/open';

/** Start the server: settings, database, migrations, demo data, then listen until a signal. */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`barterhood: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  // The database opens first: PGlite's thread starts before the rest of the server's modules load,
  // from the few this module imports statically (ADR 122). Warnings of the open go to the logger
  // once it is made.
  let openLog: Logger | undefined;
  const opening = openConfiguredDatabase(config, {
    warn: (details, message) => (openLog ? openLog.warn(details, message) : console.warn(message, details)),
  });
  // Awaited below, after the modules: a failure meanwhile is not unhandled.
  opening.catch(() => {});
  const [
    { createLogger },
    { closeWorkerPool, workerPool },
    { deferredEmbeddedDatabase },
    { seedIfEmpty },
    { gracefulShutdown },
    { openPhotoStore },
  ] = await Promise.all([
    import('./logger'),
    import('./workers/pool'),
    import('./db/deferred'),
    import('./db/seed'),
    import('./shutdown'),
    import('./storage/open-photo-store'),
  ]);
  const logger = createLogger(config.logLevel);
  openLog = logger;
  // Heavy work's threads (ADR 048): none start until a task needs one; shutdown ends them.
  workerPool({ onError: (error) => logger.error({ err: error }, 'a worker pool thread failed') });

  // The database opens in its own thread (PGlite) or over the network while this thread loads the
  // rest of the server's modules and prepares what needs no database: a restart waits for the
  // longer of the two, not for both in turn (ADR 097). The embedded database takes the longer, and
  // the app is built meanwhile on a handle that refuses any use until it is open (ADR 116).
  // PostgreSQL's handle is wanted whole while the app is built (the job queue starts on its pool),
  // and opens sooner.
  const devServer = process.env.BARTERHOOD_DEV_SERVER === '1';
  const appModule = import('./app').then((module) => {
    module.prepareApp({ devServer });
    return module;
  });
  const photoStore = await openPhotoStore(config);
  const build = (database: DatabaseHandle) =>
    appModule.then(({ buildApp }) =>
      buildApp({ config, database, logger, serveWeb: true, devServer, photoStore }),
    );
  const deferred = config.databaseUrl ? null : deferredEmbeddedDatabase();
  const building = deferred ? build(deferred.handle) : null;
  // Awaited below, once the database is open: a build that failed meanwhile is not unhandled.
  building?.catch(() => {});
  let database: DatabaseHandle;
  try {
    database = await opening;
  } catch (error) {
    if (error instanceof DataDirLockedError || error instanceof EmbeddedDatabaseDamagedError) {
      console.error(`barterhood: ${error.message}`);
      process.exit(1);
    }
    console.error(`barterhood: could not open the database: ${(error as Error).message}`);
    process.exit(1);
  }
  deferred?.open(database);

  if (config.seedDemo) {
    const seeded = await seedIfEmpty(database.db, photoStore);
    if (seeded) logger.info(seeded, 'seeded an empty database with the demo neighbourhood');
  }

  const app = await (building ?? build(database));
  const shutdown = gracefulShutdown({ app, database, logger });
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    console.error(
      `barterhood: could not listen on ${config.host}:${config.port}: ${(error as Error).message}`,
    );
    await closeWorkerPool();
    await database.close();
    process.exit(1);
  }
  const gate = config.sitePassword === '' ? 'off' : `"${config.sitePassword}"`;
  const db =
    database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)';
  console.log(
    `\n  Barterhood is running at ${config.publicUrl}\n  Site password: ${gate}\n  Database: ${db}\n  Photos: ${photoStore.description}\n`,
  );
}

void main();
