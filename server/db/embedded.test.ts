import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { Config } from '../config';
import { testConfig } from '../test/helpers';
import { openPglite } from './client';
import { EmbeddedDatabaseDamagedError, embeddedDatabaseDir, openEmbeddedDatabase } from './embedded';
import { openConfiguredDatabase } from './open';

const log = pino({ level: 'silent' });

/** A migrated embedded database in a fresh DATA_DIR (a copy of the suite's migrated dump), closed. */
async function dataDirWithDatabase(): Promise<Config> {
  const config = testConfig();
  const handle = await openPglite({
    dataDir: embeddedDatabaseDir(config.dataDir),
    loadDataDir: new Blob([readFileSync(inject('pgliteDump'))]),
  });
  await handle.close();
  return config;
}

/** Overwrite the first `bytes` of `file` with garbage. */
function garble(file: string, bytes = 8192): void {
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(bytes, 0xab), 0, bytes, 0);
  closeSync(fd);
}

describe.skipIf(Boolean(inject('pgTemplateUrl')))('a damaged embedded database', () => {
  const made: Config[] = [];
  afterEach(() => {
    for (const config of made.splice(0)) rmSync(config.dataDir, { recursive: true, force: true });
  });

  it('stops start-up with a message naming the restore command when its files are garbled', async () => {
    const config = await dataDirWithDatabase();
    made.push(config);
    garble(path.join(embeddedDatabaseDir(config.dataDir), 'global', 'pg_control'));
    mkdirSync(path.join(config.dataDir, 'backups'));
    writeFileSync(path.join(config.dataDir, 'backups', 'barterhood-backup-2026-01-01T00-00-00Z.tar.gz'), '');
    const opening = openConfiguredDatabase(config, log);
    await expect(opening).rejects.toBeInstanceOf(EmbeddedDatabaseDamagedError);
    await expect(opening).rejects.toThrow(
      `The embedded database in ${embeddedDatabaseDir(config.dataDir)} cannot be opened`,
    );
    await expect(opening).rejects.toThrow(
      `Restore a backup with: npm run restore ${path.join(config.dataDir, 'backups', 'barterhood-backup-2026-01-01T00-00-00Z.tar.gz')}`,
    );
    // The lock is released, so `npm run restore` can take it.
    expect(existsSync(path.join(config.dataDir, 'barterhood.lock'))).toBe(false);
  });

  it('refuses a directory without PG_VERSION instead of initialising a new database over it', async () => {
    const config = await dataDirWithDatabase();
    made.push(config);
    const dir = embeddedDatabaseDir(config.dataDir);
    rmSync(path.join(dir, 'PG_VERSION'));
    await expect(openConfiguredDatabase(config, log)).rejects.toThrow(
      /cannot be opened: its PG_VERSION file is missing[\s\S]*Restore a backup with: npm run restore <file>/,
    );
    // Left as it was: PGlite did not run initdb over the old files.
    expect(existsSync(path.join(dir, 'PG_VERSION'))).toBe(false);
    expect(existsSync(path.join(dir, 'base'))).toBe(true);
  });

  it('still initialises a missing or empty directory on a first start', async () => {
    const config = testConfig();
    made.push(config);
    mkdirSync(embeddedDatabaseDir(config.dataDir));
    // Without migrating (the start-up test of that is the whole suite): PGlite runs initdb here.
    const handle = await openEmbeddedDatabase(config.dataDir);
    const { rows } = (await handle.pglite?.query<{ n: number }>('SELECT 1 AS n')) ?? { rows: [] };
    expect(rows[0]?.n).toBe(1);
    await handle.close();
    expect(existsSync(path.join(embeddedDatabaseDir(config.dataDir), 'PG_VERSION'))).toBe(true);
  });
});
