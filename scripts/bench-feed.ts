/**
 * `npm run bench:feed`: how fast the feeds and search answer over HTTP on a big neighbourhood.
 *
 * For each database (PostgreSQL, PGlite or both): fill a fresh database with a synthetic
 * neighbourhood (server/test/neighbourhood.ts, set-based SQL), start the real server in its own
 * process (server/main.ts with NODE_ENV=production, on a free port on 127.0.0.1), sign a few
 * members in through POST /api/auth/login, then send each scenario's requests at a fixed
 * concurrency from this process and report p50/p90/p99, beside a bare GET /healthz on the same
 * server in the same run. Twice: with feed rankings kept between pages (the default) and with
 * every page ranked afresh (PASSES). Stops by itself (bounded count and time).
 *
 * Flags (or environment variables BENCH_<NAME>):
 *   --db=postgres|pglite|both   which databases (default both)
 *   --items=100000 --members=20000 --wants=50000   PostgreSQL neighbourhood
 *   --pglite-items=20000        PGlite neighbourhood (members and wants scale with it)
 *   --requests=300              measured requests per scenario (after 70 warm-up ones)
 *   --concurrency=10            requests in flight
 *   --max-seconds=60            time limit per scenario
 *   --keep                      keep the PostgreSQL database barterhood_bench afterwards
 *   --log-level=info            the server's LOG_LEVEL (production's default: each request logged)
 *   --reuse                     measure the barterhood_bench a --keep run left, without refilling it
 *   --only=match                only the scenarios whose name contains this text
 *   --passes=both|60|0          with rankings kept (FEED_CACHE_SECONDS=60), every page ranked (0), or both
 *   --profile                   the server writes a V8 CPU profile to bench-profiles/ when it stops
 * PostgreSQL: DATABASE_URL names the server (default postgres://postgres@127.0.0.1:5432/postgres);
 * the benchmark creates (and drops) its own database barterhood_bench there.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type DatabaseHandle, openPglite, openPostgres } from '../server/db/client';
import { migrateDatabase } from '../server/db/migrate';
import { hashPassword } from '../server/features/auth/passwords';
import { fillNeighbourhood, type NeighbourhoodSize } from '../server/test/neighbourhood';
import {
  benchHeader,
  loadAverage,
  numberOption,
  option,
  percentile,
  request,
  runBench,
  startServer,
} from './bench-server';

const which = option('db', 'both');
const REQUESTS = numberOption('requests', 300);
/**
 * Requests before each scenario is measured: every member's every request of the scenario once
 * (3 pages x 10 members; search: 7 texts x 10 members), so with rankings kept the measured
 * requests are Load More and return visits, and the first-page cost is the second pass's.
 */
const WARM_UP = 70;
const CONCURRENCY = numberOption('concurrency', 10);
const MAX_SECONDS = numberOption('max-seconds', 60);
const KEEP = option('keep', 'false') === 'true';
const PROFILE = option('profile', 'false') === 'true';
/** Measure the PostgreSQL database a --keep run left, without filling it again (for quick iterations). */
const REUSE = option('reuse', 'false') === 'true';
/** Only the scenarios whose name contains this text. */
const ONLY = option('only', '');
/** The server's LOG_LEVEL: production's default, so each request is logged as it would be. */
const LOG_LEVEL = option('log-level', 'info');
const PASSWORD = 'bench-password-1';
const VIEWERS = 10;
/** Requests per scenario sent one at a time afterwards, for the service time without queueing. */
const SINGLE_REQUESTS = 100;

const postgresSize: NeighbourhoodSize = {
  items: numberOption('items', 100_000),
  members: numberOption('members', 20_000),
  wants: numberOption('wants', 50_000),
};
postgresSize.trades = Math.round(postgresSize.members / 2);
postgresSize.saves = postgresSize.members;
const pgliteItems = numberOption('pglite-items', 20_000);
const pgliteSize: NeighbourhoodSize = {
  items: pgliteItems,
  members: Math.max(100, Math.round((pgliteItems * postgresSize.members) / postgresSize.items)),
  wants: Math.max(100, Math.round((pgliteItems * postgresSize.wants) / postgresSize.items)),
};
pgliteSize.trades = Math.round(pgliteSize.members / 2);
pgliteSize.saves = pgliteSize.members;

interface Scenario {
  name: string;
  /** The path of request number `n` by viewer `v` (viewers and pages vary, so no single plan or row is hot). */
  path: (n: number, v: number) => string;
  healthz?: boolean;
}

const SEARCHES = ['drill', 'mountain bike', 'guitar lessons', 'dril', 'lamp', 'camping tent', 'kayak'];
const page = (n: number) => (n % 3) * 20;

const SCENARIOS: Scenario[] = [
  { name: 'GET /healthz (bare route)', path: () => '/healthz', healthz: true },
  { name: 'everything (recent)', path: (n) => `/api/feed/everything?offset=${page(n)}` },
  { name: 'everything, sort=distance', path: (n) => `/api/feed/everything?sort=distance&offset=${page(n)}` },
  { name: 'everything, sort=value', path: (n) => `/api/feed/everything?sort=value&offset=${page(n)}` },
  { name: 'random-barter', path: (n, v) => `/api/feed/random-barter?seed=${1000 + v}&offset=${page(n)}` },
  { name: 'barter-match (recent)', path: (n) => `/api/feed/barter-match?offset=${page(n)}` },
  { name: 'barter-match, sort=match', path: (n) => `/api/feed/barter-match?sort=match&offset=${page(n)}` },
  {
    name: 'search (everything, q=...)',
    path: (n) => `/api/feed/everything?q=${encodeURIComponent(SEARCHES[n % SEARCHES.length] ?? 'drill')}`,
  },
];

/**
 * Each neighbourhood is measured twice: as the server runs by default, keeping feed rankings
 * between pages (ADR 012), and with FEED_CACHE_SECONDS=0, where every page is ranked afresh (the
 * cost of a first page, a search never made before, or a feed just after a listing changed).
 */
const PASSES = [
  { title: 'Rankings kept between pages (FEED_CACHE_SECONDS=60, the default)', feedCacheSeconds: '60' },
  { title: 'Every page ranked afresh (FEED_CACHE_SECONDS=0)', feedCacheSeconds: '0' },
].filter((pass) => option('passes', 'both') === 'both' || option('passes', 'both') === pass.feedCacheSeconds);

interface Pass {
  title: string;
  results: Result[];
}

interface Result {
  name: string;
  /** p50 with one request at a time: the service time, without queueing. */
  alone?: number;
  count: number;
  errors: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  perSecond: number;
  items: number;
}

/** Send `count` requests, `CONCURRENCY` at a time, each worker cycling through the viewers. */
async function run(
  base: string,
  scenario: Scenario,
  cookies: string[],
  count: number,
  measure: boolean,
  concurrency = CONCURRENCY,
) {
  const latencies: number[] = [];
  let errors = 0;
  let items = 0;
  let next = 0;
  const deadline = Date.now() + MAX_SECONDS * 1000;
  const started = performance.now();
  const worker = async () => {
    while (next < count && Date.now() < deadline) {
      const n = next++;
      const v = n % cookies.length;
      const t0 = performance.now();
      const response = await request(
        base,
        'GET',
        scenario.path(n, v),
        scenario.healthz ? {} : { cookie: cookies[v] ?? '' },
      );
      const body = response.body;
      const elapsed = performance.now() - t0;
      if (response.status !== 200) {
        errors++;
        if (errors <= 3) console.error(`  ${response.status} ${scenario.path(n, v)}: ${body.slice(0, 200)}`);
        continue;
      }
      if (!scenario.healthz) items += (JSON.parse(body) as unknown[]).length;
      latencies.push(elapsed);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  if (!measure) return null;
  latencies.sort((a, b) => a - b);
  const result: Result = {
    name: scenario.name,
    count: latencies.length,
    errors,
    p50: percentile(latencies, 50),
    p90: percentile(latencies, 90),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? Number.NaN,
    perSecond: latencies.length / seconds,
    items: latencies.length ? items / latencies.length : 0,
  };
  return result;
}

/** Give a few members (with a location, wants and items, spread over the towns) a password. */
async function chooseViewers(db: DatabaseHandle['db']): Promise<string[]> {
  const result = (await db.execute(sql`
    SELECT email FROM (
      SELECT u.email, row_number() OVER (PARTITION BY u.location ORDER BY u.email) AS k
      FROM users u
      WHERE u.email LIKE 'bench-%' AND u.latitude IS NOT NULL
        AND (SELECT count(*) FROM wants w WHERE w.user_id = u.id AND w.is_active) >= 2
        AND EXISTS (SELECT 1 FROM items i WHERE i.user_id = u.id AND i.is_active)) ranked
    WHERE k <= 2 ORDER BY k, email LIMIT ${VIEWERS}`)) as unknown as { rows: Array<{ email: string }> };
  const emails = result.rows.map((row) => row.email);
  const hash = await hashPassword(PASSWORD);
  for (const email of emails) {
    await db.execute(sql`UPDATE users SET password_hash = ${hash} WHERE email = ${email}`);
  }
  return emails;
}

async function signIn(base: string, email: string): Promise<string> {
  const response = await request(
    base,
    'POST',
    '/api/auth/login',
    { 'content-type': 'application/json' },
    JSON.stringify({ email, password: PASSWORD }),
  );
  if (response.status !== 200)
    throw new Error(`sign-in of ${email} failed: ${response.status} ${response.body}`);
  const cookie = response.setCookie.find((value) => value.startsWith('bh_session='));
  if (!cookie) throw new Error(`sign-in of ${email} set no session cookie`);
  return cookie.split(';', 1)[0] as string;
}

async function counts(db: DatabaseHandle['db']) {
  const result = (await db.execute(sql`SELECT
      (SELECT count(*) FROM items)::int AS items, (SELECT count(*) FROM users)::int AS members,
      (SELECT count(*) FROM wants)::int AS wants, (SELECT count(*) FROM barter_requests)::int AS trades,
      (SELECT count(*) FROM saved_items)::int AS saves,
      (SELECT version()) AS version`)) as unknown as { rows: Array<Record<string, number | string>> };
  return result.rows[0] ?? {};
}

/**
 * Fill `database`, close it, then measure the server started on it with `serverEnv` (its own process).
 */
async function bench(
  label: string,
  open: () => Promise<DatabaseHandle>,
  size: NeighbourhoodSize | null,
  serverEnv: Record<string, string>,
) {
  console.log(
    size
      ? `\n## ${label}: filling ${size.items} items, ${size.members} members, ${size.wants} wants`
      : `\n## ${label}: the neighbourhood a --keep run left`,
  );
  let started = performance.now();
  const database = await open();
  let fillSeconds: number;
  let stats: Awaited<ReturnType<typeof counts>>;
  let emails: string[];
  try {
    if (size) await fillNeighbourhood(database.db, size);
    fillSeconds = (performance.now() - started) / 1000;
    stats = await counts(database.db);
    console.log(`  filled in ${fillSeconds.toFixed(1)} s: ${JSON.stringify(stats)}`);
    emails = await chooseViewers(database.db);
  } finally {
    await database.close();
  }
  const passes: Pass[] = [];
  for (const pass of PASSES) {
    const results: Result[] = [];
    const server = await startServer(
      { ...serverEnv, FEED_CACHE_SECONDS: pass.feedCacheSeconds },
      { logLevel: LOG_LEVEL, profile: PROFILE },
    );
    try {
      const base = server.base;
      const cookies: string[] = [];
      for (const email of emails) cookies.push(await signIn(base, email));
      console.log(
        `  ${pass.title}: server (own process) on ${base}, ${cookies.length} members signed in; ` +
          `${CONCURRENCY} requests in flight`,
      );

      for (const scenario of SCENARIOS.filter((s) => s.healthz || s.name.includes(ONLY))) {
        started = performance.now();
        await run(base, scenario, cookies, WARM_UP, false);
        const result = await run(base, scenario, cookies, REQUESTS, true);
        const single = await run(base, scenario, cookies, SINGLE_REQUESTS, true, 1);
        if (result) {
          result.alone = single?.p50;
          results.push(result);
          console.log(
            `  ${scenario.name.padEnd(30)} alone p50 ${(result.alone ?? Number.NaN).toFixed(1).padStart(6)} ms | p50 ${result.p50.toFixed(1).padStart(7)} ms  p90 ${result.p90.toFixed(1).padStart(7)} ms  ` +
              `p99 ${result.p99.toFixed(1).padStart(7)} ms  ${result.perSecond.toFixed(0).padStart(5)} req/s  ` +
              `${result.items.toFixed(1)} items/page${result.errors ? `  ${result.errors} errors` : ''}`,
          );
        }
      }
    } finally {
      await server.stop();
    }
    passes.push({ title: pass.title, results });
  }
  return { label, size, stats, fillSeconds, passes };
}

function markdown(report: Awaited<ReturnType<typeof bench>>): string {
  const lines = [
    `### ${report.label}`,
    '',
    `${report.stats.items} items, ${report.stats.members} members, ${report.stats.wants} wants, ` +
      `${report.stats.trades} completed trades, ${report.stats.saves} saved items; filled in ` +
      `${report.fillSeconds.toFixed(1)} s. ${CONCURRENCY} concurrent requests, ${REQUESTS} measured per row ` +
      `(after ${WARM_UP} warm-up), pages 1 to 3, ${VIEWERS} members in turn; then ${SINGLE_REQUESTS} ` +
      'one at a time (last column).',
  ];
  for (const pass of report.passes) {
    lines.push(
      '',
      `#### ${pass.title}`,
      '',
      '| request | p50 ms | p90 ms | p99 ms | max ms | req/s | items/page | p50 ms one at a time |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    );
    for (const r of pass.results) {
      lines.push(
        `| ${r.name} | ${r.p50.toFixed(1)} | ${r.p90.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.max.toFixed(1)} | ` +
          `${r.perSecond.toFixed(0)} | ${r.name.startsWith('GET /healthz') ? '' : r.items.toFixed(1)} | ` +
          `${(r.alone ?? Number.NaN).toFixed(1)} |`,
      );
    }
  }
  return lines.join('\n');
}

async function main() {
  const reports: Array<Awaited<ReturnType<typeof bench>>> = [];
  console.log(benchHeader('bench:feed'));

  if (which === 'postgres' || which === 'both') {
    const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = 'barterhood_bench'");
    const reuse = REUSE && exists.rowCount === 1;
    if (!reuse) {
      await admin.query('DROP DATABASE IF EXISTS barterhood_bench WITH (FORCE)');
      await admin.query('CREATE DATABASE barterhood_bench');
    }
    const url = new URL(serverUrl);
    url.pathname = '/barterhood_bench';
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bh-bench-data-'));
    try {
      const open = async () => {
        const database = openPostgres({ url: url.toString(), poolMax: 10, statementTimeoutMs: 600_000 });
        await migrateDatabase(database, url.toString());
        return database;
      };
      reports.push(
        await bench('PostgreSQL', open, reuse ? null : postgresSize, {
          DATABASE_URL: url.toString(),
          DATA_DIR: dataDir,
        }),
      );
    } finally {
      if (!KEEP && !REUSE) await admin.query('DROP DATABASE IF EXISTS barterhood_bench WITH (FORCE)');
      await admin.end();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }

  if (which === 'pglite' || which === 'both') {
    // The server's own layout: PGlite under DATA_DIR/pglite, opened by the server after the fill.
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bh-bench-pglite-'));
    try {
      const open = async () => {
        const database = await openPglite({ dataDir: path.join(dataDir, 'pglite') });
        await migrateDatabase(database);
        return database;
      };
      reports.push(await bench('PGlite', open, pgliteSize, { DATA_DIR: dataDir }));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }

  console.log(`\n${reports.map(markdown).join('\n\n')}\n`);
  console.log(`load average at the end: ${loadAverage()}`);
}

runBench(main);
