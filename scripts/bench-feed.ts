/**
 * `npm run bench:feed`: how fast the feeds and search answer over HTTP on a big neighbourhood.
 *
 * For each database (PostgreSQL, PGlite or both): fill a fresh database with a synthetic
 * neighbourhood (server/test/neighbourhood.ts, set-based SQL), build the match graphs of the
 * members measured (as the job does when a member first opens Barter Match, ADR 022), start the
 * real server in its own process (the compiled build as `npm start` runs it, NODE_ENV=production, on a free port on
 * 127.0.0.1), sign those members in through POST /api/auth/login, then send each scenario's
 * requests with autocannon at a fixed concurrency and report p50/p90/p99/max and req/s of the 200s,
 * the 503s the server shed (ADR 041) apart with their reasons, and the slowest answer of any status,
 * beside a bare GET /healthz on the same server in the same run (each row's req/s also as a share
 * of its).
 * Twice: with feed rankings kept between pages (the default) and with every page ranked afresh
 * (PASSES). Stops by itself (bounded count and time).
 *
 * Flags (or environment variables BENCH_<NAME>):
 *   --db=postgres|pglite|both   which databases (default both)
 *   --items=100000              PostgreSQL neighbourhood (1000000 for the city-sized run); members
 *   --members=N --wants=N       and wants default to a fifth and a half of the items
 *   --pglite-items=100000       PGlite neighbourhood (members and wants scale with it)
 *   --seconds=5                 how long each scenario is measured (after 70 warm-up requests)
 *   --concurrency=10            requests in flight (autocannon connections; 200 for issue 18's overload)
 *   --max-seconds=60            time limit of the warm-up and one-at-a-time runs
 *   --db-name=barterhood_bench  the PostgreSQL database the benchmark creates, fills and drops
 *   --keep                      keep that database afterwards
 *   --reuse                     measure the database a --keep run left, without refilling it
 *   --fill-only                 fill (and build the graphs), measure nothing
 *   --log-level=info            the server's LOG_LEVEL (production's default: each request logged)
 *   --only=match                only the scenarios whose name contains this text
 *   --passes=kept,ranked        which passes: kept (rankings kept, the default), ranked (the ranking
 *                               cache off, cards kept), none (nothing kept), or all
 *   --shedding=both             each pass also with load shedding off, right after (ADR 041)
 *   --profile                   the server writes a V8 CPU profile to bench-profiles/ when it stops
 * PostgreSQL: DATABASE_URL names the server (default postgres://postgres@127.0.0.1:5432/postgres).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type DatabaseHandle, openPglite } from '#server/db/client.ts';
import { migrateDatabase } from '#server/db/migrate.ts';
import { openPostgres } from '#server/db/postgres.ts';
import { hashPassword } from '#server/features/auth/index.ts';
import { requestGraph, settleMatchGraph } from '#server/features/match-graph/index.ts';
import { fillNeighbourhood, type NeighbourhoodSize } from '#server/test/neighbourhood.ts';
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
/** Seconds each scenario is measured for at CONCURRENCY (autocannon counts whole seconds). */
const SECONDS = numberOption('seconds', 5);
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
/** Fill (and with --keep keep) the database, measure nothing. */
const FILL_ONLY = option('fill-only', 'false') === 'true';
/** The PostgreSQL database the benchmark creates, fills and drops. */
const DB_NAME = option('db-name', 'barterhood_bench');
if (!/^[a-z_][a-z0-9_]*$/.test(DB_NAME)) throw new Error('--db-name must be a plain lower-case identifier');
/** Only the scenarios whose name contains this text. */
const ONLY = option('only', '');
/** The server's LOG_LEVEL: production's default, so each request is logged as it would be. */
const LOG_LEVEL = option('log-level', 'info');
const PASSWORD = 'bench-password-1';
const VIEWERS = 10;
/** Requests per scenario sent one at a time afterwards, for the service time without queueing. */
const SINGLE_REQUESTS = 100;

/** Members and wants per item when only --items is given: the default neighbourhood's ratios. */
const ITEMS = numberOption('items', 100_000);
const postgresSize: NeighbourhoodSize = {
  items: ITEMS,
  members: numberOption('members', Math.round(ITEMS / 5)),
  wants: numberOption('wants', Math.round(ITEMS / 2)),
};
postgresSize.trades = Math.round(postgresSize.members / 2);
postgresSize.saves = postgresSize.members;
const pgliteItems = numberOption('pglite-items', 100_000);
const pgliteSize: NeighbourhoodSize = {
  items: pgliteItems,
  members: Math.max(100, Math.round(pgliteItems / 5)),
  wants: Math.max(100, Math.round(pgliteItems / 2)),
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
    name: 'barter-match, sort=distance',
    path: (n) => `/api/feed/barter-match?sort=distance&offset=${page(n)}`,
  },
  {
    name: 'search (everything, q=...)',
    path: (n) => `/api/feed/everything?q=${encodeURIComponent(SEARCHES[n % SEARCHES.length] ?? 'drill')}`,
  },
  // Issue 31's filters and pages: the condition filter, typos two edits away, the map, the item page.
  {
    name: 'everything, condition=good',
    path: (n) => `/api/feed/everything?condition=good&offset=${page(n)}`,
  },
  {
    name: 'barter-match, condition=like-new',
    path: (n) => `/api/feed/barter-match?condition=like-new&offset=${page(n)}`,
  },
  {
    name: 'search, two edits (q=gitar...)',
    path: (n) => `/api/feed/everything?q=${encodeURIComponent(TYPOS[n % TYPOS.length] ?? 'gitar')}`,
  },
  { name: 'everything, map', path: () => '/api/feed/everything/map' },
  {
    name: 'item page (GET /api/public/items/:id)',
    path: (n, v) => `/api/public/items/${ITEM_IDS[(n * 31 + v) % Math.max(1, ITEM_IDS.length)] ?? 1}`,
  },
];

/** Misspellings two edits from listed words (ADR 085, addendum): the vocabulary is scanned for each. */
const TYPOS = ['gitar', 'tunup', 'kayakk', 'campng tent', 'moutain bike'];
/** Listed items the item-page scenario asks for (read after the fill). */
const ITEM_IDS: number[] = [];

/**
 * Each neighbourhood is measured as the server runs by default, keeping feed rankings between
 * pages (ADR 012), and with the ranking cache off, where every page is ranked afresh (the cost of a
 * first page, a search never made before, or a feed just after a listing changed); on request also
 * with nothing kept at all.
 */
const PASSES = (
  [
    {
      name: 'kept',
      title: 'Rankings kept between pages (FEED_CACHE_SECONDS=60, the default)',
      env: { FEED_CACHE_SECONDS: '60' },
    },
    {
      name: 'ranked',
      title: 'Every page ranked afresh, the ranking cache off (FEED_RANKING_CACHE_SECONDS=0; cards kept)',
      env: { FEED_CACHE_SECONDS: '60', FEED_RANKING_CACHE_SECONDS: '0' },
    },
    {
      name: 'none',
      title: 'Nothing kept, cards read on every page too (FEED_CACHE_SECONDS=0)',
      env: { FEED_CACHE_SECONDS: '0' },
    },
  ] as Array<{ name: string; title: string; env: Record<string, string> }>
)
  .filter((pass) => {
    const chosen = option('passes', 'kept,ranked').split(',');
    return chosen.includes('all') || chosen.includes(pass.name);
  })
  .flatMap((pass) =>
    // --shedding=both: each pass also with load shedding off (ADR 041), right after, on the same data.
    option('shedding', 'on') === 'both'
      ? [
          pass,
          {
            ...pass,
            title: `${pass.title}, load shedding off`,
            env: { ...pass.env, SHED_EVENT_LOOP_DELAY_MS: '0', SHED_DB_WAITING: '0', SHED_DB_WAIT_MS: '0' },
          },
        ]
      : [pass],
  );

interface Pass {
  title: string;
  results: Result[];
}

interface Result {
  name: string;
  /** p50 with one request at a time: the service time, without queueing. */
  alone?: number;
  /** Answered 200. */
  count: number;
  /** Shed: answered 503 at once (load shedding, ADR 041). */
  shed: number;
  /** Anything else: other statuses, connection errors, timeouts. */
  errors: number;
  /** Latencies of the 200s. */
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** The slowest answer of any status on a connection already open (the issue's "nothing waits more than 2 s"). */
  maxAll: number;
  /** The slowest first answer on one of autocannon's new connections (it includes opening it). */
  maxFirst: number;
  /** The slowest 503. */
  shedMax: number;
  /** The server's shed requests by reason during the measurement (http_requests_shed_total). */
  shedReasons: Record<string, number>;
  /** 200s per second. */
  perSecond: number;
  items: number;
}

/**
 * `length` (a number of requests, or seconds) with autocannon, `concurrency` connections, each request's path and cookie from
 * a shared counter (viewers in turn, pages and search texts varying); a sample of the bodies is
 * parsed for the items per page. Each answer's time is kept by status, so shed requests (fast
 * 503s, ADR 041) are counted apart and do not flatter the latencies of the 200s.
 */
async function run(
  base: string,
  scenario: Scenario,
  cookies: string[],
  length: { requests: number } | { seconds: number },
  measure: boolean,
  concurrency = CONCURRENCY,
) {
  let next = 0;
  let sampled = 0;
  let items = 0;
  const failures: string[] = [];
  const ok: number[] = [];
  const shed: number[] = [];
  let other = 0;
  let slowest = 0;
  let slowestFirst = 0;
  const shedBefore = measure ? await shedCounts(base) : {};
  const started = performance.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: base,
        connections: concurrency,
        ...('requests' in length
          ? { amount: Math.max(length.requests, concurrency), duration: MAX_SECONDS }
          : { duration: length.seconds }),
        requests: [
          {
            setupRequest(req: autocannon.Request & { n?: number }) {
              const n = next++;
              const v = n % cookies.length;
              const path = scenario.path(n, v);
              return { ...req, path, headers: scenario.healthz ? {} : { cookie: cookies[v] ?? '' } };
            },
            onResponse(status: number, body: string) {
              if (status !== 200) {
                if (status !== 503 && failures.length < 3) failures.push(`${status}: ${body.slice(0, 200)}`);
                return;
              }
              if (!scenario.healthz && sampled < 50) {
                sampled++;
                items += (JSON.parse(body) as unknown[]).length;
              }
            },
          },
        ],
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    const connections = new Set<unknown>();
    instance.on('response', (connection: unknown, status: number, _bytes: number, ms: number) => {
      // The first answer on each of autocannon's new connections includes opening it.
      if (!connections.has(connection)) {
        connections.add(connection);
        if (ms > slowestFirst) slowestFirst = ms;
      } else if (ms > slowest) slowest = ms;
      if (status === 200) ok.push(ms);
      else if (status === 503) shed.push(ms);
      else other++;
    });
  });
  const seconds = (performance.now() - started) / 1000;
  for (const failure of failures) console.error(`  ${scenario.name}: ${failure}`);
  if (!measure) return null;
  const shedAfter = await shedCounts(base);
  ok.sort((a, b) => a - b);
  shed.sort((a, b) => a - b);
  const out: Result = {
    name: scenario.name,
    count: ok.length,
    shed: shed.length,
    errors: other + result.errors + result.timeouts,
    p50: percentile(ok, 50),
    p90: percentile(ok, 90),
    p99: percentile(ok, 99),
    max: ok.at(-1) ?? Number.NaN,
    maxAll: slowest,
    maxFirst: slowestFirst,
    shedMax: shed.at(-1) ?? 0,
    shedReasons: Object.fromEntries(
      Object.entries(shedAfter)
        .map(([reason, n]) => [reason, n - (shedBefore[reason] ?? 0)] as const)
        .filter(([, n]) => n > 0),
    ),
    perSecond: ok.length / seconds,
    items: sampled ? items / sampled : 0,
  };
  return out;
}

/** The token the benchmark's server exposes /metrics with, to read its shed requests by reason. */
const METRICS_TOKEN = 'bench-metrics-token-that-is-long-enough-0123';

/**
 * Wait until the server has worked off what a run left in flight (autocannon stops with requests
 * unanswered, which the server still serves): until /healthz answers promptly twice in a row and
 * nothing waits for the database, so the next run starts on an idle server (at most 10 s).
 */
async function settle(base: string): Promise<void> {
  const deadline = performance.now() + 10_000;
  let prompt = 0;
  while (prompt < 2 && performance.now() < deadline) {
    const started = performance.now();
    await request(base, 'GET', '/healthz', {});
    const metrics = await request(base, 'GET', '/metrics', { authorization: `Bearer ${METRICS_TOKEN}` });
    const idle = /^db_pool_waiting 0$/m.test(metrics.body);
    prompt = idle && performance.now() - started < 20 ? prompt + 1 : 0;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** http_requests_shed_total by reason, from the server's /metrics (empty when it has none). */
async function shedCounts(base: string): Promise<Record<string, number>> {
  const answer = await request(base, 'GET', '/metrics', { authorization: `Bearer ${METRICS_TOKEN}` });
  const counts: Record<string, number> = {};
  for (const match of answer.body.matchAll(/^http_requests_shed_total\{reason="([a-z_]+)"\} (\d+)$/gm)) {
    counts[match[1] as string] = Number(match[2]);
  }
  return counts;
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

/**
 * The measured members' match graphs (ADR 022), built as the job builds them when a member first
 * opens Barter Match: the benchmark measures members who have used it before.
 */
async function buildGraphs(db: DatabaseHandle['db'], emails: string[]) {
  // The fill's own change log first (what a server would drain at start), so the time is the builds'.
  await settleMatchGraph(db, 3_600_000);
  const started = performance.now();
  const ids = (await db.execute(
    sql`SELECT id::text AS id FROM users WHERE email = ANY(${`{${emails.join(',')}}`}::text[])`,
  )) as unknown as { rows: Array<{ id: string }> };
  for (const { id } of ids.rows) await requestGraph(db, id);
  await settleMatchGraph(db, 3_600_000);
  const seconds = (performance.now() - started) / 1000;
  const count = (await db.execute(sql`SELECT count(*)::int AS n FROM match_graph`)) as unknown as {
    rows: Array<{ n: number }>;
  };
  await db.execute(sql`ANALYZE match_graph`);
  return { seconds, rows: count.rows[0]?.n ?? 0 };
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
  let graphs: { seconds: number; rows: number };
  try {
    if (size) await fillNeighbourhood(database.db, size);
    fillSeconds = (performance.now() - started) / 1000;
    stats = await counts(database.db);
    console.log(`  filled in ${fillSeconds.toFixed(1)} s: ${JSON.stringify(stats)}`);
    emails = await chooseViewers(database.db);
    const listed = (await database.db.execute(
      sql`SELECT id FROM items WHERE is_active AND reserved_by_request_id IS NULL ORDER BY hashint4(id) LIMIT 500`,
    )) as unknown as { rows: Array<{ id: number }> };
    ITEM_IDS.splice(0, ITEM_IDS.length, ...listed.rows.map((row) => Number(row.id)));
    graphs = await buildGraphs(database.db, emails);
    console.log(
      `  match graphs of ${emails.length} members built in ${graphs.seconds.toFixed(1)} s ` +
        `(${graphs.rows} rows, ${(graphs.seconds / Math.max(1, emails.length)).toFixed(2)} s a member)`,
    );
  } finally {
    await database.close();
  }
  const passes: Pass[] = [];
  for (const pass of FILL_ONLY ? [] : PASSES) {
    const results: Result[] = [];
    const server = await startServer(
      { ...serverEnv, METRICS_TOKEN, ...pass.env },
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
        await run(base, scenario, cookies, { requests: WARM_UP }, false);
        await settle(base);
        const result = await run(base, scenario, cookies, { seconds: SECONDS }, true);
        await settle(base);
        const single = await run(base, scenario, cookies, { requests: SINGLE_REQUESTS }, true, 1);
        await settle(base);
        if (result) {
          result.alone = single?.p50;
          results.push(result);
          const healthz = results[0]?.perSecond ?? result.perSecond;
          console.log(
            `  ${scenario.name.padEnd(30)} alone p50 ${(result.alone ?? Number.NaN).toFixed(1).padStart(6)} ms | 200s: p50 ${result.p50.toFixed(1).padStart(7)} ms  p90 ${result.p90.toFixed(1).padStart(7)} ms  ` +
              `p99 ${result.p99.toFixed(1).padStart(7)} ms  max ${result.max.toFixed(0).padStart(5)} ms  ${result.perSecond.toFixed(0).padStart(5)} req/s ` +
              `(${((100 * result.perSecond) / healthz).toFixed(1)}% of /healthz)  ` +
              `${result.items.toFixed(1)} items/page | 503s ${result.shed} (max ${result.shedMax.toFixed(0)} ms${shedReasonText(result)}) | slowest answer ${result.maxAll.toFixed(0)} ms (first on a new connection ${result.maxFirst.toFixed(0)} ms)` +
              `${result.errors ? `  ${result.errors} errors` : ''}`,
          );
        }
      }
    } finally {
      await server.stop();
    }
    passes.push({ title: pass.title, results });
  }
  return { label, size, stats, fillSeconds, graphs, emails: emails.length, passes };
}

/** The shed requests' reasons, as ", db_waiting 812" (empty when none were shed). */
const shedReasonText = (result: Result) =>
  Object.entries(result.shedReasons)
    .map(([reason, n]) => `, ${reason} ${n}`)
    .join('');

function markdown(report: Awaited<ReturnType<typeof bench>>): string {
  const lines = [
    `### ${report.label}`,
    '',
    `${report.stats.items} items, ${report.stats.members} members, ${report.stats.wants} wants, ` +
      `${report.stats.trades} completed trades, ${report.stats.saves} saved items; filled in ` +
      `${report.fillSeconds.toFixed(1)} s; the match graphs of the ${report.emails} members measured built in ` +
      `${report.graphs.seconds.toFixed(1)} s (${report.graphs.rows} rows). autocannon, ${CONCURRENCY} connections, ` +
      `${SECONDS} s measured per row (after ${WARM_UP} warm-up requests), pages 1 to 3, ${VIEWERS} members in ` +
      `turn; then ${SINGLE_REQUESTS} one at a time (last column). Latencies of the 200s; 503s (shed at once, ` +
      `ADR 041) counted apart, with the slowest answer of any status on an open connection and, apart, the slowest ` +
      `first answer on a new connection (it includes opening the connection; autocannon opens ${CONCURRENCY} for each row).`,
  ];
  for (const pass of report.passes) {
    const healthz = pass.results[0]?.perSecond ?? Number.NaN;
    lines.push(
      '',
      `#### ${pass.title}`,
      '',
      '| request | p50 ms | p90 ms | p99 ms | max ms | 200s/s | share of /healthz | 503s (shed) | slowest answer ms | slowest first answer ms | items/page | p50 ms one at a time |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    );
    for (const r of pass.results) {
      const shed = r.shed
        ? `${r.shed} (${((100 * r.shed) / (r.shed + r.count)).toFixed(0)}%${shedReasonText(r)})`
        : '0';
      lines.push(
        `| ${r.name} | ${r.p50.toFixed(1)} | ${r.p90.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.max.toFixed(1)} | ` +
          `${r.perSecond.toFixed(0)} | ${((100 * r.perSecond) / healthz).toFixed(1)}% | ${shed} | ${r.maxAll.toFixed(0)} | ${r.maxFirst.toFixed(0)} | ` +
          `${r.name.startsWith('GET /healthz') ? '' : r.items.toFixed(1)} | ${(r.alone ?? Number.NaN).toFixed(1)} |`,
      );
    }
    const over = pass.results.filter((r) => r.maxAll >= 2_000).map((r) => r.name);
    const errors = pass.results.filter((r) => r.errors > 0).map((r) => `${r.name} (${r.errors})`);
    const overFirst = pass.results.filter((r) => r.maxFirst >= 2_000).map((r) => r.name);
    lines.push(
      '',
      over.length ? `2 s or more: ${over.join(', ')}.` : 'No answer on an open connection took 2 s or more.',
      overFirst.length ? ` First answers on a new connection of 2 s or more: ${overFirst.join(', ')}.` : '',
    );
    if (errors.length) lines.push('', `Errors other than 503: ${errors.join(', ')}.`);
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
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB_NAME]);
    const reuse = REUSE && exists.rowCount === 1;
    if (!reuse) {
      await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${DB_NAME}`);
    }
    const url = new URL(serverUrl);
    url.pathname = `/${DB_NAME}`;
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
      if (!KEEP && !REUSE) await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
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
