import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

/** Raised when another live process holds the data directory. */
export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Take an exclusive lock on `dataDir`. PGlite takes none itself, and two processes on one
 * directory corrupt it (docs/stack-notes.md). A lock left by a dead process is taken over.
 * Returns the release function.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'barterhood.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (readFileSync(file, 'utf8').trim() === String(process.pid)) unlinkSync(file);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
      if (Number.isInteger(holder) && holder !== process.pid && processAlive(holder)) {
        throw new DataDirLockedError(
          `Another Barterhood process (pid ${holder}) is already using ${dataDir}; stop it or set a different DATA_DIR.`,
        );
      }
      unlinkSync(file); // stale lock from a process that is gone
    }
  }
  throw new DataDirLockedError(`Could not lock ${dataDir}.`);
}
