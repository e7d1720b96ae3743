import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseHandle, PgliteOptions } from './client';
import { startPgliteThread } from './pglite-thread-client';

/** The embedded database's directory under DATA_DIR. */
export const EMBEDDED_DIR = 'pglite';

/** Where `npm run backup` writes its archives by default, under DATA_DIR. */
export const BACKUPS_DIR = 'backups';

export function embeddedDatabaseDir(dataDir: string): string {
  return path.join(dataDir, EMBEDDED_DIR);
}

/**
 * The embedded database exists but cannot be opened (damaged files, a half-copied directory).
 * Start-up stops on it instead of letting PGlite initialise a new, empty database over the old one.
 */
export class EmbeddedDatabaseDamagedError extends Error {
  override name = 'EmbeddedDatabaseDamagedError';
}

/**
 * `absent`: no directory, or an empty one (a first start initialises it). `present`: PGlite's
 * PG_VERSION is there. `incomplete`: files but no PG_VERSION; PGlite would run initdb over them.
 */
export function embeddedDatabaseState(dir: string): 'absent' | 'present' | 'incomplete' {
  if (!existsSync(dir) || readdirSync(dir).length === 0) return 'absent';
  return existsSync(path.join(dir, 'PG_VERSION')) ? 'present' : 'incomplete';
}

/** The newest archive in DATA_DIR/backups, if any, to name in the message. */
function newestBackup(dataDir: string): string | null {
  const dir = path.join(dataDir, BACKUPS_DIR);
  if (!existsSync(dir)) return null;
  const archives = readdirSync(dir)
    .filter((name) => name.startsWith('barterhood-backup-') && name.endsWith('.tar.gz'))
    .sort();
  const newest = archives.at(-1);
  return newest ? path.join(dir, newest) : null;
}

export function damagedMessage(dataDir: string, cause: string): string {
  const dir = embeddedDatabaseDir(dataDir);
  const newest = newestBackup(dataDir);
  return [
    `The embedded database in ${dir} cannot be opened: ${cause}.`,
    'It was left as it is (nothing was re-initialised).',
    `Restore a backup with: npm run restore ${newest ?? '<file>'}`,
    newest
      ? '(the newest archive in DATA_DIR/backups)'
      : `(archives are written to ${path.join(dataDir, BACKUPS_DIR)} by npm run backup)`,
  ].join('\n');
}

/**
 * Open the embedded database in DATA_DIR/pglite (the caller holds the data directory's lock). A
 * missing or empty directory is a first start and is initialised; a directory PGlite cannot open
 * throws EmbeddedDatabaseDamagedError naming the restore command, and is never re-initialised.
 */
export async function openEmbeddedDatabase(
  dataDir: string,
  options: Omit<PgliteOptions, 'dataDir'> = {},
): Promise<DatabaseHandle> {
  const dir = embeddedDatabaseDir(dataDir);
  const state = embeddedDatabaseState(dir);
  if (state === 'incomplete') {
    throw new EmbeddedDatabaseDamagedError(
      damagedMessage(dataDir, 'its PG_VERSION file is missing, so it is not a complete database directory'),
    );
  }
  // PGlite's thread starts first, then the drizzle side of the handle loads while it opens: this
  // module imports nothing heavy, so a server's start spawns the thread early (ADR 122).
  const thread = startPgliteThread({ dataDir: dir, sharedBuffersMb: options.sharedBuffersMb });
  thread.catch(() => {}); // awaited by openPglite below
  let handle: DatabaseHandle;
  try {
    const { openPglite } = await import('./client');
    handle = await openPglite({ ...options, dataDir: dir, thread });
  } catch (error) {
    // A thread that opened under a handle that failed is closed, not left running.
    void thread.then(
      (opened) => opened.close(),
      () => {},
    );
    if (state === 'absent') throw error;
    throw new EmbeddedDatabaseDamagedError(damagedMessage(dataDir, (error as Error).message), {
      cause: error,
    });
  }
  if (state === 'present') {
    // PGlite may open a directory whose catalogue is damaged; read it once to find out now.
    try {
      await handle.pglite?.query('SELECT count(*) FROM pg_catalog.pg_class');
    } catch (error) {
      await handle.close().catch(() => {});
      throw new EmbeddedDatabaseDamagedError(damagedMessage(dataDir, (error as Error).message), {
        cause: error,
      });
    }
  }
  return handle;
}
