/**
 * `npm run bench:events`: how fast a message reaches the other member's open page (ADR 020).
 *
 * Fills a fresh database with members in pairs, each pair with an accepted barter and each member
 * with a session (rows written directly), starts the real server in its own process
 * (as `npm start` runs it: the compiled build, NODE_ENV=production; scripts/bench-server.ts), opens one event stream
 * (GET /api/events) per member on that one process and holds them all open, then sends messages
 * through the real route (POST /api/barter-requests/:id/messages) at a steady rate, the pairs in
 * turn, and measures from just before each POST is sent until the recipient's stream has parsed its
 * 'message' event: p50/p99/max. Beside it, in the same run and with the streams still open, a bare
 * GET /healthz measured with autocannon.
 *
 * Flags (or environment variables BENCH_<NAME>):
 *   --db=postgres|pglite    which database (default postgres)
 *   --streams=2000          open streams, one per member (members = streams, pairs = streams / 2)
 *   --rate=50               messages sent per second
 *   --messages=1000         measured messages (after --warm-up=50 unmeasured ones)
 *   --healthz-seconds=5     how long autocannon measures /healthz
 *   --log-level=info        the server's LOG_LEVEL (production's default: each request logged)
 *   --profile               the server writes a V8 CPU profile to bench-profiles/ when it stops
 *   --server-log=FILE       the server's log lines, written to FILE when the bench ends (pass or fail)
 * PostgreSQL: DATABASE_URL names the server (default postgres://postgres@127.0.0.1:5432/postgres);
 * the benchmark creates and drops its own database, barterhood_bench_events.
 */

import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sign as signCookie } from '@fastify/cookie';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { type DatabaseHandle, openPglite } from '#server/db/client.ts';
import { migrateDatabase } from '#server/db/migrate.ts';
import { openPostgres } from '#server/db/postgres.ts';
import { sessions } from '#server/db/schema/sessions.ts';
import { barterRequests } from '#server/db/schema/trading.ts';
import { users } from '#server/db/schema/users.ts';
import { hashSessionId, SESSION_COOKIE, SESSION_IDLE_MS } from '#server/plugins/session.ts';
import { cookieHeader, type EventStreamClient, openEventStream } from '#server/test/event-stream-client.ts';
import {
  benchHeader,
  freshBenchDatabase,
  loadAverage,
  numberOption,
  option,
  percentile,
  request,
  runBench,
  startServer,
} from './bench-server';

const DB = option('db', 'postgres');
const STREAMS = Math.max(2, numberOption('streams', 2000) - (numberOption('streams', 2000) % 2));
const RATE = numberOption('rate', 50);
const MESSAGES = numberOption('messages', 1000);
const WARM_UP = numberOption('warm-up', 50);
const HEALTHZ_SECONDS = numberOption('healthz-seconds', 5);
const LOG_LEVEL = option('log-level', 'info');
const PROFILE = option('profile', 'false') === 'true';
const SERVER_LOG = option('server-log', '');
const SECRET = 'bench-events-secret-that-is-long-enough-0123456789';
/** Streams opened at a time while connecting. */
const CONNECT_CONCURRENCY = 50;
/** How long to wait for the last deliveries after the last message was sent. */
const DRAIN_MS = 5_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Member {
  id: string;
  cookie: string;
}
interface Pair {
  barterId: number;
  members: [Member, Member];
}

/** Members with sessions, in pairs with an accepted barter each: rows written directly, in bulk. */
async function fill(database: DatabaseHandle): Promise<Pair[]> {
  const db = database.db;
  const now = Date.now();
  const pairs: Pair[] = [];
  for (let start = 0; start < STREAMS; start += 1_000) {
    const count = Math.min(1_000, STREAMS - start);
    const rows = await db
      .insert(users)
      .values(
        Array.from({ length: count }, (_, i) => ({
          email: `bench-events-${start + i}-${randomUUID().slice(0, 8)}@example.test`,
          firstName: `Member${start + i}`,
          lastName: 'Bench',
        })),
      )
      .returning({ id: users.id });
    const ids = rows.map((row) => row.id);
    const sessionIds = ids.map(() => randomUUID() + randomUUID());
    await db.insert(sessions).values(
      ids.map((userId, i) => ({
        sid: hashSessionId(sessionIds[i] as string),
        sess: { userId, createdAt: now },
        expire: new Date(now + SESSION_IDLE_MS),
      })),
    );
    const members = ids.map((id, i) => ({
      id,
      cookie: cookieHeader({ [SESSION_COOKIE]: signCookie(sessionIds[i] as string, SECRET) }),
    }));
    const barters = await db
      .insert(barterRequests)
      .values(
        Array.from({ length: count / 2 }, (_, i) => ({
          fromUserId: members[2 * i]?.id,
          toUserId: members[2 * i + 1]?.id,
          status: 'accepted',
          acceptedAt: new Date(now),
        })),
      )
      .returning({ id: barterRequests.id });
    barters.forEach((barter, i) => {
      pairs.push({ barterId: barter.id, members: [members[2 * i] as Member, members[2 * i + 1] as Member] });
    });
  }
  return pairs;
}

/** Resident memory of a process, in MB (Linux). */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

const ms = (n: number) => n.toFixed(1);

async function bench(label: string, open: () => Promise<DatabaseHandle>, env: Record<string, string>) {
  const database = await open();
  const fillStarted = performance.now();
  const pairs = await fill(database);
  // Statistics for the new rows, as a database in steady state has them: otherwise autovacuum's
  // ANALYZE lands in the middle of the measurement.
  await database.db.execute(sql`ANALYZE`);
  const fillSeconds = (performance.now() - fillStarted) / 1000;
  await database.close();

  const server = await startServer(
    {
      ...env,
      SESSION_SECRET: SECRET,
      MESSAGE_RATE_LIMIT: '100000',
      EVENT_STREAMS_MAX: String(Math.max(10_000, STREAMS + 100)),
    },
    { logLevel: LOG_LEVEL, profile: PROFILE, stderr: SERVER_LOG ? 'capture' : 'inherit' },
  );
  const streams: EventStreamClient[] = [];
  try {
    const rssBefore = rssMb(server.pid);
    /** Send time of each message by its text, and the latencies measured so far. */
    const sentAt = new Map<string, number>();
    const latencies: number[] = [];
    const postTimes: number[] = [];
    /** When each message's POST was answered, and its delivery measured from there (negative: before). */
    const answeredAt = new Map<string, number>();
    const afterAnswer: number[] = [];
    const deliveredAt = new Map<string, number>();
    let measuring = false;
    let delivered = 0;
    const onEvent = (event: { type: string; data: unknown; at: number }) => {
      if (event.type !== 'message') return;
      const { message } = event.data as { message: { content: string; fromMe: boolean } };
      if (message.fromMe) return;
      const started = sentAt.get(message.content);
      if (started === undefined) return;
      sentAt.delete(message.content);
      delivered++;
      if (!measuring) return;
      latencies.push(event.at - started);
      const answered = answeredAt.get(message.content);
      if (answered === undefined) deliveredAt.set(message.content, event.at);
      else afterAnswer.push(event.at - answered);
    };

    // Hold one stream per member open.
    const members = pairs.flatMap((pair) => pair.members);
    const connectStarted = performance.now();
    for (let i = 0; i < members.length; i += CONNECT_CONCURRENCY) {
      const opened = await Promise.all(
        members.slice(i, i + CONNECT_CONCURRENCY).map(async (member) => {
          const stream = await openEventStream(server.base, { cookie: member.cookie, onEvent });
          if (stream.status !== 200)
            throw new Error(`GET /api/events answered ${stream.status}: ${stream.body}`);
          await stream.next('counts', 30_000);
          return stream;
        }),
      );
      streams.push(...opened);
    }
    const connectSeconds = (performance.now() - connectStarted) / 1000;
    const rssWithStreams = rssMb(server.pid);

    // Messages at a steady rate, the pairs in turn, each side in turn.
    let sequence = 0;
    let failure: Error | undefined;
    const send = async () => {
      const n = sequence++;
      const pair = pairs[n % pairs.length] as Pair;
      const sender = pair.members[Math.floor(n / pairs.length) % 2] as Member;
      const content = `Bench message ${n}`;
      const started = performance.now();
      sentAt.set(content, started);
      const answer = await request(
        server.base,
        'POST',
        `/api/barter-requests/${pair.barterId}/messages`,
        { cookie: sender.cookie, 'content-type': 'application/json' },
        JSON.stringify({ content }),
      );
      if (answer.status !== 201) {
        // Kept, not thrown: a rejection here would end the process before the server is stopped.
        failure ??= new Error(`POST messages (message ${n}) answered ${answer.status}: ${answer.body}`);
        return;
      }
      if (!measuring) return;
      const answered = performance.now();
      postTimes.push(answered - started);
      const early = deliveredAt.get(content);
      if (early === undefined) answeredAt.set(content, answered);
      else afterAnswer.push(early - answered);
    };
    const sendAtRate = async (count: number) => {
      const interval = 1000 / RATE;
      const began = performance.now();
      const inFlight: Promise<void>[] = [];
      for (let i = 0; i < count && !failure; i++) {
        const due = began + i * interval;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        inFlight.push(send());
      }
      await Promise.all(inFlight);
      if (failure) throw failure;
      return (performance.now() - began) / 1000;
    };

    await sendAtRate(WARM_UP);
    await sleep(1_000);
    measuring = true;
    const deliveredBefore = delivered;
    const sendSeconds = await sendAtRate(MESSAGES);
    const deadline = performance.now() + DRAIN_MS;
    while (delivered - deliveredBefore < MESSAGES && performance.now() < deadline) await sleep(50);
    measuring = false;
    const lost = MESSAGES - (delivered - deliveredBefore);

    const healthz = await new Promise<autocannon.Result>((resolve, reject) => {
      autocannon(
        { url: `${server.base}/healthz`, connections: 10, duration: HEALTHZ_SECONDS },
        (error, result) => (error ? reject(error) : resolve(result)),
      );
    });
    const openAtEnd = streams.filter((stream) => !stream.isEnded()).length;

    latencies.sort((a, b) => a - b);
    postTimes.sort((a, b) => a - b);
    afterAnswer.sort((a, b) => a - b);
    return {
      label,
      fillSeconds,
      connectSeconds,
      rssBefore,
      rssWithStreams,
      sendSeconds,
      lost,
      openAtEnd,
      delivery: {
        p50: percentile(latencies, 50),
        p90: percentile(latencies, 90),
        p99: percentile(latencies, 99),
        max: latencies.at(-1) ?? Number.NaN,
      },
      post: {
        p50: percentile(postTimes, 50),
        p90: percentile(postTimes, 90),
        p99: percentile(postTimes, 99),
        max: postTimes.at(-1) ?? Number.NaN,
      },
      afterAnswer: {
        p50: percentile(afterAnswer, 50),
        p90: percentile(afterAnswer, 90),
        p99: percentile(afterAnswer, 99),
        max: afterAnswer.at(-1) ?? Number.NaN,
      },
      healthz: {
        p50: healthz.latency.p50,
        p99: healthz.latency.p99,
        max: healthz.latency.max,
        perSecond: healthz.requests.average,
      },
    };
  } finally {
    for (const stream of streams) stream.close();
    await server.stop();
    if (SERVER_LOG) writeFileSync(SERVER_LOG, server.stderr());
  }
}

type Report = Awaited<ReturnType<typeof bench>>;

function markdown(r: Report): string {
  return [
    `### ${r.label}: ${STREAMS} open streams, ${MESSAGES} messages at ${RATE}/s`,
    '',
    `Filled in ${r.fillSeconds.toFixed(1)} s; ${STREAMS} streams opened in ${r.connectSeconds.toFixed(1)} s ` +
      `(server RSS ${r.rssBefore.toFixed(0)} MB before, ${r.rssWithStreams.toFixed(0)} MB with them open); ` +
      `messages sent in ${r.sendSeconds.toFixed(1)} s; ${r.lost} not delivered within ${DRAIN_MS / 1000} s; ` +
      `${r.openAtEnd} of ${STREAMS} streams still open at the end.`,
    '',
    '| measure | p50 ms | p90 ms | p99 ms | max ms | req/s |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    `| message delivery (POST sent -> recipient's 'message' event parsed) | ${ms(r.delivery.p50)} | ${ms(r.delivery.p90)} | ${ms(r.delivery.p99)} | ${ms(r.delivery.max)} | ${RATE} |`,
    `| POST /api/barter-requests/:id/messages (its answer) | ${ms(r.post.p50)} | ${ms(r.post.p90)} | ${ms(r.post.p99)} | ${ms(r.post.max)} | ${RATE} |`,
    `| delivery after the POST's answer (negative: before it) | ${ms(r.afterAnswer.p50)} | ${ms(r.afterAnswer.p90)} | ${ms(r.afterAnswer.p99)} | ${ms(r.afterAnswer.max)} | |`,
    `| GET /healthz (autocannon, 10 connections, ${HEALTHZ_SECONDS} s, streams open) | ${ms(r.healthz.p50)} | | ${ms(r.healthz.p99)} | ${ms(r.healthz.max)} | ${r.healthz.perSecond.toFixed(0)} |`,
  ].join('\n');
}

async function main() {
  console.log(benchHeader('bench:events'));
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bh-bench-events-'));
  let report: Report;
  try {
    if (DB === 'pglite') {
      const open = async () => {
        const database = await openPglite({ dataDir: path.join(dataDir, 'pglite') });
        await migrateDatabase(database);
        return database;
      };
      report = await bench('PGlite', open, { DATA_DIR: dataDir });
    } else {
      const postgres = await freshBenchDatabase('barterhood_bench_events');
      try {
        const open = async () => {
          const database = openPostgres({ url: postgres.url, poolMax: 10, statementTimeoutMs: 600_000 });
          await migrateDatabase(database, postgres.url);
          return database;
        };
        report = await bench('PostgreSQL', open, { DATABASE_URL: postgres.url, DATA_DIR: dataDir });
      } finally {
        await postgres.drop();
      }
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`\n${markdown(report)}\n`);
  console.log(`load average at the end: ${loadAverage()}`);
}

runBench(main);
