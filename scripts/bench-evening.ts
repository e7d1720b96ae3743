/**
 * `npm run bench:evening`: a busy evening on one small server (issue 27), against the real server
 * started with the settings a user gets.
 *
 * Fills a fresh database (scripts/bench-server.ts: a throwaway PostgreSQL database, or the embedded
 * PGlite in a temporary DATA_DIR) with a neighbourhood around one town (server/test/neighbourhood.ts:
 * members, items and wants, so the feeds have matches), a session per member and an accepted barter
 * per pair of members (rows written directly, as bench:events does), and the members' match graphs
 * (as bench:feed does). Then starts the real server (compiled, as `npm start` runs it; NODE_ENV=production) with no
 * SHED_*, rate-limit or stream-limit setting: only the facts of this machine (port, DATA_DIR or
 * DATABASE_URL, SESSION_SECRET, METRICS_TOKEN, PUBLIC_URL, SITE_PASSWORD="" and SEED_DEMO=false).
 *
 * Set-up through the API, before the timed window: every member opens a live event stream
 * (GET /api/events) and holds it open to the end; an organiser and 99 neighbours set up a swap day of
 * 100 members with 10 offers each and 30 ranked wants per offer; every member proposes one barter.
 * A bare GET /healthz, saturated by autocannon, gives the server's capacity in the same run.
 *
 * The timed window (--seconds): each member acts in a mix with think times (2 to 8 s): page loads
 * (the shell or a drawn page, /api/auth/user, and the app's entry script, style sheet and two lazy
 * chunks from dist/web), the three feeds (Barter Match, Random Barter, Everything; pages 1 to 3),
 * searches, item pages, proposals, answers (accept, decline, counter), messages and photo uploads
 * (multipart, a 2-megapixel JPEG made with sharp). A third of the way in, the organiser closes the
 * swap day: the close's answer time and the time until the day reads solved (whatever the close
 * answers: 200 with the result, or 202 and the result later). At the window's start the hourly
 * circle run is queued as another server process's timer would queue it (PostgreSQL: pg-boss, the
 * queue `circles-full`; its worker takes it at its next poll, within 60 s); on the embedded database
 * its queue lives inside the server process and nothing outside can start it (no setting sets its
 * period), which the report says. A separate process asks /healthz every 50 ms throughout. The
 * window lasts --seconds, and longer while the swap day has not yet read solved or the journey
 * (--with-journey) still runs.
 *
 * Reports per action p50/p99/max and what was shed (503), the share shed of page loads (shells and
 * assets: target 0) and of API requests (target under 1%), the server's event-loop delay p99 and
 * max over the window (prom-client's monitorEventLoopDelay in /metrics, reset by the scrape at the
 * window's start; it includes its 10 ms sampling resolution), /healthz while the swap day closed,
 * RSS, then the targets with PASS or FAIL. Exits non-zero only when the set-up fails: a FAIL is a
 * finding, not an error.
 *
 * Flags (or environment variables BENCH_<NAME>):
 *   --db=postgres|pglite        default postgres when --database-url or DATABASE_URL is given
 *   --database-url=URL          the PostgreSQL server (the benchmark creates and drops its own
 *                               database --db-name=barterhood_bench_evening on it)
 *   --members=N                 members acting (default 200 on PostgreSQL, 50 on PGlite); the swap
 *                               day's 100 members come on top, streams open but otherwise idle
 *   --seconds=60                the timed window
 *   --port=N                    the server's port (default a free one)
 *   --with-journey              run e2e/barter-journey.spec.ts (Chromium, playwright.bench.config.ts)
 *                               against the server during the window and report pass or fail
 *   --log-level=info            the server's LOG_LEVEL (production's default)
 * Needs dist/web and dist/server: builds them first when missing or older than their sources (as npm
 * start does, scripts/web-build.ts); a build that fails stops the benchmark with its error.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sign as signCookie } from '@fastify/cookie';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import PgBoss from 'pg-boss';
import {
  SWAP_DAY_MAX_MEMBERS,
  SWAP_DAY_MAX_OFFERS_PER_MEMBER,
  SWAP_DAY_MAX_WANTS_PER_OFFER,
} from '#common/schemas/swap-days.ts';
import { type DatabaseHandle, openPglite } from '#server/db/client.ts';
import { migrateDatabase } from '#server/db/migrate.ts';
import { openPostgres } from '#server/db/postgres.ts';
import { sessions } from '#server/db/schema/sessions.ts';
import { barterRequests } from '#server/db/schema/trading.ts';
import { CIRCLES_FULL_QUEUE } from '#server/features/circles/index.ts';
import { requestGraph, settleMatchGraph } from '#server/features/match-graph/index.ts';
import { hashSessionId, SESSION_COOKIE, SESSION_IDLE_MS } from '#server/plugins/session.ts';
import { cookieHeader, type EventStreamClient, openEventStream } from '#server/test/event-stream-client.ts';
import { fillNeighbourhood, TOWNS } from '#server/test/neighbourhood.ts';
import {
  type Answer,
  benchHeader,
  freePort,
  freshBenchDatabase,
  loadAverage,
  multipartBody,
  numberOption,
  option,
  percentile,
  photoLike,
  type RunningServer,
  startServer,
} from './bench-server';
import { buildState, buildWebAndServer } from './web-build';

const SCRIPT = fileURLToPath(import.meta.url);
const DATABASE_URL = option('database-url', process.env.DATABASE_URL ?? '');
const DB = option('db', DATABASE_URL ? 'postgres' : 'pglite');
if (DB !== 'postgres' && DB !== 'pglite') throw new Error('--db must be postgres or pglite');
const MEMBERS = Math.max(2, numberOption('members', DB === 'postgres' ? 200 : 50));
const SECONDS = numberOption('seconds', 60);
const WITH_JOURNEY = option('with-journey', 'false') === 'true';
const LOG_LEVEL = option('log-level', 'info');
const DB_NAME = option('db-name', 'barterhood_bench_evening');
if (!/^[a-z_][a-z0-9_]*$/.test(DB_NAME)) throw new Error('--db-name must be a plain lower-case identifier');
const SECRET = 'bench-evening-secret-that-is-long-enough-0123456789';
const METRICS_TOKEN = 'bench-evening-metrics-token-long-enough-0123';
/** The swap day: as large as the product allows (issue 27's case). */
const SWAP_MEMBERS = SWAP_DAY_MAX_MEMBERS;
const OFFERS = SWAP_DAY_MAX_OFFERS_PER_MEMBER;
const WANTS = SWAP_DAY_MAX_WANTS_PER_OFFER;
/** The members' town and how far they live from its centre (miles, each direction). */
const TOWN = TOWNS[0];
const SPREAD_MILES = 5;
/** Think time between a member's actions. */
const THINK_MS = [2_000, 8_000] as const;
/** How long the window may run past --seconds while the swap day solves or the journey runs. */
const OVERTIME_MS = 300_000;
/** Requests in flight at once while setting up. */
const SET_UP_CONCURRENCY = 4;
const TARGETS = {
  eldP99Ms: DB === 'postgres' ? 50 : 100,
  eldMaxMs: DB === 'postgres' ? 200 : 500,
  apiShedShare: 0.01,
  healthzDuringCloseMs: 200,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = <T>(values: readonly T[]): T => values[Math.floor(Math.random() * values.length)] as T;
const shuffled = <T>(values: readonly T[]): T[] => {
  const copy = [...values];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
};

/** Run `work` over `values`, `concurrency` at a time. */
async function eachLimited<T>(values: readonly T[], concurrency: number, work: (value: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, values.length) }, async () => {
      while (next < values.length) await work(values[next++] as T);
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// The web build

const WEB_BUILT = 'dist/web/index.html';

/**
 * Build the web app and the server's render of its first screens as npm start does (ADR 053,
 * scripts/web-build.ts) when either is missing or older than its sources: the pages the members
 * load are then the ones a user's server serves.
 */
async function ensureWebBuild(): Promise<void> {
  const state = buildState(process.cwd());
  if (state === 'fresh') return;
  console.log(
    `  dist/web and dist/server ${state === 'stale' ? 'older than their sources' : 'missing'}: building them...`,
  );
  await buildWebAndServer();
  if (buildState(process.cwd()) === 'missing')
    throw new Error('vite build left dist/web or dist/server missing');
}

/** What a cold page load fetches: the entry's scripts and style sheets, and lazy chunks to pick from. */
function webAssets(): { entry: string[]; lazy: string[] } {
  const html = readFileSync(WEB_BUILT, 'utf8');
  const entry = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map(
    (m) => m[1] as string,
  );
  const lazy = readdirSync('dist/web/assets')
    .filter((name) => name.endsWith('.js'))
    .map((name) => `/assets/${name}`)
    .filter((asset) => !entry.includes(asset));
  if (entry.length === 0) throw new Error(`${WEB_BUILT} names no /assets/ script or style sheet`);
  return { entry, lazy };
}

// ---------------------------------------------------------------------------------------------
// Measurements

type Kind = 'page' | 'api';

interface ActionStats {
  kind: Kind;
  /** Times of the answers that were not shed (any status but 503), in ms. */
  times: number[];
  count: number;
  shed: number;
  limited: number;
  /** Other 4xx (an item taken meanwhile, a proposal already answered): the product's answer. */
  refused: number;
  /** 5xx other than 503, and connection errors. */
  errors: number;
  errorSamples: string[];
}

const stats = new Map<string, ActionStats>();
let recording = false;

function record(action: string, kind: Kind, status: number, ms: number, body = '') {
  if (!recording) return;
  let entry = stats.get(action);
  if (!entry) {
    entry = { kind, times: [], count: 0, shed: 0, limited: 0, refused: 0, errors: 0, errorSamples: [] };
    stats.set(action, entry);
  }
  entry.count++;
  if (status === 503) {
    entry.shed++;
    return;
  }
  entry.times.push(ms);
  if (status === 429) entry.limited++;
  else if (status >= 400 && status < 500) entry.refused++;
  else if (status >= 500 || status === 0) {
    entry.errors++;
    if (entry.errorSamples.length < 3) entry.errorSamples.push(`${status} ${body.slice(0, 160)}`);
  }
}

/**
 * One request on a member's own connections (a browser's six), timed and recorded under `action`.
 * A kept-alive connection the server closed just as it was reused is retried once on a new one, as
 * browsers do (Node's documented `reusedSocket` pattern); anything else is recorded as it came.
 */
function call(
  base: string,
  agent: http.Agent,
  action: string,
  kind: Kind,
  method: string,
  pathname: string,
  headers: Record<string, string>,
  body?: string | Buffer,
  retried = false,
): Promise<Answer> {
  const started = performance.now();
  return new Promise<Answer>((resolve) => {
    const outgoing = http.request(`${base}${pathname}`, { method, agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', () => {});
      response.on('end', () => {
        const answer: Answer = {
          status: response.statusCode ?? 0,
          body: kind === 'page' ? '' : Buffer.concat(chunks).toString('utf8'),
          setCookie: response.headers['set-cookie'] ?? [],
          headers: response.headers,
        };
        record(action, kind, answer.status, performance.now() - started, answer.body);
        resolve(answer);
      });
    });
    outgoing.setTimeout(60_000, () => outgoing.destroy(new Error('no answer within 60 s')));
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (outgoing.reusedSocket && error.code === 'ECONNRESET' && !retried) {
        resolve(call(base, agent, action, kind, method, pathname, headers, body, true));
        return;
      }
      record(action, kind, 0, performance.now() - started, error.message);
      resolve({ status: 0, body: error.message, setCookie: [], headers: {} });
    });
    outgoing.end(body);
  });
}

const parse = <T>(answer: Answer): T | null => {
  if (answer.status < 200 || answer.status >= 300) return null;
  try {
    return JSON.parse(answer.body) as T;
  } catch {
    return null;
  }
};

/** The server's /metrics as name{labels} -> value. */
async function scrape(base: string): Promise<Map<string, number>> {
  const answer = await getOnce(base, '/metrics', { authorization: `Bearer ${METRICS_TOKEN}` });
  if (answer.status !== 200) throw new Error(`/metrics answered ${answer.status}`);
  const values = new Map<string, number>();
  for (const line of answer.body.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    values.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return values;
}

/** Set-up and bookkeeping requests: a connection each (no kept-alive socket the server may have closed). */
const setUpAgent = new http.Agent({ keepAlive: false, maxSockets: 16 });
/** A set-up or bookkeeping request (not recorded). */
function getOnce(base: string, pathname: string, headers: Record<string, string> = {}) {
  return setUpCall(base, 'GET', pathname, headers);
}
function setUpCall(
  base: string,
  method: string,
  pathname: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      `${base}${pathname}`,
      { method, agent: setUpAgent, headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            setCookie: [],
            headers: response.headers,
          }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** Set-up calls the server shed (503) and the set-up then retried after its Retry-After. */
let setUpSheds = 0;

/**
 * A set-up call that must succeed. A 503 is retried after its Retry-After (at least a second), as
 * the web app's reads are, for up to two minutes: the set-up is not what is measured, but its sheds
 * are counted and reported.
 */
async function must(base: string, method: string, pathname: string, cookie: string, body?: unknown) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const answer = await setUpCall(
      base,
      method,
      pathname,
      { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body === undefined ? undefined : JSON.stringify(body),
    );
    if (answer.status >= 200 && answer.status < 300) return answer;
    if (answer.status === 503 && Date.now() < deadline) {
      setUpSheds++;
      await sleep(Math.max(1, Number(answer.headers['retry-after']) || 1) * 1000);
      continue;
    }
    throw new Error(`set-up: ${method} ${pathname} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
  }
}

/** Resident memory of a process, in MB (Linux). */
function memoryMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(
      readFileSync(`/proc/${pid}/status`, 'utf8'),
    );
    return match ? Number(match[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

// ---------------------------------------------------------------------------------------------
// The /healthz probe: this script in a process of its own (--probe=URL), so the load generator's
// busy event loop does not delay its readings.

interface ProbeSample {
  /** Date.now() when the request was sent. */
  at: number;
  ms: number;
  status: number;
}

async function probeMain(base: string): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const samples: ProbeSample[] = [];
  let stopped = false;
  process.on('message', () => {
    stopped = true;
  });
  // The benchmark ended without asking (it failed): end with it.
  process.on('disconnect', () => process.exit(0));
  while (!stopped) {
    const at = Date.now();
    const started = performance.now();
    const status = await new Promise<number>((resolve) => {
      const outgoing = http.get(`${base}/healthz`, { agent }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      });
      outgoing.setTimeout(60_000, () => outgoing.destroy());
      outgoing.on('error', () => resolve(0));
    });
    const ms = performance.now() - started;
    samples.push({ at, ms, status });
    if (ms < 50) await sleep(50 - ms);
  }
  process.send?.(samples, () => process.exit(0));
}

function startProbe(base: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, `--probe=${base}`], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const samples = new Promise<ProbeSample[]>((resolve, reject) => {
    child.once('message', (message) => resolve(message as ProbeSample[]));
    child.once('exit', (code) => reject(new Error(`the /healthz probe exited with ${code}`)));
  });
  return {
    stop: async () => {
      child.send('stop');
      return samples;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The neighbourhood

interface Member {
  id: string;
  cookie: string;
  /** Active items of this member's (to offer). */
  items: number[];
  /** The accepted barter this member talks in. */
  barterId?: number;
  agent: http.Agent;
  stream?: EventStreamClient;
  /** Items of others seen on the last feed or search: [item id, owner id]. */
  seen: Array<[number, string]>;
}

/** The neighbourhood around one town, the members' sessions, a barter per pair, and match graphs. */
async function fill(database: DatabaseHandle): Promise<{ evening: Member[]; swap: Member[] }> {
  const db = database.db;
  const total = MEMBERS + SWAP_MEMBERS;
  await fillNeighbourhood(db, { members: total, items: total * 4, wants: total * 3 });
  // One town: every member within SPREAD_MILES of its centre (none without a location).
  await db.execute(sql`UPDATE users SET location = ${TOWN.name},
      latitude = round((${TOWN.latitude} + (random() + random() - 1) * ${SPREAD_MILES} / 69.09)::numeric, 8),
      longitude = round((${TOWN.longitude} + (random() + random() - 1) * ${SPREAD_MILES}
        / (69.09 * cos(radians(${TOWN.latitude}))))::numeric, 8)
    WHERE email LIKE 'bench-%@bench.example'`);
  const rows = (
    (await db.execute(
      sql`SELECT id::text AS id, email FROM users WHERE email LIKE 'bench-%@bench.example'`,
    )) as unknown as { rows: Array<{ id: string; email: string }> }
  ).rows.sort((a, b) => Number(/\d+/.exec(a.email)?.[0]) - Number(/\d+/.exec(b.email)?.[0]));
  const swapIds = rows.slice(0, SWAP_MEMBERS).map((row) => row.id);
  // The swap day's members bring ten things each (copies of listings of the neighbourhood's).
  await db.execute(sql`INSERT INTO items (user_id, title, description, category, is_service, estimated_value, is_active)
    SELECT u.id, i.title, i.description, i.category, i.is_service, i.estimated_value, true
    FROM unnest(${`{${swapIds.join(',')}}`}::uuid[]) AS u(id)
    CROSS JOIN LATERAL (SELECT title, description, category, is_service, estimated_value FROM items
      WHERE is_active AND user_id <> u.id ORDER BY random() LIMIT ${OFFERS}) i`);
  const owned = new Map<string, number[]>();
  const itemRows = (
    (await db.execute(
      sql`SELECT id, user_id::text AS owner FROM items WHERE is_active ORDER BY id`,
    )) as unknown as { rows: Array<{ id: number; owner: string }> }
  ).rows;
  for (const row of itemRows) owned.set(row.owner, [...(owned.get(row.owner) ?? []), Number(row.id)]);

  const now = Date.now();
  const sessionIds = rows.map(() => randomUUID() + randomUUID());
  const members: Member[] = rows.map((row, i) => ({
    id: row.id,
    cookie: cookieHeader({ [SESSION_COOKIE]: signCookie(sessionIds[i] as string, SECRET) }),
    items: owned.get(row.id) ?? [],
    agent: new http.Agent({ keepAlive: true, maxSockets: 6 }),
    seen: [],
  }));
  await db.insert(sessions).values(
    members.map((member, i) => ({
      sid: hashSessionId(sessionIds[i] as string),
      sess: { userId: member.id, createdAt: now },
      expire: new Date(now + SESSION_IDLE_MS),
    })),
  );
  const evening = members.slice(SWAP_MEMBERS);
  const swap = members.slice(0, SWAP_MEMBERS);
  // An accepted barter per pair of evening members, to talk in.
  const pairs = Math.floor(evening.length / 2);
  const barters = await db
    .insert(barterRequests)
    .values(
      Array.from({ length: pairs }, (_, i) => ({
        fromUserId: evening[2 * i]?.id,
        toUserId: evening[2 * i + 1]?.id,
        status: 'accepted',
        acceptedAt: new Date(now),
      })),
    )
    .returning({ id: barterRequests.id });
  barters.forEach((barter, i) => {
    (evening[2 * i] as Member).barterId = barter.id;
    (evening[2 * i + 1] as Member).barterId = barter.id;
  });
  // The evening members have used Barter Match before: their match graphs exist (ADR 022).
  await settleMatchGraph(db, 3_600_000);
  for (const member of evening) await requestGraph(db, member.id);
  await settleMatchGraph(db, 3_600_000);
  await db.execute(sql`VACUUM ANALYZE`);
  return { evening, swap };
}

// ---------------------------------------------------------------------------------------------
// Set-up through the API

/** Event-stream connects the server shed during the set-up (each retried after a second, as EventSource does). */
let setUpStreamSheds = 0;

async function openStream(base: string, member: Member): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const started = performance.now();
    const stream = await openEventStream(base, { cookie: member.cookie });
    record('api: event stream connect', 'api', stream.status, performance.now() - started, stream.body);
    if (stream.status === 200) {
      member.stream = stream;
      return;
    }
    if (recording) return;
    if (stream.status !== 503 || attempt >= 30)
      throw new Error(`GET /api/events answered ${stream.status}: ${stream.body}`);
    setUpStreamSheds++;
    await sleep(1_000);
  }
}

interface SwapDayView {
  id: number;
  status: string;
}

/** The swap day: organised, joined, offered and ranked through the API. */
async function setUpSwapDay(base: string, swap: Member[]): Promise<number> {
  const [organiser] = swap as [Member];
  const hours = (n: number) => new Date(Date.now() + n * 3_600_000).toISOString();
  const created = JSON.parse(
    (
      await must(base, 'POST', '/api/swap-days', organiser.cookie, {
        name: 'Maple Street swap day',
        place: 'Community hall, 12 Maple Street',
        startsAt: hours(48),
        deadline: hours(24),
      })
    ).body,
  ) as SwapDayView;
  const id = created.id;
  await eachLimited(swap.slice(1), SET_UP_CONCURRENCY, async (member) => {
    await must(base, 'POST', `/api/swap-days/${id}/join`, member.cookie);
  });
  const offers: Array<{ member: Member; itemId: number }> = [];
  await eachLimited(swap, SET_UP_CONCURRENCY, async (member) => {
    const itemIds = member.items.slice(0, OFFERS);
    await must(base, 'POST', `/api/swap-days/${id}/offers`, member.cookie, { itemIds });
    for (const itemId of itemIds) offers.push({ member, itemId });
  });
  await eachLimited(offers, SET_UP_CONCURRENCY, async ({ member, itemId }) => {
    const wantedItemIds = shuffled(offers.filter((offer) => offer.member !== member))
      .slice(0, WANTS)
      .map((offer) => offer.itemId);
    await must(base, 'PUT', `/api/swap-days/${id}/offers/${itemId}/wants`, member.cookie, { wantedItemIds });
  });
  return id;
}

interface FeedItem {
  id: number;
  user: { id: string };
}

/** Every evening member proposes one barter to a neighbour whose item they saw on Everything. */
async function setUpProposals(base: string, evening: Member[]): Promise<number> {
  let made = 0;
  await eachLimited(evening, SET_UP_CONCURRENCY, async (member) => {
    const feed = await must(
      base,
      'GET',
      `/api/feed/everything?offset=${Math.floor(Math.random() * 3) * 20}`,
      member.cookie,
    );
    const items = (JSON.parse(feed.body) as FeedItem[]).filter((item) => item.user.id !== member.id);
    const wanted = items.length ? pick(items) : undefined;
    if (!wanted || member.items.length === 0) return;
    const answer = await setUpCall(
      base,
      'POST',
      '/api/barter-requests',
      { cookie: member.cookie, 'content-type': 'application/json' },
      JSON.stringify({
        offeredItemIds: [pick(member.items)],
        requestedItemIds: [wanted.id],
        message: 'Would you swap?',
      }),
    );
    if (answer.status === 201) made++;
  });
  return made;
}

// ---------------------------------------------------------------------------------------------
// The evening

const SEARCHES = [
  'drill',
  'mountain bike',
  'guitar lessons',
  'lamp',
  'camping tent',
  'kayak',
  'sofa',
  'laptop',
];
const SHELLS = ['/', '/barters', '/profile', '/swap-days'];
const json = (member: Member) => ({ cookie: member.cookie, 'content-type': 'application/json' });

class Evening {
  running = true;
  private photo: { body: Buffer; contentType: string } | undefined;

  constructor(
    private readonly base: string,
    private readonly assets: { entry: string[]; lazy: string[] },
  ) {}

  async preparePhoto() {
    const jpeg = await photoLike(1600, 1200, 85, 4);
    this.photo = await multipartBody(
      { title: 'Bench photo', description: 'A photo from the evening benchmark.', category: 'tools' },
      jpeg,
    );
  }

  /** One member's evening: think, act, until the window closes. */
  async live(member: Member, everyone: Member[]) {
    // Spread the first actions over the first think time.
    await sleep(Math.random() * THINK_MS[1]);
    while (this.running) {
      await this.act(member, everyone);
      await sleep(THINK_MS[0] + Math.random() * (THINK_MS[1] - THINK_MS[0]));
    }
  }

  private readonly mix: Array<[number, (member: Member, everyone: Member[]) => Promise<void>]> = [
    [10, (m) => this.pageLoad(m)],
    [14, (m) => this.feed(m, 'barter-match', pick(['', 'sort=match', 'sort=distance']))],
    [8, (m) => this.feed(m, 'random-barter', `seed=${Math.floor(Math.random() * 1e6)}`)],
    [12, (m) => this.feed(m, 'everything', pick(['', 'sort=distance', 'sort=value']))],
    [10, (m) => this.search(m)],
    [16, (m) => this.openItem(m)],
    [4, (m) => this.propose(m)],
    [5, (m) => this.answer(m)],
    [10, (m) => this.message(m)],
    [2, (m) => this.upload(m)],
  ];

  private act(member: Member, everyone: Member[]) {
    const total = this.mix.reduce((sum, [weight]) => sum + weight, 0);
    let roll = Math.random() * total;
    for (const [weight, action] of this.mix) {
      roll -= weight;
      if (roll < 0) return action(member, everyone);
    }
    return Promise.resolve();
  }

  private get(
    member: Member,
    action: string,
    kind: Kind,
    pathname: string,
    headers: Record<string, string> = {},
  ) {
    return call(this.base, member.agent, action, kind, 'GET', pathname, {
      cookie: member.cookie,
      ...headers,
    });
  }

  /** A cold page load: the shell (or a drawn page), the signed-in member, the entry assets and two lazy chunks. */
  private async pageLoad(member: Member) {
    const shell = pick(SHELLS);
    await this.get(member, 'page: HTML shell or drawn page', 'page', shell, {
      accept: 'text/html',
      'accept-encoding': 'br, gzip',
    });
    const assets = [...this.assets.entry, pick(this.assets.lazy), pick(this.assets.lazy)];
    await Promise.all([
      this.get(member, 'api: GET /api/auth/user', 'api', '/api/auth/user'),
      ...assets.map((asset) =>
        this.get(member, 'page: asset (JS, CSS)', 'page', asset, { 'accept-encoding': 'br, gzip' }),
      ),
    ]);
  }

  private remember(member: Member, answer: Answer) {
    const items = parse<FeedItem[]>(answer);
    if (!items) return;
    const others = items.filter((item) => item.user.id !== member.id);
    if (others.length) member.seen = others.map((item) => [item.id, item.user.id]);
  }

  private async feed(member: Member, name: string, query: string) {
    const q = query ? `${query}&` : '';
    let answer = await this.get(member, `api: feed ${name}`, 'api', `/api/feed/${name}?${q}offset=0`);
    this.remember(member, answer);
    // Half the time, Load More once or twice.
    for (let page = 1; page < 3 && Math.random() < 0.5 && answer.status === 200; page++) {
      await sleep(1_000 + Math.random() * 2_000);
      answer = await this.get(
        member,
        `api: feed ${name}`,
        'api',
        `/api/feed/${name}?${q}offset=${page * 20}`,
      );
    }
  }

  private async search(member: Member) {
    const text = encodeURIComponent(pick(SEARCHES));
    this.remember(member, await this.get(member, 'api: search', 'api', `/api/feed/everything?q=${text}`));
  }

  private async openItem(member: Member) {
    const seen = member.seen.length ? pick(member.seen) : undefined;
    if (!seen) return this.feed(member, 'everything', '');
    await this.get(member, 'api: GET /api/items/:id', 'api', `/api/items/${seen[0]}`);
  }

  private async propose(member: Member) {
    const seen = member.seen.length ? pick(member.seen) : undefined;
    if (!seen || member.items.length === 0) return this.feed(member, 'barter-match', '');
    await call(
      this.base,
      member.agent,
      'api: propose (POST /api/barter-requests)',
      'api',
      'POST',
      '/api/barter-requests',
      json(member),
      JSON.stringify({
        offeredItemIds: [pick(member.items)],
        requestedItemIds: [seen[0]],
        message: 'Hi! Would you swap for this?',
      }),
    );
  }

  private async answer(member: Member) {
    const list = await this.get(member, 'api: barters list', 'api', '/api/barter-requests?box=incoming');
    const incoming = (
      parse<Array<{ id: number; status: string; offeredItems: Array<{ id: number | null }> }>>(list) ?? []
    ).filter((barter) => barter.status === 'pending');
    const barter = incoming.length ? pick(incoming) : undefined;
    if (!barter) return;
    const roll = Math.random();
    if (roll < 0.4) {
      await call(
        this.base,
        member.agent,
        'api: accept',
        'api',
        'POST',
        `/api/barter-requests/${barter.id}/accept`,
        {
          cookie: member.cookie,
        },
      );
    } else if (roll < 0.7) {
      await call(
        this.base,
        member.agent,
        'api: decline',
        'api',
        'POST',
        `/api/barter-requests/${barter.id}/decline`,
        {
          cookie: member.cookie,
        },
      );
    } else {
      const theirs = barter.offeredItems.map((item) => item.id).filter((id): id is number => id !== null);
      if (theirs.length === 0 || member.items.length === 0) return;
      await call(
        this.base,
        member.agent,
        'api: counter',
        'api',
        'POST',
        `/api/barter-requests/${barter.id}/counter`,
        json(member),
        JSON.stringify({ offeredItemIds: [pick(member.items)], requestedItemIds: [pick(theirs)] }),
      );
    }
  }

  private async message(member: Member) {
    if (member.barterId === undefined) return this.search(member);
    const thread = `/api/barter-requests/${member.barterId}/messages`;
    await this.get(member, 'api: read messages', 'api', thread);
    await sleep(2_000 + Math.random() * 3_000);
    await call(
      this.base,
      member.agent,
      'api: send message',
      'api',
      'POST',
      thread,
      json(member),
      JSON.stringify({ content: `See you at 6? (${Math.floor(Math.random() * 1e6)})` }),
    );
  }

  private async upload(member: Member) {
    if (!this.photo) return;
    const answer = await call(
      this.base,
      member.agent,
      'api: upload photo (POST /api/items, multipart)',
      'api',
      'POST',
      '/api/items',
      { cookie: member.cookie, 'content-type': this.photo.contentType },
      this.photo.body,
    );
    const item = parse<{ id: number }>(answer);
    if (item) member.items.push(item.id);
  }

  /** Reopen a stream the server ended, as the browser's EventSource does. */
  async keepStreamsOpen(members: Member[]) {
    let reopened = 0;
    while (this.running) {
      for (const member of members) {
        if (member.stream?.isEnded() || !member.stream) {
          member.stream?.close();
          member.stream = undefined;
          reopened++;
          await openStream(this.base, member);
        }
      }
      await sleep(1_000);
    }
    return reopened;
  }
}

// ---------------------------------------------------------------------------------------------
// The swap day's close, the circle run, the journey

interface CloseResult {
  /** The close's status; 0 when it got no answer (then `error` says why). */
  status: number;
  error: string;
  answerMs: number;
  /** From sending the close until the day read solved; null when it never did within the limit. */
  solvedMs: number | null;
  finalStatus: string;
  startedAt: number;
  endedAt: number;
}

async function closeSwapDay(
  base: string,
  organiser: Member,
  id: number,
  deadline: number,
): Promise<CloseResult> {
  const startedAt = Date.now();
  const started = performance.now();
  const answer = await call(
    base,
    organiser.agent,
    'api: close swap day',
    'api',
    'POST',
    `/api/swap-days/${id}/close`,
    {
      cookie: organiser.cookie,
    },
  );
  const answerMs = performance.now() - started;
  let finalStatus = parse<SwapDayView>(answer)?.status ?? `answer ${answer.status}`;
  // Until the day is settled: solved, or (since the 202 close) failed; cancelled by no one here.
  const settled = ['solved', 'failed', 'cancelled'];
  while (!settled.includes(finalStatus) && Date.now() < deadline) {
    await sleep(250);
    const view = await call(
      base,
      organiser.agent,
      'api: GET /api/swap-days/:id',
      'api',
      'GET',
      `/api/swap-days/${id}`,
      {
        cookie: organiser.cookie,
      },
    );
    finalStatus = parse<SwapDayView>(view)?.status ?? finalStatus;
  }
  const endedAt = Date.now();
  return {
    status: answer.status,
    error: answer.status ? '' : answer.body,
    answerMs,
    solvedMs: finalStatus === 'solved' ? performance.now() - started : null,
    finalStatus,
    startedAt,
    endedAt,
  };
}

/** PostgreSQL: queue the hourly circle run as another server process's timer would (ADR 040). */
async function queueCircleRun(url: string): Promise<() => Promise<string>> {
  const boss = new PgBoss({ connectionString: url, schema: 'pgboss', schedule: false, supervise: false });
  boss.on('error', () => {});
  await boss.start();
  const sentAt = Date.now();
  const id = await boss.send(CIRCLES_FULL_QUEUE, {}, { singletonSeconds: 3600 });
  await boss.stop({ graceful: false, wait: true });
  return async () => {
    if (!id) return 'the queue refused the job (one already queued this hour)';
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const found = await client.query<{ state: string; started_on: Date | null; completed_on: Date | null }>(
        'SELECT state, started_on, completed_on FROM pgboss.job WHERE id = $1',
        [id],
      );
      const job = found.rows[0];
      if (!job) return 'its job is gone';
      const seconds = (date: Date | null) =>
        date ? `${((date.getTime() - sentAt) / 1000).toFixed(1)} s` : 'not yet';
      return `queued at the window's start; started after ${seconds(job.started_on)}, finished after ${seconds(job.completed_on)} (state ${job.state})`;
    } finally {
      await client.end();
    }
  };
}

function startJourney(base: string) {
  const started = performance.now();
  const child: ChildProcess = spawn(
    'npx',
    ['playwright', 'test', 'e2e/barter-journey.spec.ts', '--config=playwright.bench.config.ts'],
    { env: { ...process.env, BENCH_JOURNEY_URL: base }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const done = new Promise<{ passed: boolean; seconds: number; output: string }>((resolve) =>
    child.once('exit', (code) =>
      resolve({ passed: code === 0, seconds: (performance.now() - started) / 1000, output }),
    ),
  );
  return { done, kill: () => child.kill('SIGTERM') };
}

// ---------------------------------------------------------------------------------------------

/** Every SHED_*, *_RATE_LIMIT and stream-limit setting this shell has, blanked: the server's defaults. */
function shippedSettings(): Record<string, string> {
  const blank: Record<string, string> = { LOGIN_RATE_LIMIT: '', LOGIN_ACCOUNT_RATE_LIMIT: '' };
  for (const key of Object.keys(process.env)) {
    if (/^SHED_|_RATE_LIMIT$|^EVENT_STREAMS_|^EVENT_HEARTBEAT_|^FEED_.*CACHE/.test(key)) blank[key] = '';
  }
  return blank;
}

const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '-');
const share = (part: number, whole: number) => (whole ? `${((100 * part) / whole).toFixed(2)}%` : '-');

async function bench(
  label: string,
  open: () => Promise<DatabaseHandle>,
  env: Record<string, string>,
  url?: string,
) {
  const fillStarted = performance.now();
  const database = await open();
  let neighbourhood: Awaited<ReturnType<typeof fill>>;
  try {
    neighbourhood = await fill(database);
  } finally {
    await database.close();
  }
  const { evening, swap } = neighbourhood;
  console.log(
    `  filled in ${((performance.now() - fillStarted) / 1000).toFixed(1)} s: ${evening.length} evening members ` +
      `and ${swap.length} swap-day members around ${TOWN.name}, with items, wants, sessions and match graphs`,
  );

  const port = Number(option('port', '0')) || (await freePort());
  const base = `http://127.0.0.1:${port}`;
  const server: RunningServer = await startServer(
    {
      ...shippedSettings(),
      ...env,
      SESSION_SECRET: SECRET,
      METRICS_TOKEN,
      PUBLIC_URL: base,
      SITE_PASSWORD: '',
      SEED_DEMO: 'false',
    },
    { logLevel: LOG_LEVEL, port, stderr: 'capture' },
  );
  const everyone = [...swap, ...evening];
  try {
    console.log(
      `  server (own process, pid ${server.pid}) on ${base}, RSS ${memoryMb(server.pid, 'VmRSS').toFixed(0)} MB`,
    );
    let started = performance.now();
    await eachLimited(everyone, 25, (member) => openStream(base, member));
    console.log(
      `  ${everyone.length} event streams open in ${((performance.now() - started) / 1000).toFixed(1)} s` +
        (setUpStreamSheds
          ? ` (${setUpStreamSheds} connects shed with 503, each retried after a second)`
          : ''),
    );
    started = performance.now();
    const swapDayId = await setUpSwapDay(base, swap);
    console.log(
      `  swap day ${swapDayId}: ${swap.length} members, ${OFFERS} offers each, ${WANTS} ranked wants per offer, set up through the API in ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    started = performance.now();
    const proposals = await setUpProposals(base, evening);
    console.log(
      `  ${proposals} proposals made in ${((performance.now() - started) / 1000).toFixed(1)} s; ` +
        `${setUpSheds} set-up calls shed (503) and retried after Retry-After`,
    );

    const healthz = await new Promise<autocannon.Result>((resolve, reject) => {
      autocannon({ url: `${base}/healthz`, connections: 10, duration: 5 }, (error, result) =>
        error ? reject(error) : resolve(result),
      );
    });
    console.log(
      `  bare GET /healthz (autocannon, 10 connections, 5 s, streams open): ${healthz.requests.average.toFixed(0)} req/s, ` +
        `p50 ${healthz.latency.p50} ms, p99 ${healthz.latency.p99} ms, max ${healthz.latency.max} ms`,
    );

    const runner = new Evening(base, webAssets());
    await runner.preparePhoto();
    const rssBefore = memoryMb(server.pid, 'VmRSS');

    // The timed window.
    const before = await scrape(base);
    const probe = startProbe(base);
    const circleReport = url ? await queueCircleRun(url) : null;
    const journey = WITH_JOURNEY ? startJourney(base) : null;
    recording = true;
    const windowStarted = performance.now();
    const loadAtStart = loadAverage();
    let rssMax = rssBefore;
    const rssTimer = setInterval(() => {
      rssMax = Math.max(rssMax, memoryMb(server.pid, 'VmRSS'));
    }, 500);
    const streamKeeper = runner.keepStreamsOpen(everyone);
    const lives = evening.map((member) => runner.live(member, evening));
    const hardDeadline = Date.now() + SECONDS * 1000 + OVERTIME_MS;
    const close = (async () => {
      await sleep((SECONDS * 1000) / 3);
      return closeSwapDay(base, swap[0] as Member, swapDayId, hardDeadline);
    })();
    await sleep(SECONDS * 1000);
    const [closed, journeyResult] = await Promise.all([close, journey?.done ?? Promise.resolve(null)]);
    runner.running = false;
    const windowSeconds = (performance.now() - windowStarted) / 1000;
    const after = await scrape(base);
    recording = false;
    clearInterval(rssTimer);
    const rssEnd = memoryMb(server.pid, 'VmRSS');
    await Promise.all(lives);
    const reopened = await streamKeeper;
    const samples = await probe.stop();
    const circles = circleReport
      ? await circleReport()
      : 'not started: on the embedded database its queue is inside the server process, and no setting sets its period (FULL_RUN_SECONDS, one hour)';
    const openStreams = everyone.filter((member) => member.stream && !member.stream.isEnded()).length;
    for (const member of everyone) member.stream?.close();

    // Every /healthz wait that overlapped the close (sent before it and still waiting counts too).
    const during = samples.filter((s) => s.at + s.ms >= closed.startedAt && s.at <= closed.endedAt);
    const probeTimes = samples.map((s) => s.ms).sort((a, b) => a - b);
    const shedReasons = [...after.entries()]
      .filter(([key]) => key.startsWith('http_requests_shed_total'))
      .map(
        ([key, value]) => [/reason="([^"]+)"/.exec(key)?.[1] ?? key, value - (before.get(key) ?? 0)] as const,
      )
      .filter(([, n]) => n > 0);
    return {
      label,
      evening: evening.length,
      streams: everyone.length,
      openStreams,
      reopened,
      windowSeconds,
      loadAtStart,
      healthz,
      closed,
      during,
      probe: {
        count: samples.length,
        p50: percentile(probeTimes, 50),
        p99: percentile(probeTimes, 99),
        max: probeTimes.at(-1) ?? Number.NaN,
        failed: samples.filter((s) => s.status !== 200).length,
      },
      eld: {
        p50: (after.get('nodejs_eventloop_lag_p50_seconds') ?? Number.NaN) * 1000,
        p99: (after.get('nodejs_eventloop_lag_p99_seconds') ?? Number.NaN) * 1000,
        max: (after.get('nodejs_eventloop_lag_max_seconds') ?? Number.NaN) * 1000,
      },
      rss: { before: rssBefore, max: rssMax, end: rssEnd, hwm: memoryMb(server.pid, 'VmHWM') },
      shedReasons,
      circles,
      journey: journeyResult,
      serverLog: server.stderr(),
    };
  } finally {
    for (const member of everyone) member.stream?.close();
    await server.stop();
  }
}

type Report = Awaited<ReturnType<typeof bench>>;

function print(r: Report) {
  const lines: string[] = [];
  const rows = [...stats.entries()].sort(([a], [b]) => a.localeCompare(b));
  const totals = (kind: Kind) =>
    rows
      .filter(([, s]) => s.kind === kind)
      .reduce((sum, [, s]) => ({ count: sum.count + s.count, shed: sum.shed + s.shed }), {
        count: 0,
        shed: 0,
      });
  const page = totals('page');
  const api = totals('api');
  lines.push(
    `### ${r.label}: ${r.evening} members acting, ${r.streams} event streams, ${r.windowSeconds.toFixed(0)} s`,
    '',
    `Load average at the window's start ${r.loadAtStart}, at the end ${loadAverage()}. Bare GET /healthz beforehand ` +
      `(autocannon, 10 connections, 5 s, the streams open): ${r.healthz.requests.average.toFixed(0)} req/s, p50 ` +
      `${r.healthz.latency.p50} ms, p99 ${r.healthz.latency.p99} ms, max ${r.healthz.latency.max} ms.`,
    '',
    '| action | requests | p50 ms | p99 ms | max ms | shed (503) | 429 | other 4xx | 5xx or no answer |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const [name, s] of rows) {
    const times = [...s.times].sort((a, b) => a - b);
    lines.push(
      `| ${name} | ${s.count} | ${ms(percentile(times, 50))} | ${ms(percentile(times, 99))} | ${ms(times.at(-1) ?? Number.NaN)} | ` +
        `${s.shed} | ${s.limited} | ${s.refused} | ${s.errors} |`,
    );
  }
  lines.push(
    `| GET /healthz every 50 ms (own process), whole window | ${r.probe.count} | ${ms(r.probe.p50)} | ${ms(r.probe.p99)} | ${ms(r.probe.max)} | | | | ${r.probe.failed} |`,
    '',
    `Shed: page loads ${page.shed} of ${page.count} (${share(page.shed, page.count)}); API ${api.shed} of ${api.count} ` +
      `(${share(api.shed, api.count)})${r.shedReasons.length ? `; by reason: ${r.shedReasons.map(([k, n]) => `${k} ${n}`).join(', ')}` : ''}.`,
    `Event-loop delay over the window (prom-client, 10 ms resolution included): p50 ${ms(r.eld.p50)} ms, p99 ${ms(r.eld.p99)} ms, max ${ms(r.eld.max)} ms.`,
    `Server RSS: ${r.rss.before.toFixed(0)} MB before the window, at most ${r.rss.max.toFixed(0)} MB during it (sampled every 0.5 s), ` +
      `${r.rss.end.toFixed(0)} MB at its end; peak since start (VmHWM) ${r.rss.hwm.toFixed(0)} MB.`,
    `Swap day close: ${r.closed.status ? `answered ${r.closed.status}` : `no answer (${r.closed.error})`} after ${ms(r.closed.answerMs)} ms; read ${r.closed.finalStatus} ` +
      `${r.closed.solvedMs === null ? 'and never solved within the limit' : `${ms(r.closed.solvedMs)} ms after the close was sent`}; ` +
      `/healthz meanwhile: ${r.during.length} samples, max ${ms(Math.max(0, ...r.during.map((s) => s.ms)))} ms.`,
    `Hourly circle run: ${r.circles}.`,
    `Event streams: ${r.openStreams} of ${r.streams} open at the end; ${r.reopened} reopened after the server ended them.`,
  );
  const errors = rows.filter(([, s]) => s.errorSamples.length);
  for (const [name, s] of errors) lines.push(`Errors of ${name}: ${s.errorSamples.join(' | ')}`);
  if (r.journey)
    lines.push(
      `Browser journey (e2e/barter-journey.spec.ts, shipped settings): ${r.journey.passed ? 'passed' : 'FAILED'} in ${r.journey.seconds.toFixed(0)} s.`,
    );
  const duringMax = Math.max(0, ...r.during.map((s) => s.ms));
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
  const targets = [
    [page.shed === 0, `page loads shed: 0 (${page.shed})`],
    [
      api.count > 0 && api.shed / api.count < TARGETS.apiShedShare,
      `API requests shed under 1% (${share(api.shed, api.count)})`,
    ],
    [r.eld.p99 < TARGETS.eldP99Ms, `event-loop delay p99 under ${TARGETS.eldP99Ms} ms (${ms(r.eld.p99)} ms)`],
    [
      r.eld.max <= TARGETS.eldMaxMs,
      `no event-loop stall over ${TARGETS.eldMaxMs} ms (max ${ms(r.eld.max)} ms)`,
    ],
    [
      r.closed.solvedMs !== null && r.during.length > 0 && duringMax <= TARGETS.healthzDuringCloseMs,
      `/healthz never over ${TARGETS.healthzDuringCloseMs} ms while the swap day closes (max ${ms(duringMax)} ms${r.closed.solvedMs === null ? '; the day never read solved' : ''})`,
    ],
    ...(r.journey ? [[r.journey.passed, 'the browser journey passes beside the bench'] as const] : []),
  ] as const;
  lines.push('', 'Targets:');
  for (const [ok, text] of targets) lines.push(`- ${verdict(ok)} ${text}`);
  console.log(`\n${lines.join('\n')}\n`);
  if (r.journey && !r.journey.passed)
    console.log(
      `Journey output (last lines):\n${r.journey.output
        .split('\n')
        .filter((line) => line.trim())
        .slice(-120)
        .join('\n')}`,
    );
}

async function main() {
  console.log(benchHeader('bench:evening'));
  await ensureWebBuild();
  if (WITH_JOURNEY && !existsSync('playwright.bench.config.ts'))
    throw new Error('playwright.bench.config.ts is missing');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bh-bench-evening-'));
  let report: Report;
  try {
    if (DB === 'pglite') {
      console.log(`\n## PGlite (the embedded default), ${MEMBERS} members`);
      const open = async () => {
        const database = await openPglite({ dataDir: path.join(dataDir, 'pglite') });
        await migrateDatabase(database);
        return database;
      };
      report = await bench('PGlite', open, { DATA_DIR: dataDir });
    } else {
      if (DATABASE_URL) process.env.DATABASE_URL = DATABASE_URL;
      console.log(`\n## PostgreSQL, ${MEMBERS} members`);
      const postgres = await freshBenchDatabase(DB_NAME);
      try {
        const open = async () => {
          const database = openPostgres({ url: postgres.url, poolMax: 10, statementTimeoutMs: 600_000 });
          await migrateDatabase(database, postgres.url);
          return database;
        };
        report = await bench(
          'PostgreSQL',
          open,
          { DATABASE_URL: postgres.url, DATA_DIR: dataDir },
          postgres.url,
        );
      } finally {
        await postgres.drop();
      }
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  print(report);
}

const probeBase = option('probe', '');
(probeBase ? probeMain(probeBase) : main()).then(
  () => {
    if (!probeBase) process.exit(0);
  },
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
