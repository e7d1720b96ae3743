import { spawn } from 'node:child_process';
import { BackupError } from './archive';

/**
 * The libpq address of DATABASE_URL without its password, and the environment that carries the
 * password (PGPASSWORD), so it never shows in the process list.
 */
export function libpqTarget(databaseUrl: string, env: NodeJS.ProcessEnv = process.env) {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return {
    dbname: url.toString(),
    env: { ...env, ...(password ? { PGPASSWORD: password } : {}), PGAPPNAME: 'barterhood-backup' },
  };
}

const INSTALL_HINT =
  "install the PostgreSQL client programs of the server's major version or newer (Debian: apt-get install postgresql-client-15)";

/**
 * Run one of PostgreSQL's client programs (pg_dump, pg_restore, psql) found on PATH. Throws
 * BackupError when it is missing or fails, with its error output.
 */
export function runPgTool(program: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 20_000) stderr += chunk.toString();
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      reject(
        new BackupError(
          error.code === 'ENOENT'
            ? `${program} was not found on PATH; backups of PostgreSQL use it: ${INSTALL_HINT}.`
            : `${program} could not be started: ${error.message}`,
        ),
      );
    });
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new BackupError(`${program} failed (exit code ${code}):\n${stderr.trim()}`));
    });
  });
}
