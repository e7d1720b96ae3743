import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import type { Config } from '../config';
import {
  BACKUPS_DIR,
  embeddedDatabaseDir,
  embeddedDatabaseState,
  openEmbeddedDatabase,
} from '../db/embedded';
import { DataDirLockedError, lockDataDir } from '../db/lock';
import { openPhotoStore } from '../storage/open-photo-store';
import type { PhotoStore } from '../storage/photo-store';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_FORMAT_VERSION,
  BackupError,
  DATABASE_FILES,
  MANIFEST_FILE,
  type Manifest,
  PHOTOS_DIR,
  sha256File,
  writeArchive,
} from './archive';
import { countRows, databaseMigrationLevel, listTables, type RunQuery } from './facts';
import { libpqTarget, runPgTool } from './pg-tools';

export interface BackupOptions {
  /** Where to write the archive; default DATA_DIR/backups/barterhood-backup-<time>.tar.gz. */
  out?: string;
  /** Environment of pg_dump (PATH, PG* variables); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** The time written in the manifest and the default file name; default now. */
  now?: Date;
  /** Where the photos are; default the store the settings name (DATA_DIR/photos or STORAGE_URL's bucket). */
  store?: PhotoStore;
}

export interface BackupResult {
  file: string;
  manifest: Manifest;
}

/** "2026-05-01T12-30-00Z": an ISO time that is also a portable file name. */
export function fileTime(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replaceAll(':', '-');
}

/**
 * Every photo of the store, copied into `staging`/photos as it is read, with its size and SHA-256.
 * The same for every store (ADR 042): the photos come through the PhotoStore interface. A photo
 * removed between the listing and its copy is left out (no row of the snapshot can need it: rows
 * are removed before their photos).
 */
async function stagePhotos(store: PhotoStore, staging: string): Promise<Manifest['photos']> {
  const target = path.join(staging, PHOTOS_DIR);
  await mkdir(target, { recursive: true });
  const photos: Manifest['photos'] = [];
  for (const name of await store.list()) {
    const photo = await store.get(name);
    if (!photo) continue;
    const hash = createHash('sha256');
    let bytes = 0;
    const measure = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        bytes += chunk.length;
        done(null, chunk);
      },
    });
    await pipeline(photo.body, measure, createWriteStream(path.join(target, name)));
    photos.push({ path: `${PHOTOS_DIR}/${name}`, bytes, sha256: hash.digest('hex') });
  }
  return photos.sort((a, b) => a.path.localeCompare(b.path));
}

interface DatabaseSnapshot {
  database: Omit<Manifest['database'], 'bytes' | 'sha256'>;
  migrations: Manifest['migrations'];
  tables: Manifest['tables'];
}

async function readFacts(query: RunQuery) {
  const tables = await countRows(query, await listTables(query));
  const migrations = await databaseMigrationLevel(query);
  const [version] = await query('SHOW server_version');
  return { tables, migrations, serverVersion: String(version?.server_version ?? '') };
}

/**
 * The embedded database, offline: take DATA_DIR's lock (refused while a server runs), open it,
 * CHECKPOINT, and write PGlite's own tarball of its data directory.
 */
async function dumpEmbedded(dataDir: string, staging: string): Promise<DatabaseSnapshot> {
  const dir = embeddedDatabaseDir(dataDir);
  if (embeddedDatabaseState(dir) === 'absent') {
    throw new BackupError(`There is no embedded database in ${dir} to back up.`);
  }
  let release: () => void;
  try {
    release = lockDataDir(dataDir);
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      throw new BackupError(
        `${error.message}\nThe embedded database can only be backed up while the server is stopped (PGlite has one connection, held by the server): stop it, run npm run backup, and start it again. PostgreSQL (DATABASE_URL) is backed up while it runs.`,
      );
    }
    throw error;
  }
  try {
    const handle = await openEmbeddedDatabase(dataDir);
    try {
      const client = handle.pglite;
      if (!client) throw new Error('PGlite handle without its client');
      const query: RunQuery = async (text) => (await client.query<Record<string, unknown>>(text)).rows;
      await client.exec('CHECKPOINT');
      const facts = await readFacts(query);
      const dump = await client.dumpDataDir();
      await writeFile(path.join(staging, DATABASE_FILES.pglite), Buffer.from(await dump.arrayBuffer()));
      return {
        database: { kind: 'pglite', file: DATABASE_FILES.pglite, serverVersion: facts.serverVersion },
        migrations: facts.migrations,
        tables: facts.tables,
      };
    } finally {
      await handle.close();
    }
  } finally {
    release();
  }
}

/**
 * PostgreSQL, online: one REPEATABLE READ transaction exports its snapshot; the row counts and the
 * migration level are read in it and pg_dump --snapshot dumps exactly that state.
 */
async function dumpPostgres(
  databaseUrl: string,
  staging: string,
  env: NodeJS.ProcessEnv,
): Promise<DatabaseSnapshot> {
  const client = new pg.Client({
    connectionString: databaseUrl,
    connectionTimeoutMillis: 10_000,
    application_name: 'barterhood-backup',
  });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const [snapshot] = (await client.query<{ id: string }>('SELECT pg_export_snapshot() AS id')).rows;
    const query: RunQuery = async (text) => (await client.query(text)).rows;
    const facts = await readFacts(query);
    const target = libpqTarget(databaseUrl, env);
    await runPgTool(
      'pg_dump',
      [
        '--format=custom',
        `--snapshot=${snapshot?.id}`,
        '--no-password',
        `--file=${path.join(staging, DATABASE_FILES.postgres)}`,
        `--dbname=${target.dbname}`,
      ],
      target.env,
    );
    await client.query('COMMIT');
    return {
      database: { kind: 'postgres', file: DATABASE_FILES.postgres, serverVersion: facts.serverVersion },
      migrations: facts.migrations,
      tables: facts.tables,
    };
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * `npm run backup`: the database (PGlite's data directory tarball, or pg_dump's custom format) and
 * every photo, with a manifest, in one .tar.gz. Written under a temporary name and renamed at the end,
 * so a file named barterhood-backup-*.tar.gz is always complete.
 */
export async function createBackup(config: Config, options: BackupOptions = {}): Promise<BackupResult> {
  const now = options.now ?? new Date();
  const backupsDir = path.join(config.dataDir, BACKUPS_DIR);
  const file = path.resolve(
    options.out ?? path.join(backupsDir, `barterhood-backup-${fileTime(now)}.tar.gz`),
  );
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await mkdir(backupsDir, { recursive: true, mode: 0o700 });
  const staging = path.join(backupsDir, `.staging-${process.pid}-${Date.now()}`);
  await mkdir(path.join(staging, 'database'), { recursive: true, mode: 0o700 });
  const partial = `${file}.partial-${process.pid}`;
  try {
    // The database first, then the photos: a photo is written before the row that names it, so every
    // photo the dump refers to is already there.
    const snapshot = config.databaseUrl
      ? await dumpPostgres(config.databaseUrl, staging, options.env ?? process.env)
      : await dumpEmbedded(config.dataDir, staging);
    const photos = await stagePhotos(options.store ?? (await openPhotoStore(config)), staging);
    const dbFile = path.join(staging, snapshot.database.file);
    const manifest: Manifest = {
      format: ARCHIVE_FORMAT,
      formatVersion: ARCHIVE_FORMAT_VERSION,
      createdAt: now.toISOString(),
      database: {
        ...snapshot.database,
        bytes: (await stat(dbFile)).size,
        sha256: await sha256File(dbFile),
      },
      migrations: snapshot.migrations,
      tables: snapshot.tables,
      photos,
    };
    await writeFile(path.join(staging, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    await writeArchive(staging, partial);
    await chmod(partial, 0o600); // member data: readable by this user only
    await rename(partial, file);
    return { file, manifest };
  } finally {
    await rm(staging, { recursive: true, force: true });
    await rm(partial, { force: true });
  }
}
