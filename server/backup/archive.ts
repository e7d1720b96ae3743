import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import * as tar from 'tar';
import { z } from 'zod';
import { IDENTIFIER } from './facts';

/** Raised for anything that makes a backup or a restore stop; the message says what to do. */
export class BackupError extends Error {
  override name = 'BackupError';
}

export const ARCHIVE_FORMAT = 'barterhood-backup';
export const ARCHIVE_FORMAT_VERSION = 1;
export const MANIFEST_FILE = 'manifest.json';
export const DATABASE_FILES = { pglite: 'database/pglite.tar', postgres: 'database/postgres.dump' } as const;
export const PHOTOS_DIR = 'photos';

const sha256 = z.string().regex(/^[a-f0-9]{64}$/);
/** A photo's path inside the archive: under photos/, plain names only (checked again on extraction). */
const photoPath = z
  .string()
  .regex(/^photos\/[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/)
  .refine((value) => !value.split('/').includes('..'));

export const manifestSchema = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  formatVersion: z.number().int(),
  createdAt: z.iso.datetime(),
  database: z.object({
    kind: z.enum(['pglite', 'postgres']),
    file: z.string(),
    bytes: z.number().int().nonnegative(),
    sha256,
    /** PostgreSQL's server_version, or PGlite's. */
    serverVersion: z.string(),
  }),
  migrations: z.object({
    applied: z.number().int().nonnegative(),
    last: z.string().nullable(),
    lastWhen: z.number().int().nullable(),
  }),
  /** Rows per table, "schema.table" -> count, read in the same snapshot as the dump. */
  tables: z.record(
    z.string().refine((name) => {
      const [schema, table, extra] = name.split('.');
      return extra === undefined && IDENTIFIER.test(schema ?? '') && IDENTIFIER.test(table ?? '');
    }, 'table names must be schema.table in lower case'),
    z.number().int().nonnegative(),
  ),
  photos: z.array(z.object({ path: photoPath, bytes: z.number().int().nonnegative(), sha256 })),
});

export type Manifest = z.infer<typeof manifestSchema>;

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Write `dir` (manifest.json, database/, photos/) as a gzipped tar at `file`. */
export async function writeArchive(dir: string, file: string): Promise<void> {
  await tar.create({ gzip: true, file, cwd: dir, portable: true, strict: true }, [
    MANIFEST_FILE,
    'database',
    PHOTOS_DIR,
  ]);
}

interface ArchiveEntry {
  path: string;
  type: string;
  size: number;
}

/** Why an archive entry is refused, or null when it may be extracted. */
function refusal(entry: ArchiveEntry): string | null {
  const name = entry.path;
  if (name.startsWith('/') || name.startsWith('\\') || /^[A-Za-z]:/.test(name)) return 'an absolute path';
  const parts = name.split(/[\\/]+/).filter((part) => part !== '' && part !== '.');
  if (parts.includes('..')) return 'a ".." path that leads outside the archive';
  if (entry.type !== 'File' && entry.type !== 'Directory')
    return `a ${entry.type} entry (only files and folders are allowed)`;
  const top = parts[0];
  if (top === MANIFEST_FILE && parts.length === 1 && entry.type === 'File') return null;
  if (top === 'database' || top === PHOTOS_DIR) return null;
  return 'a path outside manifest.json, database/ and photos/';
}

/**
 * Read every entry's header (nothing is written) and refuse the archive if any entry is absolute,
 * climbs out with "..", is a link or device, or lies outside manifest.json, database/ and photos/.
 */
export async function checkArchiveEntries(file: string): Promise<ArchiveEntry[]> {
  const entries: ArchiveEntry[] = [];
  try {
    await tar.list({
      file,
      strict: true,
      onReadEntry: (entry) => {
        entries.push({ path: entry.path, type: entry.type, size: entry.size ?? 0 });
      },
    });
  } catch (error) {
    throw new BackupError(`${file} is not a readable backup archive: ${(error as Error).message}`);
  }
  const seen = new Set<string>();
  for (const entry of entries) {
    const reason = refusal(entry);
    if (reason) {
      throw new BackupError(`Refusing ${file}: it holds ${reason} ("${entry.path}"). Nothing was changed.`);
    }
    const key = path.posix.normalize(entry.path).replace(/\/$/, '');
    if (entry.type === 'File' && seen.has(key)) {
      throw new BackupError(`Refusing ${file}: it holds "${entry.path}" twice. Nothing was changed.`);
    }
    seen.add(key);
  }
  if (!seen.has(MANIFEST_FILE)) throw new BackupError(`Refusing ${file}: it has no ${MANIFEST_FILE}.`);
  return entries;
}

/** Extract an archive that passed checkArchiveEntries into the empty directory `dir`. */
export async function extractArchive(file: string, dir: string): Promise<void> {
  await tar.extract({
    file,
    cwd: dir,
    strict: true,
    preservePaths: false,
    // Checked already; this keeps anything but files and folders out even if a header changed.
    filter: (_path, entry) => 'type' in entry && (entry.type === 'File' || entry.type === 'Directory'),
  });
}

/** Read and validate the manifest of an extracted archive. */
export async function readManifest(dir: string, file: string): Promise<Manifest> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path.join(dir, MANIFEST_FILE), 'utf8'));
  } catch (error) {
    throw new BackupError(
      `Refusing ${file}: its ${MANIFEST_FILE} cannot be read (${(error as Error).message}).`,
    );
  }
  const format = (raw as { format?: unknown; formatVersion?: unknown }) ?? {};
  if (format.format !== ARCHIVE_FORMAT) {
    throw new BackupError(
      `Refusing ${file}: it is not a Barterhood backup (no "${ARCHIVE_FORMAT}" manifest).`,
    );
  }
  if (format.formatVersion !== ARCHIVE_FORMAT_VERSION) {
    throw new BackupError(
      `Refusing ${file}: its format version is ${String(format.formatVersion)}; this version of Barterhood reads version ${ARCHIVE_FORMAT_VERSION}.`,
    );
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) {
    throw new BackupError(
      `Refusing ${file}: its manifest is not valid (${parsed.error.issues[0]?.message}).`,
    );
  }
  return parsed.data;
}

/**
 * Check the extracted files against the manifest: the database dump's size and SHA-256, every
 * photo's, and no photo the manifest does not list. Throws BackupError naming the first mismatch.
 */
export async function verifyExtracted(dir: string, manifest: Manifest, file: string): Promise<void> {
  const expectedDb = DATABASE_FILES[manifest.database.kind];
  if (manifest.database.file !== expectedDb) {
    throw new BackupError(`Refusing ${file}: its database file should be ${expectedDb}.`);
  }
  const check = async (name: string, bytes: number, digest: string) => {
    const full = path.join(dir, name);
    const info = await stat(full).catch(() => null);
    if (!info?.isFile())
      throw new BackupError(`Refusing ${file}: ${name} is listed in the manifest but missing.`);
    if (info.size !== bytes || (await sha256File(full)) !== digest) {
      throw new BackupError(
        `Refusing ${file}: ${name} does not match its checksum in the manifest (damaged or altered). Nothing was changed.`,
      );
    }
  };
  await check(manifest.database.file, manifest.database.bytes, manifest.database.sha256);
  const listed = new Set<string>();
  for (const photo of manifest.photos) {
    await check(photo.path, photo.bytes, photo.sha256);
    listed.add(photo.path);
  }
  const photosDir = path.join(dir, PHOTOS_DIR);
  const present = await readdir(photosDir, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const entry of present) {
    if (!entry.isFile()) continue;
    const name = path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    if (!listed.has(name)) {
      throw new BackupError(`Refusing ${file}: ${name} is not listed in the manifest. Nothing was changed.`);
    }
  }
}
