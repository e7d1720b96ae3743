/**
 * `npm run restore FILE`: replace the database and the photos with an archive of `npm run backup`
 * (docs/backups.md). Refused while a server uses the data; the archive's paths, manifest and
 * checksums are checked before anything changes.
 */
import { BackupError } from '#server/backup/archive.ts';
import { restoreBackup } from '#server/backup/restore.ts';
import { scriptConfig } from './script-config';

const USAGE = 'usage: npm run restore FILE';

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const file = args[0];
  if (args.length !== 1 || !file || file.startsWith('-')) {
    console.error(USAGE);
    return 2;
  }
  const config = scriptConfig();
  if (!config) return 2;
  try {
    const { manifest, replaced, previousDir, photos } = await restoreBackup(config, file);
    const rows = Object.values(manifest.tables).reduce((sum, n) => sum + n, 0);
    console.log(
      [
        `Restored ${file} (made ${manifest.createdAt}):`,
        `  ${Object.keys(manifest.tables).length} tables, ${rows} rows, ${manifest.photos.length} photos, migration ${manifest.migrations.last ?? 'none'}`,
        `  photos: ${photos}`,
        replaced.length > 0 ? 'Replaced:' : 'Nothing was there before.',
        ...replaced.map((line) => `  ${line}`),
        ...(previousDir ? [`Delete ${previousDir} once you no longer need what was there before.`] : []),
        'Start the server: it applies any newer migrations.',
      ].join('\n'),
    );
    return 0;
  } catch (error) {
    if (error instanceof BackupError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}

process.exitCode = await main();
