import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import type { Config } from '../config';
import { openPglite } from '../db/client';
import { embeddedDatabaseDir } from '../db/embedded';
import { DataDirLockedError, lockDataDir } from '../db/lock';
import { openPhotoStore } from '../storage/open-photo-store';
import { isPhotoName, PHOTO_URL_PREFIX, type PhotoExtension, type PhotoStore } from '../storage/photo-store';
import {
  BackupError,
  checkArchiveEntries,
  extractArchive,
  type Manifest,
  PHOTOS_DIR,
  readManifest,
  verifyExtracted,
} from './archive';
import { fileTime } from './backup';
import { codeMigrationLevel, countRows, listTables, quoteIdent, type RunQuery } from './facts';
import { libpqTarget, runPgTool } from './pg-tools';

export interface RestoreOptions {
  /** Environment of pg_restore and psql (PATH, PG* variables); default process.env. */
  env?: NodeJS.ProcessEnv;
  now?: Date;
  /** Where the photos go; default the store the settings name (DATA_DIR/photos or STORAGE_URL's bucket). */
  store?: PhotoStore;
}

export interface RestoreResult {
  manifest: Manifest;
  /** What was there before and has been replaced, one line each, for the operator. */
  replaced: string[];
  /** Where the previous embedded database was moved (kept until deleted by hand). */
  previousDir: string | null;
  /** What happened to the photos, one line for the operator. */
  photos: string;
}

/** Refuse archives made by a newer Barterhood (their schema is ahead of this code's migrations). */
function checkMigrationLevel(manifest: Manifest, file: string): void {
  const code = codeMigrationLevel();
  const archived = manifest.migrations.lastWhen;
  if (archived !== null && code.lastWhen !== null && archived > code.lastWhen) {
    throw new BackupError(
      `Refusing ${file}: its database is at migration ${manifest.migrations.last} (${manifest.migrations.applied} applied), newer than this version of Barterhood knows (${code.last}). Upgrade Barterhood, then restore.`,
    );
  }
}

function compareCounts(expected: Record<string, number>, actual: Record<string, number>, file: string): void {
  const names = new Set([...Object.keys(expected), ...Object.keys(actual)]);
  for (const name of names) {
    if (expected[name] !== actual[name]) {
      throw new BackupError(
        `Refusing ${file}: after loading, ${name} has ${actual[name] ?? 'no'} rows where the manifest says ${expected[name] ?? 'none'}. Nothing was changed.`,
      );
    }
  }
}

async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += (await stat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
}

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

/**
 * Refuse an archive with a photo whose name is not the one its content gets (the store names photos
 * by content, ADR 042): checked against the manifest's SHA-256, before anything changes.
 */
function checkPhotoNames(manifest: Manifest, file: string): void {
  for (const photo of manifest.photos) {
    const name = photo.path.slice(`${PHOTOS_DIR}/`.length);
    if (!isPhotoName(name) || !name.startsWith(photo.sha256.slice(0, 32))) {
      throw new BackupError(
        `Refusing ${file}: ${photo.path} is not named by its content as stored photos are. Nothing was changed.`,
      );
    }
  }
}

/**
 * Write the archive's photos into the store (whichever it is: the same names come back, since names
 * are content hashes). Photos already there are written again; photos in the store that the archive
 * does not hold are left as they are (no restored row names them). Additive, so it runs before the
 * database is replaced: a failure then leaves the old database with some photos added.
 */
async function restorePhotos(store: PhotoStore, staging: string, manifest: Manifest): Promise<string> {
  const before = new Set(await store.list());
  let already = 0;
  for (const photo of manifest.photos) {
    const name = photo.path.slice(`${PHOTOS_DIR}/`.length);
    if (before.has(name)) already++;
    const url = await store.put(
      await readFile(path.join(staging, photo.path)),
      path.extname(name).slice(1) as PhotoExtension,
    );
    if (url !== `${PHOTO_URL_PREFIX}${name}`) throw new Error(`${photo.path} was stored as ${url}`);
  }
  const archived = new Set(manifest.photos.map((photo) => photo.path.slice(`${PHOTOS_DIR}/`.length)));
  const others = [...before].filter((name) => !archived.has(name)).length;
  return [
    `${manifest.photos.length} photos written to ${store.description} (${already} of them were there already)`,
    others > 0 ? `; ${others} photos there are not in the archive and were left as they are` : '',
  ].join('');
}

/**
 * Move what is at `from` (if anything) into `previousDir`, then `staged` into `from`.
 * Returns a line for the report, or null when there was nothing before.
 */
async function swapIn(
  from: string,
  staged: string,
  previousDir: string,
  what: string,
): Promise<string | null> {
  let line: string | null = null;
  if (existsSync(from)) {
    await mkdir(previousDir, { recursive: true, mode: 0o700 });
    const aside = path.join(previousDir, path.basename(from));
    line = `${what} ${from} (${megabytes(await sizeOf(from))}), moved to ${aside}`;
    await rename(from, aside);
  }
  await rename(staged, from);
  return line;
}

async function restoreEmbedded(
  config: Config,
  file: string,
  staging: string,
  manifest: Manifest,
  previousDir: string,
): Promise<string[]> {
  const loaded = path.join(staging, 'pglite');
  const tarball = await readFile(path.join(staging, manifest.database.file));
  // Load the tarball into a new directory beside the live one and check it before anything is moved.
  const handle = await openPglite({ dataDir: loaded, loadDataDir: new Blob([tarball]) });
  try {
    const client = handle.pglite;
    if (!client) throw new Error('PGlite handle without its client');
    const query: RunQuery = async (text) => (await client.query<Record<string, unknown>>(text)).rows;
    compareCounts(manifest.tables, await countRows(query, await listTables(query)), file);
  } finally {
    await handle.close();
  }
  const replaced: string[] = [];
  const db = await swapIn(embeddedDatabaseDir(config.dataDir), loaded, previousDir, 'the embedded database');
  if (db) replaced.push(db);
  return replaced;
}

/** Other sessions of a running Barterhood (application_name barterhood*) on the database. */
async function liveServerSessions(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ pid: number; app: string; addr: string | null }>(
    `SELECT pid, application_name AS app, client_addr::text AS addr FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid()
        AND application_name LIKE 'barterhood%' AND application_name NOT LIKE 'barterhood-backup%'`,
  );
  return rows.map((row) => `pid ${row.pid} (${row.app}${row.addr ? ` from ${row.addr}` : ''})`);
}

/** The SQL that checks, inside the restore's transaction, that every table has the manifest's rows. */
function verifySql(tables: Record<string, number>): string {
  const checks = Object.entries(tables).map(([name, rows]) => {
    const [schema = '', table = ''] = name.split('.');
    return `  SELECT count(*) INTO n FROM ${quoteIdent(schema)}.${quoteIdent(table)};
  IF n <> ${rows} THEN RAISE EXCEPTION 'after the restore % has % rows, the manifest says ${rows}', '${name}', n; END IF;`;
  });
  return `DO $verify$
DECLARE n bigint;
BEGIN
${checks.join('\n')}
  SELECT count(*) INTO n FROM information_schema.tables
   WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')
     AND table_schema NOT LIKE 'pg\\_%';
  IF n <> ${Object.keys(tables).length} THEN RAISE EXCEPTION 'after the restore there are % tables, the manifest lists ${Object.keys(tables).length}', n; END IF;
END $verify$;
`;
}

async function restorePostgres(
  databaseUrl: string,
  staging: string,
  manifest: Manifest,
  env: NodeJS.ProcessEnv,
): Promise<string[]> {
  const client = new pg.Client({
    connectionString: databaseUrl,
    connectionTimeoutMillis: 10_000,
    application_name: 'barterhood-backup',
  });
  await client.connect();
  let schemas: string[];
  let before: { tables: number; rows: number };
  try {
    ({ rows: schemas } = await client
      .query<{ nspname: string }>(
        `SELECT nspname FROM pg_namespace
          WHERE nspname NOT IN ('pg_catalog', 'information_schema') AND nspname NOT LIKE 'pg\\_%'
          ORDER BY 1`,
      )
      .then((result) => ({ rows: result.rows.map((row) => row.nspname) })));
    const query: RunQuery = async (text) => (await client.query(text)).rows;
    const counts = await countRows(query, await listTables(query));
    before = {
      tables: Object.keys(counts).length,
      rows: Object.values(counts).reduce((sum, n) => sum + n, 0),
    };
  } finally {
    await client.end().catch(() => {});
  }

  const target = libpqTarget(databaseUrl, env);
  const restoreSql = path.join(staging, 'restore.sql');
  // The dump as SQL, without owners or grants (roles differ between servers; the restoring role owns all).
  await runPgTool(
    'pg_restore',
    ['--no-owner', '--no-privileges', `--file=${restoreSql}`, path.join(staging, manifest.database.file)],
    target.env,
  );
  const dropSql = path.join(staging, 'drop.sql');
  await writeFile(
    dropSql,
    `${schemas.map((schema) => `DROP SCHEMA ${quoteIdent(schema)} CASCADE;`).join('\n')}
CREATE SCHEMA public;
`,
  );
  const verify = path.join(staging, 'verify.sql');
  await writeFile(verify, verifySql(manifest.tables));
  // One transaction: drop every schema, load the dump, check the counts; any error rolls all back.
  await runPgTool(
    'psql',
    [
      '--no-psqlrc',
      '--quiet',
      '--no-password',
      '--single-transaction',
      '--set=ON_ERROR_STOP=1',
      `--dbname=${target.dbname}`,
      `--file=${dropSql}`,
      `--file=${restoreSql}`,
      `--file=${verify}`,
    ],
    target.env,
  );
  const dbName = new URL(databaseUrl).pathname.slice(1);
  return [
    `the PostgreSQL database ${dbName}: schemas ${schemas.join(', ') || '(none)'} with ${before.tables} tables and ${before.rows} rows, dropped and loaded from the archive`,
  ];
}

/**
 * `npm run restore FILE`: refuse while a server uses the data (the embedded database's lock, or
 * Barterhood sessions on PostgreSQL); check every entry's path, the manifest, and every checksum
 * (and that every photo is named by its content) before touching anything; then write the photos
 * into the store and replace the database. The previous embedded database is moved to
 * DATA_DIR/replaced-<time>/, never deleted; photos already in the store stay.
 */
export async function restoreBackup(
  config: Config,
  file: string,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  const archive = path.resolve(file);
  if (!existsSync(archive)) throw new BackupError(`There is no file ${archive}.`);
  const env = options.env ?? process.env;
  const kind = config.databaseUrl ? 'postgres' : 'pglite';

  let release = () => {};
  if (kind === 'pglite') {
    try {
      release = lockDataDir(config.dataDir);
    } catch (error) {
      if (error instanceof DataDirLockedError) {
        throw new BackupError(`${error.message}\nStop the server before restoring; nothing was changed.`);
      }
      throw error;
    }
  } else {
    const client = new pg.Client({
      connectionString: config.databaseUrl,
      connectionTimeoutMillis: 10_000,
      application_name: 'barterhood-backup',
    });
    await client.connect();
    try {
      const live = await liveServerSessions(client);
      if (live.length > 0) {
        throw new BackupError(
          `A Barterhood server is connected to this database (${live.join(', ')}). Stop every server before restoring; nothing was changed.`,
        );
      }
    } finally {
      await client.end().catch(() => {});
    }
  }

  const stamp = fileTime(options.now ?? new Date());
  const staging = path.join(config.dataDir, `.restore-${process.pid}-${Date.now()}`);
  try {
    await checkArchiveEntries(archive);
    await mkdir(staging, { recursive: true, mode: 0o700 });
    await extractArchive(archive, staging);
    const manifest = await readManifest(staging, archive);
    if (manifest.database.kind !== kind) {
      throw new BackupError(
        `Refusing ${archive}: it holds ${manifest.database.kind === 'pglite' ? 'an embedded (PGlite)' : 'a PostgreSQL'} database, and this server is set up for ${kind === 'pglite' ? 'the embedded database (DATABASE_URL unset)' : 'PostgreSQL (DATABASE_URL)'}. Nothing was changed.`,
      );
    }
    checkMigrationLevel(manifest, archive);
    await verifyExtracted(staging, manifest, archive);
    checkPhotoNames(manifest, archive);
    // Photos first, as uploads do: every photo the restored rows name is in the store before them.
    const photos = await restorePhotos(options.store ?? (await openPhotoStore(config)), staging, manifest);
    const previousDir = path.join(config.dataDir, `replaced-${stamp}`);
    const replaced =
      kind === 'pglite'
        ? await restoreEmbedded(config, archive, staging, manifest, previousDir)
        : await restorePostgres(config.databaseUrl as string, staging, manifest, env);
    return { manifest, replaced, previousDir: existsSync(previousDir) ? previousDir : null, photos };
  } finally {
    await rm(staging, { recursive: true, force: true });
    release();
  }
}
