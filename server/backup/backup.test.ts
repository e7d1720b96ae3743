import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Config, parseStorageUrl } from '../config';
import { type DatabaseHandle, openPglite } from '../db/client';
import { embeddedDatabaseDir } from '../db/embedded';
import { openPostgres } from '../db/postgres';
import { localPhotoStore, type PhotoStore } from '../storage/photo-store';
import { s3PhotoStore } from '../storage/s3-photo-store';
import { createItem, createMessage, createUser, createWant } from '../test/factories';
import { testConfig } from '../test/helpers';
import { startTestS3, type TestS3 } from '../test/s3';
import { checkArchiveEntries, MANIFEST_FILE, type Manifest, writeArchive } from './archive';
import { createBackup } from './backup';
import { listTables, quoteIdent, type RunQuery } from './facts';
import { restoreBackup } from './restore';

const onPostgres = Boolean(inject('pgTemplateUrl'));

/** Members, items with photos (in `store`, default DATA_DIR/photos), a want and a message. */
async function seed(
  handle: DatabaseHandle,
  config: Config,
  store: PhotoStore = localPhotoStore(config.dataDir),
): Promise<void> {
  const [alice, bob] = [await createUser(handle.db), await createUser(handle.db)];
  for (const owner of [alice, bob, alice]) {
    const imageUrl = await store.put(randomBytes(3000), 'webp');
    const thumbnailUrl = await store.put(randomBytes(800), 'webp');
    await createItem(handle.db, { userId: owner.id, imageUrl, thumbnailUrl });
  }
  await createWant(handle.db, { userId: bob.id });
  await createMessage(handle.db, {
    fromUserId: alice.id,
    toUserId: bob.id,
    content: 'Still have the drill?',
  });
}

/** Every row of every table, as sorted JSON text per table. */
async function everyRow(query: RunQuery): Promise<Record<string, string[]>> {
  const all: Record<string, string[]> = {};
  for (const table of await listTables(query)) {
    const [schema = '', name = ''] = table.split('.');
    const rows = await query(
      `SELECT to_jsonb(t)::text AS r FROM ${quoteIdent(schema)}.${quoteIdent(name)} t`,
    );
    all[table] = rows.map((row) => String(row.r)).sort();
  }
  return all;
}

/** The photos on disk: name -> SHA-256. */
function photosOnDisk(dataDir: string): Record<string, string> {
  const dir = path.join(dataDir, 'photos');
  if (!existsSync(dir)) return {};
  return Object.fromEntries(
    readdirSync(dir).map((name) => [
      name,
      createHash('sha256')
        .update(readFileSync(path.join(dir, name)))
        .digest('hex'),
    ]),
  );
}

const pgliteQuery =
  (handle: DatabaseHandle): RunQuery =>
  async (text) =>
    (await handle.pglite?.query<Record<string, unknown>>(text))?.rows ?? [];

/** A migrated embedded database in DATA_DIR/pglite (a copy of the suite's migrated dump). */
function openEmbedded(config: Config, fromDump = false): Promise<DatabaseHandle> {
  return openPglite({
    dataDir: embeddedDatabaseDir(config.dataDir),
    ...(fromDump ? { loadDataDir: new Blob([readFileSync(inject('pgliteDump'))]) } : {}),
  });
}

/** Hold DATA_DIR's lock with a live process, as a running server does. */
function holdLock(dataDir: string) {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)']);
  writeFileSync(path.join(dataDir, 'barterhood.lock'), String(child.pid));
  return () => {
    child.kill();
    rmSync(path.join(dataDir, 'barterhood.lock'), { force: true });
  };
}

/** Rewrite an archive after `change` edits its extracted files. */
async function tamper(file: string, change: (dir: string) => void): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bh-tamper-'));
  await tar.extract({ file, cwd: dir });
  change(dir);
  const out = path.join(os.tmpdir(), `bh-tampered-${Date.now()}-${Math.random()}.tar.gz`);
  await writeArchive(dir, out);
  rmSync(dir, { recursive: true, force: true });
  return out;
}

describe.skipIf(onPostgres)('backups of the embedded database', () => {
  let config: Config;
  let rows: Record<string, string[]>;
  let photos: Record<string, string>;
  let archive: string;
  let manifest: Manifest;

  beforeAll(async () => {
    config = testConfig();
    const handle = await openEmbedded(config, true);
    await seed(handle, config);
    rows = await everyRow(pgliteQuery(handle));
    photos = photosOnDisk(config.dataDir);
    await handle.close();
    ({ file: archive, manifest } = await createBackup(config));
  });

  afterAll(() => {
    rmSync(config.dataDir, { recursive: true, force: true });
  });

  it('writes one archive with a manifest, the database and every photo', async () => {
    expect(path.dirname(archive)).toBe(path.join(config.dataDir, 'backups'));
    expect(path.basename(archive)).toMatch(/^barterhood-backup-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.tar\.gz$/);
    const names = (await checkArchiveEntries(archive)).map((entry) => entry.path);
    expect(names[0]).toBe(MANIFEST_FILE);
    expect(names).toContain('database/pglite.tar');
    expect(manifest.database.kind).toBe('pglite');
    expect(manifest.migrations.last).toMatch(/^\d{4}_/);
    expect(manifest.tables['public.users']).toBe(2);
    expect(manifest.tables['public.items']).toBe(3);
    expect(manifest.tables['public.messages']).toBe(1);
    expect(manifest.photos.map((photo) => photo.path.replace('photos/', '')).sort()).toEqual(
      Object.keys(photos).sort(),
    );
    for (const photo of manifest.photos) expect(photo.sha256).toBe(photos[photo.path.replace('photos/', '')]);
  });

  it('restores every row and photo after the data is wiped, and again over changed data', async () => {
    rmSync(embeddedDatabaseDir(config.dataDir), { recursive: true, force: true });
    rmSync(path.join(config.dataDir, 'photos'), { recursive: true, force: true });
    const first = await restoreBackup(config, archive);
    expect(first.replaced).toEqual([]);
    let handle = await openEmbedded(config);
    expect(await everyRow(pgliteQuery(handle))).toEqual(rows);
    expect(photosOnDisk(config.dataDir)).toEqual(photos);

    // Changes after the backup are replaced, and kept aside.
    await createUser(handle.db, { email: 'after-backup@example.test' });
    await handle.close();
    const gone = Object.keys(photos)[0] as string;
    rmSync(path.join(config.dataDir, 'photos', gone));
    const second = await restoreBackup(config, archive);
    expect(second.replaced.join('\n')).toMatch(/embedded database .* moved to .*replaced-/);
    expect(second.previousDir && existsSync(path.join(second.previousDir, 'pglite', 'PG_VERSION'))).toBe(
      true,
    );
    handle = await openEmbedded(config);
    expect(await everyRow(pgliteQuery(handle))).toEqual(rows);
    await handle.close();
    expect(photosOnDisk(config.dataDir)).toEqual(photos);
  });

  it('refuses to back up or restore while a server holds the data directory', async () => {
    const release = holdLock(config.dataDir);
    try {
      await expect(createBackup(config)).rejects.toThrow(/only be backed up while the server is stopped/);
      await expect(restoreBackup(config, archive)).rejects.toThrow(/Stop the server before restoring/);
    } finally {
      release();
    }
  });

  it('refuses a hostile archive with ".." or absolute paths, and writes nothing', async () => {
    const work = mkdtempSync(path.join(os.tmpdir(), 'bh-hostile-'));
    const inner = path.join(work, 'inner');
    mkdirSync(inner);
    writeFileSync(path.join(work, 'evil.txt'), 'escaped');
    writeFileSync(path.join(inner, MANIFEST_FILE), '{}');
    const climbing = path.join(work, 'climbing.tar.gz');
    await tar.create({ gzip: true, file: climbing, cwd: inner, preservePaths: true }, [
      MANIFEST_FILE,
      '../evil.txt',
    ]);
    const absolute = path.join(work, 'absolute.tar.gz');
    await tar.create({ gzip: true, file: absolute, cwd: inner, preservePaths: true }, [
      MANIFEST_FILE,
      path.join(work, 'evil.txt'),
    ]);
    const before = readdirSync(path.dirname(config.dataDir)).length;
    await expect(restoreBackup(config, climbing)).rejects.toThrow(/a "\.\." path .*"\.\.\/evil\.txt"/);
    await expect(restoreBackup(config, absolute)).rejects.toThrow(/an absolute path/);
    expect(existsSync(path.join(config.dataDir, '..', 'evil.txt'))).toBe(false);
    expect(readdirSync(path.dirname(config.dataDir)).length).toBe(before);
    rmSync(work, { recursive: true, force: true });
  });

  it('refuses an archive whose photo or database does not match its checksum, and changes nothing', async () => {
    const handle = await openEmbedded(config);
    await createUser(handle.db, { email: 'still-here@example.test' });
    const current = await everyRow(pgliteQuery(handle));
    await handle.close();
    const photo = manifest.photos[0]?.path as string;
    const badPhoto = await tamper(archive, (dir) => writeFileSync(path.join(dir, photo), 'not the photo'));
    await expect(restoreBackup(config, badPhoto)).rejects.toThrow(
      new RegExp(`${photo} does not match its checksum`),
    );
    const extra = await tamper(archive, (dir) => writeFileSync(path.join(dir, 'photos', 'extra.webp'), 'x'));
    await expect(restoreBackup(config, extra)).rejects.toThrow(/photos\/extra\.webp is not listed/);
    const badDb = await tamper(archive, (dir) =>
      writeFileSync(path.join(dir, 'database', 'pglite.tar'), randomBytes(1024)),
    );
    await expect(restoreBackup(config, badDb)).rejects.toThrow(/database\/pglite\.tar does not match/);
    const newer = await tamper(archive, (dir) => {
      const file = path.join(dir, MANIFEST_FILE);
      const edited = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
      edited.migrations.lastWhen = Date.now() + 365 * 86_400_000;
      writeFileSync(file, JSON.stringify(edited));
    });
    await expect(restoreBackup(config, newer)).rejects.toThrow(/newer than this version of Barterhood/);
    const reopened = await openEmbedded(config);
    expect(await everyRow(pgliteQuery(reopened))).toEqual(current);
    await reopened.close();
    for (const file of [badPhoto, extra, badDb, newer]) rmSync(file, { force: true });
  });
});

/** The photos in a store: name -> SHA-256. */
async function photosIn(store: PhotoStore): Promise<Record<string, string>> {
  const all: Record<string, string> = {};
  for (const name of await store.list()) {
    const photo = await store.get(name);
    if (!photo) continue;
    const hash = createHash('sha256');
    for await (const chunk of photo.body) hash.update(chunk as Buffer);
    all[name] = hash.digest('hex');
  }
  return all;
}

describe.skipIf(onPostgres)('backups with the photos in an S3 bucket (STORAGE_URL)', () => {
  let s3: TestS3;
  let config: Config;
  let store: PhotoStore;

  beforeAll(async () => {
    s3 = await startTestS3();
    config = testConfig({ STORAGE_URL: s3.url });
    store = s3PhotoStore(parseStorageUrl(s3.url));
  });
  afterAll(async () => {
    await s3.close();
    rmSync(config.dataDir, { recursive: true, force: true });
  });

  it('copies every photo of the bucket into the archive and writes them back on restore', async () => {
    const handle = await openEmbedded(config, true);
    await seed(handle, config, store);
    const rows = await everyRow(pgliteQuery(handle));
    await handle.close();
    const photos = await photosIn(store);
    expect(Object.keys(photos)).toHaveLength(6);
    expect(photosOnDisk(config.dataDir)).toEqual({});

    // The settings' store is used: nothing tells createBackup or restoreBackup it is S3.
    const { file, manifest } = await createBackup(config);
    expect(manifest.photos.map((photo) => photo.path).sort()).toEqual(
      Object.keys(photos)
        .map((name) => `photos/${name}`)
        .sort(),
    );
    for (const photo of manifest.photos) expect(photo.sha256).toBe(photos[photo.path.slice(7)]);

    // The bucket loses two photos and gains one after the backup.
    const [first, second] = Object.keys(photos) as [string, string];
    await store.remove(`/photos/${first}`);
    await store.remove(`/photos/${second}`);
    const later = await store.put(randomBytes(500), 'webp');

    const result = await restoreBackup(config, file);
    expect(result.photos).toMatch(
      /^6 photos written to the S3 bucket photos at http:\/\/127\.0\.0\.1:\d+ \(4 of them were there already\); 1 photos there are not in the archive/,
    );
    expect(result.photos).not.toContain('S3RVER');
    const after = await openEmbedded(config);
    expect(await everyRow(pgliteQuery(after))).toEqual(rows);
    await after.close();
    // Every archived photo is back; the one added later is left (no restored row names it).
    expect(await photosIn(store)).toEqual({ ...photos, [later.slice(8)]: expect.any(String) });
    expect(photosOnDisk(config.dataDir)).toEqual({});
  });

  it('refuses an archive whose photo is not named by its content, and writes no photo', async () => {
    const { file } = await createBackup(config);
    const renamed = await tamper(file, (dir) => {
      const manifestFile = path.join(dir, MANIFEST_FILE);
      const edited = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
      const photo = edited.photos[0] as Manifest['photos'][number];
      const name = `${'e'.repeat(32)}.webp`;
      renameSync(path.join(dir, photo.path), path.join(dir, 'photos', name));
      photo.path = `photos/${name}`;
      writeFileSync(manifestFile, JSON.stringify(edited));
    });
    const before = await photosIn(store);
    await expect(restoreBackup(config, renamed)).rejects.toThrow(/is not named by its content/);
    expect(await photosIn(store)).toEqual(before);
    rmSync(renamed, { force: true });
  });
});

describe.runIf(onPostgres)('backups of PostgreSQL', () => {
  const templateUrl = inject('pgTemplateUrl');
  const name = `barterhood_backup_test_${process.pid}_${Math.floor(Math.random() * 1e9)}`;
  let adminUrl: string;
  let url: string;
  let config: Config;

  const connect = () => openPostgres({ url, poolMax: 2, statementTimeoutMs: 10_000 });
  const pgQuery =
    (handle: DatabaseHandle): RunQuery =>
    async (text) =>
      (await handle.executeSql?.(text))?.rows as Array<Record<string, unknown>>;

  beforeAll(async () => {
    const admin = new URL(templateUrl);
    admin.pathname = '/postgres';
    adminUrl = admin.toString();
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`CREATE DATABASE ${name} TEMPLATE ${new URL(templateUrl).pathname.slice(1)}`);
    await client.end();
    const target = new URL(templateUrl);
    target.pathname = `/${name}`;
    url = target.toString();
    config = testConfig({ DATABASE_URL: url });
  });

  afterAll(async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
    rmSync(config.dataDir, { recursive: true, force: true });
  });

  it('backs up while connected, then restores every row and photo over changed data', async () => {
    const handle = connect();
    await seed(handle, config);
    const rows = await everyRow(pgQuery(handle));
    const photos = photosOnDisk(config.dataDir);

    // Online: the server's pool stays connected during the backup.
    const { file, manifest } = await createBackup(config);
    expect(manifest.database.kind).toBe('postgres');
    expect(manifest.tables['public.users']).toBe(2);
    expect(manifest.photos).toHaveLength(6);

    // A connected server (application_name barterhood) blocks the restore.
    await expect(restoreBackup(config, file)).rejects.toThrow(/A Barterhood server is connected/);

    await createUser(handle.db, { email: 'after-backup@example.test' });
    await handle.executeSql?.('CREATE TABLE public.added_later (id int)');
    await handle.close();
    rmSync(path.join(config.dataDir, 'photos', Object.keys(photos)[0] as string));

    const result = await restoreBackup(config, file);
    expect(result.replaced[0]).toMatch(new RegExp(`PostgreSQL database ${name}: schemas .*public.* dropped`));
    const after = connect();
    expect(await everyRow(pgQuery(after))).toEqual(rows);
    await after.close();
    expect(photosOnDisk(config.dataDir)).toEqual(photos);
  });

  it('with the photos in an S3 bucket: copies them into the archive and writes them back', async () => {
    const s3 = await startTestS3();
    try {
      const withS3 = testConfig({ DATABASE_URL: url, STORAGE_URL: s3.url });
      const store = s3PhotoStore(parseStorageUrl(s3.url));
      const handle = connect();
      await seed(handle, withS3, store);
      const rows = await everyRow(pgQuery(handle));
      await handle.close();
      const photos = await photosIn(store);
      expect(Object.keys(photos)).toHaveLength(6);

      const { file, manifest } = await createBackup(withS3);
      expect(manifest.photos).toHaveLength(6);
      for (const name of Object.keys(photos)) await store.remove(`/photos/${name}`);
      expect(await store.list()).toEqual([]);

      const result = await restoreBackup(withS3, file);
      expect(result.photos).toMatch(
        /^6 photos written to the S3 bucket photos at http:\/\/127\.0\.0\.1:\d+ \(0 of them/,
      );
      expect(await photosIn(store)).toEqual(photos);
      const after = connect();
      expect(await everyRow(pgQuery(after))).toEqual(rows);
      await after.close();
      rmSync(withS3.dataDir, { recursive: true, force: true });
    } finally {
      await s3.close();
    }
  });

  it('says so clearly when pg_dump is not installed', async () => {
    await expect(createBackup(config, { env: { ...process.env, PATH: '/nonexistent' } })).rejects.toThrow(
      /pg_dump was not found on PATH/,
    );
  });
});
