/**
 * What the faults of `npm run test:faults` share (ADR 043, docs/reliability.md): the seeded databases
 * they copy, the real server processes they start, a load driver that keeps every request's start,
 * end and answer, a TCP proxy that can cut the server off from PostgreSQL, and the verdict each
 * fault prints as one line.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Db, openPglite } from '#server/db/client.ts';
import { embeddedDatabaseDir } from '#server/db/embedded.ts';
import { migrateDatabase } from '#server/db/migrate.ts';
import { openPostgres } from '#server/db/postgres.ts';
import { queryRows } from '#server/db/rows.ts';
import { cookieHeader } from '#server/test/event-stream-client.ts';
import { createBarterRequest, createItem, createUser, signedSessionCookies } from '#server/test/factories.ts';
import { fillNeighbourhood } from '#server/test/neighbourhood.ts';
import {
  freshBenchDatabase,
  percentile,
  type RunningServer,
  type StartServerOptions,
  spawnServer,
  startServer,
} from '../bench-server';

/** The servers' session secret: the seeded sessions are signed with it. */
export const SECRET = 'faults-suite-secret-that-is-long-enough-0123456789';
/** The password of the account the login flood guesses at (never the one it sends). */
export const TARGET_PASSWORD = 'the-right-password-4821';
export const TARGET_EMAIL = 'target@faults.example';
/** This suite's ports (the machine's engineers each keep to a range): 5500-5549. */
const PORT_FIRST = 5500;
const PORT_LAST = 5549;
/** The PostgreSQL server the database faults use (its own throwaway databases on it). */
export const PG_SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export type DatabaseKind = 'postgres' | 'pglite';

/** A member the load signs in as: its session cookie and id. */
export interface Member {
  id: string;
  cookie: string;
}

/** What the seed holds besides the neighbourhood: who browses, who chats, who trades. */
export interface Town {
  /** Members with a location, wants and items: the feed traffic. */
  viewers: Member[];
  /** A pending barter between two members, whose conversation takes the message writes. */
  chat: { barterId: number; a: Member; b: Member };
  /** Pairs of members who list, propose, talk and complete trades with each other. */
  traders: Array<[Member, Member]>;
  /** The highest item and barter ids of the seed: what a fault's own writes come after. */
  seeded: { items: number; barters: number };
}

/**
 * The settings every fault's server runs with, on top of startServer's (production's, ADR 051):
 * only what is the suite's environment, never a product behaviour turned off.
 */
export const SERVER_ENV: Record<string, string> = {
  // The sessions the suite makes for its members in the database are signed with it.
  SESSION_SECRET: SECRET,
  // A few accounts write for a whole town (the load the faults need on the database); the limits are
  // per member, and a real member never writes this fast.
  ITEM_CREATE_RATE_LIMIT: '100000',
  BARTER_PROPOSAL_RATE_LIMIT: '100000',
  MESSAGE_RATE_LIMIT: '100000',
  // Production's sign-in limits (startServer raises them for the benchmarks).
  LOGIN_RATE_LIMIT: '20',
  LOGIN_ACCOUNT_RATE_LIMIT: '10',
};

/** How a fault ends: passed or not, its figures, and what was wrong. */
export interface Verdict {
  figures: string;
  failures: string[];
}

/** A fault of the suite: a name, a hard time limit and what it does. */
export interface Fault {
  name: string;
  /** The fault is stopped (and fails) after this long, its servers killed. */
  timeoutMs: number;
  /** Which databases it needs seeded. */
  needs: DatabaseKind[];
  run(context: FaultContext): Promise<Verdict>;
}

/** The monotonic clock every timestamp of the suite is read from (ms). */
export const now = () => performance.now();
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Seeded databases for the faults to copy, and the clean-up of everything a run made. */
export class Suite {
  readonly short: boolean;
  readonly root = mkdtempSync(path.join(os.tmpdir(), 'bh-faults-'));
  readonly prefix = `barterhood_faults_${process.pid}`;
  readonly #towns = new Map<DatabaseKind, Town>();
  #pgTemplate: string | null = null;
  #pgliteSeed: string | null = null;
  #databases: Array<() => Promise<void>> = [];
  #nextPort = PORT_FIRST;

  constructor(short: boolean) {
    this.short = short;
  }

  /** A port of this suite's range not handed out yet in this run. */
  port(): number {
    if (this.#nextPort > PORT_LAST) this.#nextPort = PORT_FIRST;
    return this.#nextPort++;
  }

  /** The members seeded in that database (each has its own ids and sessions). */
  town(kind: DatabaseKind): Town {
    const town = this.#towns.get(kind);
    if (!town) throw new Error(`the ${kind} database is not seeded yet`);
    return town;
  }

  /** Seed what `needs` names (once per run): the PostgreSQL template and the PGlite directory. */
  async prepare(needs: Set<DatabaseKind>): Promise<string> {
    const took: string[] = [];
    if (needs.has('postgres') && !this.#pgTemplate) {
      const started = now();
      const name = `${this.prefix}_template`;
      const fresh = await freshBenchDatabase(name);
      this.#databases.push(fresh.drop);
      const handle = openPostgres({ url: fresh.url, poolMax: 4, statementTimeoutMs: 120_000 });
      try {
        await migrateDatabase(handle, fresh.url);
        this.#towns.set('postgres', await seedTown(handle.db, this.short));
      } finally {
        await handle.close();
      }
      this.#pgTemplate = name;
      took.push(`PostgreSQL ${((now() - started) / 1000).toFixed(1)} s`);
    }
    if (needs.has('pglite') && !this.#pgliteSeed) {
      const started = now();
      const dataDir = path.join(this.root, 'seed');
      mkdirSync(dataDir, { recursive: true });
      const handle = await openPglite({ dataDir: embeddedDatabaseDir(dataDir) });
      try {
        await migrateDatabase(handle);
        this.#towns.set('pglite', await seedTown(handle.db, this.short));
      } finally {
        await handle.close();
      }
      this.#pgliteSeed = dataDir;
      took.push(`PGlite ${((now() - started) / 1000).toFixed(1)} s`);
    }
    return took.join(', ');
  }

  /** A PostgreSQL database of its own for one fault, copied from the seeded template. */
  async postgres(label: string): Promise<{ name: string; url: string }> {
    if (!this.#pgTemplate) throw new Error('the PostgreSQL template is not seeded');
    const name = `${this.prefix}_${label}`;
    await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await adminQuery(`CREATE DATABASE ${name} TEMPLATE ${this.#pgTemplate}`);
    this.#databases.push(async () => {
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    });
    const url = new URL(PG_SERVER_URL);
    url.pathname = `/${name}`;
    return { name, url: url.toString() };
  }

  /** A DATA_DIR of its own for one fault, with a copy of the seeded PGlite database. */
  pglite(label: string): string {
    if (!this.#pgliteSeed) throw new Error('the PGlite seed is not made');
    const dataDir = path.join(this.root, label);
    cpSync(this.#pgliteSeed, dataDir, { recursive: true });
    return dataDir;
  }

  /** Drop every database and directory this run made. */
  async cleanUp(): Promise<void> {
    for (const drop of this.#databases.reverse()) await drop().catch(() => {});
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** One statement on the PostgreSQL server's maintenance database. */
export async function adminQuery<T extends pg.QueryResultRow = pg.QueryResultRow>(
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: PG_SERVER_URL });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** End every backend of `database` (only that one: other people's tests share the server). */
export async function terminateBackends(database: string): Promise<number> {
  const rows = await adminQuery<{ n: number }>(
    `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS n
     FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
    [database],
  );
  return rows[0]?.n ?? 0;
}

async function memberOf(db: Db, id: string): Promise<Member> {
  return { id, cookie: cookieHeader(await signedSessionCookies(db, { id }, SECRET)) };
}

/**
 * The seed: a small neighbourhood (server/test/neighbourhood.ts) for the feed traffic (a third of it
 * in the short run), and the members the faults act as, with sessions signed with SECRET.
 */
async function seedTown(db: Db, short: boolean): Promise<Town> {
  const scale = short ? 0.3 : 1;
  await fillNeighbourhood(db, {
    members: 400 * scale,
    items: 2_000 * scale,
    wants: 1_000 * scale,
    trades: 100 * scale,
    saves: 200 * scale,
  });
  await db.execute(sql`ANALYZE`);
  await createUser(db, { email: TARGET_EMAIL, password: TARGET_PASSWORD, firstName: 'Target' });
  const ids = await queryRows<{ id: string }>(
    db,
    sql`SELECT u.id::text AS id FROM users u
        WHERE u.email LIKE 'bench-%' AND u.latitude IS NOT NULL
          AND EXISTS (SELECT 1 FROM wants w WHERE w.user_id = u.id AND w.is_active)
          AND EXISTS (SELECT 1 FROM items i WHERE i.user_id = u.id AND i.is_active)
        ORDER BY u.email LIMIT 10`,
  );
  const viewers = await Promise.all(ids.map(({ id }) => memberOf(db, id)));
  const actor = async (name: string) =>
    memberOf(
      db,
      (await createUser(db, { firstName: name, email: `${name.toLowerCase()}@faults.example` })).id,
    );
  const a = await actor('ChatA');
  const b = await actor('ChatB');
  const barter = await createBarterRequest(db, {
    fromUserId: a.id,
    toUserId: b.id,
    fromItemId: (await createItem(db, { userId: a.id, title: 'Chat offer' })).id,
    toItemId: (await createItem(db, { userId: b.id, title: 'Chat request' })).id,
  });
  const traders: Array<[Member, Member]> = [];
  for (let pair = 0; pair < 8; pair++)
    traders.push([await actor(`Giver${pair}`), await actor(`Taker${pair}`)]);
  const [seeded] = await queryRows<{ items: number; barters: number }>(
    db,
    sql`SELECT (SELECT coalesce(max(id), 0) FROM items)::int AS items,
               (SELECT coalesce(max(id), 0) FROM barter_requests)::int AS barters`,
  );
  return {
    viewers,
    chat: { barterId: barter.id, a, b },
    traders,
    seeded: seeded ?? { items: 0, barters: 0 },
  };
}

/** One request the load sends. */
export interface Call {
  kind: string;
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  cookie?: string;
  body?: unknown;
  /** Send from this local address (127.x.y.z: each its own client IP on loopback). */
  from?: string;
  /** Keep the answer's JSON (Outcome.json). */
  keepBody?: boolean;
}

/** What became of one request: when it left and came back (suite clock, ms), and its answer. */
export interface Outcome {
  kind: string;
  start: number;
  end: number;
  /** 0 when there was no answer (see error). */
  status: number;
  error?: string;
  /** The answer's JSON, when the caller asked for bodies. */
  json?: unknown;
  retryAfter?: string;
}

/** Send one call on `agent`; never throws (a failure is an Outcome with `error`). */
export function send(
  base: string,
  call: Call,
  {
    agent,
    timeoutMs = 15_000,
    keepBody = false,
  }: { agent?: http.Agent; timeoutMs?: number; keepBody?: boolean },
): Promise<Outcome> {
  const start = now();
  const keep = keepBody || call.keepBody === true;
  return new Promise((resolve) => {
    const payload = call.body === undefined ? undefined : JSON.stringify(call.body);
    const headers: Record<string, string> = {};
    if (call.cookie) headers.cookie = call.cookie;
    if (payload !== undefined) headers['content-type'] = 'application/json';
    let settled = false;
    const finish = (outcome: Omit<Outcome, 'kind' | 'start' | 'end'>) => {
      if (settled) return;
      settled = true;
      resolve({ kind: call.kind, start, end: now(), ...outcome });
    };
    const outgoing = http.request(
      `${base}${call.path}`,
      { method: call.method, agent, headers, ...(call.from ? { localAddress: call.from } : {}) },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => {
          if (keep) chunks.push(chunk);
        });
        response.on('error', (error) => finish({ status: 0, error: errorName(error) }));
        response.on('end', () => {
          let json: unknown;
          if (keep && chunks.length) {
            try {
              json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            } catch {
              json = undefined;
            }
          }
          const retryAfter = response.headers['retry-after'];
          finish({
            status: response.statusCode ?? 0,
            ...(json === undefined ? {} : { json }),
            ...(typeof retryAfter === 'string' ? { retryAfter } : {}),
          });
        });
      },
    );
    outgoing.setTimeout(timeoutMs, () => {
      outgoing.destroy(new Error('timeout'));
      finish({ status: 0, error: 'timeout' });
    });
    outgoing.on('error', (error) => finish({ status: 0, error: errorName(error) }));
    outgoing.end(payload);
  });
}

const errorName = (error: Error) => (error as NodeJS.ErrnoException).code ?? error.message;

/**
 * Keep `concurrency` requests in flight until `stop()` says so (checked before each request), each
 * the call `next(n)` makes; every request's Outcome, in the order they came back.
 */
export async function drive(
  base: string,
  options: {
    concurrency: number;
    next: (n: number) => Call;
    stop: () => boolean;
    timeoutMs?: number;
    /**
     * After a 503 with `Retry-After`, a worker waits that long before its next request, as a load
     * balancer or a well-behaved client does (by default the load keeps coming regardless).
     */
    honourRetryAfter?: boolean;
  },
): Promise<Outcome[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  const outcomes: Outcome[] = [];
  let n = 0;
  const worker = async () => {
    while (!options.stop()) {
      const outcome = await send(base, options.next(n++), { agent, timeoutMs: options.timeoutMs });
      outcomes.push(outcome);
      // A refused connection comes back at once: do not spin on it.
      if (outcome.error) await sleep(20);
      const retryAfterMs = Number(outcome.retryAfter) * 1000;
      if (options.honourRetryAfter && outcome.status === 503 && retryAfterMs > 0) {
        const until = now() + retryAfterMs;
        while (now() < until && !options.stop()) await sleep(20);
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  agent.destroy();
  return outcomes;
}

/** A load that lasts `ms` from now. */
export const forMs = (ms: number) => {
  const until = now() + ms;
  return () => now() >= until;
};

/** The feed and message load of the PostgreSQL outage faults: three pages read for each message sent. */
export const mixedCall = (town: Town) => (n: number) =>
  n % 4 === 3 ? messageCall(town, n) : feedCall(town, n);

/** Send the load for `ms` and forget the answers: a server just started answers its first requests slowly. */
export async function warmUp(base: string, next: (n: number) => Call, lasting = 2_000): Promise<void> {
  await drive(base, { concurrency: 8, next, stop: forMs(lasting) });
}

/** The feed pages the viewers read in turn (pages 1 to 3, as bench:feed reads them). */
export function feedCall(town: Town, n: number): Call {
  const viewer = town.viewers[n % town.viewers.length] as Member;
  return {
    kind: 'feed',
    method: 'GET',
    path: `/api/feed/everything?offset=${(n % 3) * 20}`,
    cookie: viewer.cookie,
  };
}

/** A message in the chat barter's conversation, from either side in turn. */
export function messageCall(town: Town, n: number): Call {
  const { barterId, a, b } = town.chat;
  return {
    kind: 'message',
    method: 'POST',
    path: `/api/barter-requests/${barterId}/messages`,
    cookie: (n % 2 ? a : b).cookie,
    body: { content: `Still on for Saturday? (${n})` },
  };
}

/** Counts and latencies of a set of outcomes. */
export function tally(outcomes: Outcome[]) {
  const by = (test: (o: Outcome) => boolean) => outcomes.filter(test).length;
  const latencies = outcomes
    .filter((o) => o.status > 0)
    .map((o) => o.end - o.start)
    .sort((x, y) => x - y);
  return {
    total: outcomes.length,
    ok: by((o) => o.status >= 200 && o.status < 300),
    s503: by((o) => o.status === 503),
    s500: by((o) => o.status >= 500 && o.status !== 503),
    other: by((o) => o.status >= 300 && o.status < 500),
    errors: by((o) => o.status === 0),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? Number.NaN,
  };
}

/** "1234 requests (1200 2xx, 30 503, 0 5xx, 4 errors)" */
export function describe(t: ReturnType<typeof tally>): string {
  const parts = [`${t.ok} 2xx`, `${t.s503} 503`, `${t.s500} other 5xx`];
  if (t.other) parts.push(`${t.other} 3xx/4xx`);
  if (t.errors) parts.push(`${t.errors} no answer`);
  return `${t.total} requests (${parts.join(', ')})`;
}

/** A few distinct error or status descriptions of outcomes, for a failure line. */
export function examples(outcomes: Outcome[], limit = 3): string {
  const seen = new Map<string, number>();
  for (const o of outcomes) {
    const key = `${o.kind} ${o.error ?? o.status}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen.entries()]
    .slice(0, limit)
    .map(([key, count]) => `${count}x ${key}`)
    .join(', ');
}

export const ms = (value: number) => `${Number.isFinite(value) ? value.toFixed(0) : '-'} ms`;

/** The processes a fault started, killed when it ends however it ends. */
export class Processes {
  readonly #running = new Set<RunningServer>();

  /** The real server, ready (startServer), with the suite's settings under `env`. */
  async start(env: Record<string, string>, options: StartServerOptions = {}): Promise<RunningServer> {
    const server = await startServer(
      { ...SERVER_ENV, ...env },
      { logLevel: 'warn', stderr: 'capture', readyTimeoutMs: 60_000, ...options },
    );
    this.#track(server);
    return server;
  }

  /** The real server, not waited for (spawnServer). */
  async spawn(env: Record<string, string>, options: StartServerOptions = {}): Promise<RunningServer> {
    const server = await spawnServer(
      { ...SERVER_ENV, ...env },
      { logLevel: 'warn', stderr: 'capture', ...options },
    );
    this.#track(server);
    return server;
  }

  #track(server: RunningServer) {
    this.#running.add(server);
    void server.exited.then(() => {
      this.#running.delete(server);
      // FAULTS_LOGS=dir keeps each server's stderr (its warnings and errors) for a closer look.
      const dir = process.env.FAULTS_LOGS;
      if (dir) {
        mkdirSync(dir, { recursive: true });
        writeFileSync(path.join(dir, `server-${server.pid}.log`), server.stderr());
      }
    });
  }

  /** SIGKILL whatever is still running. */
  async killAll(): Promise<void> {
    await Promise.all(
      [...this.#running].map(async (server) => {
        try {
          process.kill(server.pid, 'SIGKILL');
        } catch {
          // gone already
        }
        await server.exited;
      }),
    );
  }
}

/** What a fault gets: the suite, its processes, and the run's length. */
export interface FaultContext {
  suite: Suite;
  processes: Processes;
  short: boolean;
}

/**
 * A TCP proxy on loopback between the server and PostgreSQL, so the suite can cut the connection
 * for real: `cut()` destroys every connection through it and refuses new ones, `restore()` listens
 * again.
 */
export class TcpProxy {
  readonly #sockets = new Set<net.Socket>();
  /** Connections open through the proxy (each has two sockets in #sockets). */
  #open = 0;
  #server: net.Server | null = null;

  constructor(
    readonly port: number,
    readonly target: { host: string; port: number },
  ) {}

  /** Listen (again). */
  async restore(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host);
      this.#open++;
      client.once('close', () => this.#open--);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on('close', () => this.#sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.#server = server;
  }

  /** Every connection through the proxy reset, and no new one accepted, until restore(). */
  async cut(): Promise<number> {
    const server = this.#server;
    this.#server = null;
    const count = this.#open;
    const closed = server ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
    for (const socket of this.#sockets) socket.resetAndDestroy();
    this.#sockets.clear();
    await closed;
    return count;
  }

  /** The URL of `databaseUrl`'s database through this proxy. */
  url(databaseUrl: string): string {
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }
}

/** The margin after an outage within which 503s are still allowed (issue 18: "plus 2 s"). */
export const OUTAGE_GRACE_MS = 2_000;

/**
 * Judge a load that went through outages (`windows`, [from, to] on the suite clock): outside every
 * window and its 2 s of grace each request must succeed; inside, each must succeed or be a 503;
 * nowhere a 500 or an unanswered request. Also how long after each outage the last failure came
 * (the recovery) and whether every kind of request succeeded again afterwards.
 */
export function judgeOutages(outcomes: Outcome[], windows: Array<[number, number]>) {
  const failures: string[] = [];
  const inWindow = (o: Outcome) =>
    windows.some(([from, to]) => o.end >= from && o.end <= to + OUTAGE_GRACE_MS);
  const ok = (o: Outcome) => o.status >= 200 && o.status < 300;
  const outside = outcomes.filter((o) => !ok(o) && !inWindow(o));
  const wrongInside = outcomes.filter((o) => !ok(o) && o.status !== 503 && inWindow(o));
  const s500 = outcomes.filter((o) => o.status >= 500 && o.status !== 503);
  if (s500.length) failures.push(`${s500.length} answers 5xx other than 503 (${examples(s500)})`);
  if (outside.length) {
    const first = windows[0]?.[0] ?? 0;
    const last = windows.at(-1)?.[1] ?? 0;
    const before = outside.filter((o) => o.end < first).length;
    const latest = outside.at(-1)?.end ?? 0;
    failures.push(
      `${outside.length} requests failed outside the outage window plus 2 s (${examples(outside)}; ` +
        `${before} before the outage` +
        (latest > last ? `, the last ${ms(latest - last)} after it ended)` : ')'),
    );
  }
  const noAnswer = wrongInside.filter((o) => o.status !== 503 && !s500.includes(o));
  if (noAnswer.length)
    failures.push(`${noAnswer.length} requests in the outage neither 2xx nor 503 (${examples(noAnswer)})`);
  const recoveries = windows.map(([from, to]) => {
    const failed = outcomes.filter((o) => !ok(o) && o.end >= from && o.end <= to + OUTAGE_GRACE_MS);
    const lastFailure = Math.max(to, ...failed.map((o) => o.end));
    return { failed: failed.length, recoveryMs: lastFailure - to };
  });
  const after = outcomes.filter((o) => o.start > (windows.at(-1)?.[1] ?? 0) + OUTAGE_GRACE_MS);
  for (const kind of new Set(outcomes.map((o) => o.kind))) {
    if (!after.some((o) => o.kind === kind && ok(o)))
      failures.push(`no ${kind} request succeeded after the outage`);
  }
  return { failures, recoveries };
}

/** Why a process ended, from its stderr, on one line, for a failure: the error thrown, else the last lines. */
export function lastWords(stderr: string): string {
  const lines = stderr.trim().split('\n');
  const thrown = lines.find((line) => /^(\w*Error|error)\b.*:/.test(line.trim()));
  const unhandled = lines.find((line) => line.includes('Unhandled'));
  if (thrown)
    return `"${[unhandled?.trim().replace(/^throw er; \/\/ /, ''), thrown.trim()].filter(Boolean).join(': ')}"`;
  return stderr.trim() ? `"${lines.slice(-4).join(' | ').slice(0, 400)}"` : 'nothing on stderr';
}

/**
 * What the server warned about, for a failure that needs its side (which limit answered 503, say):
 * each log message (with its error's) and its count, most frequent first, on one line; with `until`
 * (epoch ms), only what was logged by then.
 */
export function warningsIn(
  stderr: string,
  { limit = 4, until }: { limit?: number; until?: number } = {},
): string {
  const counts = new Map<string, number>();
  for (const line of stderr.split('\n')) {
    if (!line.trim()) continue;
    let message = line.trim();
    try {
      const entry = JSON.parse(line) as { time?: unknown; msg?: unknown; err?: { message?: unknown } };
      // Only what was logged by `until` (epoch ms), when given.
      if (until !== undefined && typeof entry.time === 'number' && entry.time > until) continue;
      message =
        [entry.msg, entry.err?.message].filter((part) => typeof part === 'string').join(': ') || message;
    } catch {
      // Not a log line: counted as it is.
    }
    message = message.slice(0, 160);
    counts.set(message, (counts.get(message) ?? 0) + 1);
  }
  if (counts.size === 0) return 'no warnings logged';
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([message, count]) => `${count}x "${message}"`)
    .join(', ');
}
