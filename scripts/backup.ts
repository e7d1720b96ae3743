/**
 * `npm run backup [-- --out FILE]`: the database and every photo in one archive (docs/backups.md).
 * Uses the same settings as `npm start`. The embedded database is backed up only while the server is
 * stopped; PostgreSQL (DATABASE_URL, pg_dump on PATH) while it runs.
 */
import { parseArgs } from 'node:util';
import { BackupError } from '#server/backup/archive.ts';
import { createBackup } from '#server/backup/backup.ts';
import { EmbeddedDatabaseDamagedError } from '#server/db/embedded.ts';
import { scriptConfig } from './script-config';

const USAGE = 'usage: npm run backup [-- --out FILE]';

async function main(): Promise<number> {
  let out: string | undefined;
  try {
    ({
      values: { out },
    } = parseArgs({ options: { out: { type: 'string' } }, allowPositionals: false }));
  } catch {
    console.error(USAGE);
    return 2;
  }
  const config = scriptConfig();
  if (!config) return 2;
  try {
    const { file, manifest } = await createBackup(config, { out });
    const rows = Object.values(manifest.tables).reduce((sum, n) => sum + n, 0);
    const photoBytes = manifest.photos.reduce((sum, photo) => sum + photo.bytes, 0);
    console.log(
      [
        `Backup written to ${file}`,
        `  database: ${manifest.database.kind === 'pglite' ? 'embedded (PGlite)' : 'PostgreSQL'}, ${Object.keys(manifest.tables).length} tables, ${rows} rows, migration ${manifest.migrations.last ?? 'none'}`,
        `  photos: ${manifest.photos.length} files, ${(photoBytes / 1_048_576).toFixed(1)} MB`,
        `Restore it with: npm run restore ${file}`,
      ].join('\n'),
    );
    return 0;
  } catch (error) {
    if (error instanceof BackupError || error instanceof EmbeddedDatabaseDamagedError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}

process.exitCode = await main();
