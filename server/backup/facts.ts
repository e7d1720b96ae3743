import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MIGRATIONS_DIR } from '../db/migrate';

/** Plain SQL text in, rows out: PGlite's client or a node-postgres client. */
export type RunQuery = (text: string) => Promise<Array<Record<string, unknown>>>;

/** How far a database's schema is: the migrations drizzle has recorded in it. */
export interface MigrationLevel {
  /** How many migrations are recorded as applied. */
  applied: number;
  /** The newest one's tag from drizzle/meta/_journal.json ("0021_circle-changes-once"), or null. */
  last: string | null;
  /** The newest one's `when` (drizzle's created_at, milliseconds), or null when none. */
  lastWhen: number | null;
}

interface JournalEntry {
  tag: string;
  when: number;
}

/** The migrations this code knows (drizzle/meta/_journal.json), oldest first. */
export function knownMigrations(): JournalEntry[] {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as {
    entries: JournalEntry[];
  };
  return journal.entries.map(({ tag, when }) => ({ tag, when }));
}

/** This code's migration level: what a database it has migrated records. */
export function codeMigrationLevel(): MigrationLevel {
  const known = knownMigrations();
  const last = known.at(-1);
  return { applied: known.length, last: last?.tag ?? null, lastWhen: last?.when ?? null };
}

/** Names the backup accepts for schemas and tables (its manifest is read back from a file). */
export const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Every ordinary table outside the system schemas, as "schema.table". */
export async function listTables(query: RunQuery): Promise<string[]> {
  const rows = await query(
    `SELECT table_schema AS s, table_name AS t FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')
        AND table_schema NOT LIKE 'pg\\_%'
      ORDER BY 1, 2`,
  );
  return rows.map((row) => `${row.s}.${row.t}`);
}

/** Rows per table ("schema.table" -> count), in one statement. */
export async function countRows(query: RunQuery, tables: string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  if (tables.length === 0) return counts;
  const parts = tables.map((table, index) => {
    const [schema = '', name = ''] = table.split('.');
    return `SELECT ${index} AS i, count(*)::text AS n FROM ${quoteIdent(schema)}.${quoteIdent(name)}`;
  });
  const rows = await query(parts.join(' UNION ALL '));
  for (const row of rows) counts[tables[Number(row.i)] as string] = Number(row.n);
  return counts;
}

/** The migrations recorded in the database (drizzle.__drizzle_migrations), named from the journal. */
export async function databaseMigrationLevel(query: RunQuery): Promise<MigrationLevel> {
  const [exists] = await query(`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS e`);
  if (!exists?.e) return { applied: 0, last: null, lastWhen: null };
  const rows = await query(
    'SELECT created_at::text AS w FROM drizzle.__drizzle_migrations ORDER BY created_at',
  );
  const last = rows.at(-1);
  if (!last) return { applied: 0, last: null, lastWhen: null };
  const lastWhen = Number(last.w);
  const tag = knownMigrations().find((entry) => entry.when === lastWhen)?.tag ?? `unknown (${lastWhen})`;
  return { applied: rows.length, last: tag, lastWhen };
}
