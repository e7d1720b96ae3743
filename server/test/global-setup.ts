import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPglite } from '../db/client';
import { migrateDatabase } from '../db/migrate';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PGlite: path of a dump of a migrated database, cloned by every test file. */
    pgliteDump: string;
    /** PostgreSQL: a migrated template database every test file copies. */
    pgTemplateUrl: string;
  }
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** Migrate once per run; test files then start from a copy (docs/architecture.md, habit 11). */
export default async function setup(project: TestProject) {
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    const template = `bh_test_template_${process.pid}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${template}`);
    await admin.query(`CREATE DATABASE ${template}`);
    await admin.end();
    const templateUrl = withDatabase(databaseUrl, template);
    const { openPostgres } = await import('../db/postgres');
    const handle = openPostgres({ url: templateUrl, poolMax: 1, statementTimeoutMs: 30_000 });
    await migrateDatabase(handle, templateUrl);
    await handle.close();
    project.provide('pgTemplateUrl', templateUrl);
    project.provide('pgliteDump', '');
    return async () => {
      const cleanup = new pg.Client({ connectionString: databaseUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
      await cleanup.end();
    };
  }
  const handle = await openPglite();
  await migrateDatabase(handle);
  const dump = await handle.pglite?.dumpDataDir();
  await handle.close();
  if (!dump) throw new Error('PGlite dump failed');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bh-test-'));
  const file = path.join(dir, 'migrated.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteDump', file);
  project.provide('pgTemplateUrl', '');
}
