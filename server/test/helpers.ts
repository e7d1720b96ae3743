import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../app';
import { type Config, loadConfig } from '../config';
import { type DatabaseHandle, openPglite } from '../db/client';
import { openPostgres } from '../db/postgres';

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  config: Config;
  /** Stop the app and throw the database copy away. */
  close(): Promise<void>;
}

/**
 * A fresh database for one test file: a clone of the migrated PGlite, or, when DATABASE_URL is set,
 * a new PostgreSQL database copied from the migrated template.
 */
export async function openTestDatabase(): Promise<{
  handle: DatabaseHandle;
  /** PostgreSQL: the copy's address (for a server in another process). */
  url?: string;
  drop(): Promise<void>;
}> {
  const templateUrl = inject('pgTemplateUrl');
  if (templateUrl) {
    const template = new URL(templateUrl).pathname.slice(1);
    const name = `bh_test_${process.pid}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;
    const adminUrl = new URL(templateUrl);
    adminUrl.pathname = '/postgres';
    const admin = new pg.Client({ connectionString: adminUrl.toString() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    await admin.end();
    const url = new URL(templateUrl);
    url.pathname = `/${name}`;
    // The pool the server ships with (DB_POOL_MAX, DB_STATEMENT_TIMEOUT_MS), not a smaller one:
    // requests and the app's own jobs share it as they do in production.
    const { poolMax, statementTimeoutMs } = loadConfig({
      DATA_DIR: os.tmpdir(),
      SESSION_SECRET: 'x'.repeat(32),
    }).db;
    const handle = openPostgres({ url: url.toString(), poolMax, statementTimeoutMs });
    return {
      handle,
      url: url.toString(),
      async drop() {
        await handle.close();
        const cleanup = new pg.Client({ connectionString: adminUrl.toString() });
        await cleanup.connect();
        await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await cleanup.end();
      },
    };
  }
  const dump = new Blob([readFileSync(inject('pgliteDump'))]);
  const handle = await openPglite({ loadDataDir: dump });
  return { handle, drop: () => handle.close() };
}

/**
 * Settings for tests: the contract's defaults, the gate off unless a test turns it on, and load
 * shedding by the event loop off unless a test turns it on: `app.inject` calls awaited one after
 * another on PGlite may all run in one turn of the loop (ADR 041), which a server's requests, read
 * from sockets, never do.
 */
export function testConfig(overrides: Record<string, string> = {}): Config {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bh-data-'));
  return loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    SESSION_SECRET: 'test-secret-that-is-long-enough-0123456789',
    SITE_PASSWORD: '',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
    SHED_EVENT_LOOP_DELAY_MS: '0',
    ...overrides,
  });
}

/** Build the app on a fresh database copy (one per test file, in beforeAll). */
export async function buildTestApp(overrides: Record<string, string> = {}): Promise<TestApp> {
  const config = testConfig(overrides);
  const { handle, drop } = await openTestDatabase();
  const app = await buildApp({ config, database: handle });
  await app.ready();
  return {
    app,
    database: handle,
    config,
    async close() {
      await app.close();
      await drop();
      rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

/** The JSON body of a response, typed loosely for assertions. */
export function json<T = Record<string, unknown>>(response: LightMyRequestResponse): T {
  return response.json() as T;
}

export type { InjectOptions };

/**
 * Inject as a client does: a 503 SERVICE_UNAVAILABLE that says Retry-After (load shedding, ADR 051)
 * is asked again after the seconds it names, up to `attempts` times; anything else is returned.
 */
export async function injectHonouringRetryAfter(
  app: FastifyInstance,
  options: InjectOptions,
  attempts = 3,
): Promise<LightMyRequestResponse> {
  for (let attempt = 1; ; attempt++) {
    const response = await app.inject(options);
    const retryAfter = Number(response.headers['retry-after']);
    if (response.statusCode !== 503 || !(retryAfter > 0) || attempt >= attempts) return response;
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
  }
}

/** A promise and the function that settles it. */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

/**
 * Hold the whole database until the returned function is called: on PostgreSQL every connection of
 * the requests' pool is checked out (the job queue has its own); on PGlite (one connection) a
 * transaction is held open.
 */
export async function holdDatabase(database: DatabaseHandle): Promise<() => Promise<void>> {
  if (database.kind === 'postgres') {
    const pool = (database.db as unknown as { $client: pg.Pool }).$client;
    const clients: pg.PoolClient[] = [];
    while (clients.length < (pool.options.max ?? 10)) clients.push(await pool.connect());
    return async () => {
      for (const client of clients) client.release();
    };
  }
  const held = deferred();
  const started = deferred();
  const transaction = database.db.transaction(async (tx) => {
    await tx.execute('SELECT 1');
    started.resolve();
    await held.promise;
  });
  await started.promise;
  return async () => {
    held.resolve();
    await transaction;
  };
}
