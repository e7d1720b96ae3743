/**
 * `npm run bench:uploads`: what a flood of maximum-size photo uploads does to the server (issue 12
 * point 5, ADR 013).
 *
 * Starts the real server in its own process (the compiled build as `npm start` runs it, NODE_ENV=
 * production; scripts/bench-server.ts) on a fresh database, signs members in through
 * POST /api/auth/login, then measures from this process:
 * 1. the photo pipeline alone (encodePhoto, in this process, nothing else running) on a typical
 *    12-megapixel photo;
 * 2. a bare GET /healthz with autocannon (the baseline);
 * 3. one 12-megapixel upload at a time (multipart): the request's time, and the server's CPU time
 *    per upload from /proc/PID/stat;
 * 4. floods of `--uploads` parallel maximum-size (about 10 MB) uploads sent by autocannon, once as
 *    multipart and once as data URLs in JSON (the spec's form), while a second autocannon, in a
 *    process of its own, keeps asking /healthz: status counts (every request must be answered),
 *    /healthz p50/p99 meanwhile, and the server's peak RSS (VmHWM, reset before each flood, and
 *    VmRSS sampled every 20 ms);
 * 5. the same flood from clients that wait Retry-After after a 503 until every photo is stored.
 *
 * Flags (or BENCH_<NAME>):
 *   --db=pglite|postgres       the embedded database in a temporary DATA_DIR (default), or a fresh
 *                              database barterhood_bench_uploads on DATABASE_URL's server
 *   --uploads=20 --singles=10  parallel uploads per flood; photos timed one at a time
 *   --healthz-connections=10 --bare-seconds=5 --log-level=info
 *   --first=multipart|json     which flood goes first (memory a flood leaves counts for the next)
 *   --server-env=NAME=value,...  more settings for the server (e.g. MALLOC_ARENA_MAX=2)
 * Prints each phase, then the Markdown table for docs/performance.md.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import sharp from 'sharp';
import { PHOTO_MAX_BYTES } from '#common/constants.ts';
import { openPglite } from '#server/db/client.ts';
import { migrateDatabase } from '#server/db/migrate.ts';
import { openPostgres } from '#server/db/postgres.ts';
import { encodePhoto } from '#server/photos/photo-pipeline.ts';
import { createUser } from '#server/test/factories.ts';
import {
  benchHeader,
  freshBenchDatabase,
  loadAverage,
  multipartBody,
  numberOption,
  option,
  percentile,
  photoLike,
  request,
  startServer,
} from './bench-server';

const SCRIPT = fileURLToPath(import.meta.url);
/** The server's database: the embedded PGlite (what `npm start` runs by default) or PostgreSQL. */
const DB = option('db', 'pglite');
const UPLOADS = numberOption('uploads', 20);
const SINGLES = numberOption('singles', 10);
const HEALTHZ_CONNECTIONS = numberOption('healthz-connections', 10);
const BARE_SECONDS = numberOption('bare-seconds', 5);
const LOG_LEVEL = option('log-level', 'info');
const PASSWORD = 'bench-uploads-password-1';
/**
 * Peak RSS: 700 MB as issue 12 set it; 850 MB with the explicit-content screening on (the default),
 * whose model and worker thread hold about 170 MB more (ADR 027).
 */
const SCREENING_OFF = /(^|,)PHOTO_SCREENING=(false|0|no)(,|$)/.test(option('server-env', ''));
const TARGETS = { healthzP99Ms: 100, rssMb: SCREENING_OFF ? 700 : 850, photoMs: 100 };

/** --server-env: more settings for the server. */
function serverEnv(): Record<string, string> {
  const pairs = option('server-env', '')
    .split(',')
    .filter(Boolean)
    .map((pair) => pair.split('=', 2) as [string, string]);
  return Object.fromEntries(pairs);
}

const listing = {
  title: 'Bench photo',
  description: 'A photo from the upload benchmark.',
  category: 'tools',
};

const MB = 1024 * 1024;
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** The server's CPU time so far (user + system), in ms. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/** A `VmRSS`/`VmHWM` line of /proc/PID/status, in MB. */
function memoryMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

/** Watch the server's memory: VmHWM reset now (Linux clear_refs 5), VmRSS sampled every 20 ms. */
function watchMemory(pid: number) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Not allowed here: VmHWM is then the peak since the server started.
  }
  let sampled = memoryMb(pid, 'VmRSS');
  const timer = setInterval(() => {
    sampled = Math.max(sampled, memoryMb(pid, 'VmRSS'));
  }, 20);
  return {
    stop: () => {
      clearInterval(timer);
      return { sampledMb: sampled, hwmMb: memoryMb(pid, 'VmHWM') };
    },
  };
}

type Result = autocannon.Result;

/** autocannon as a promise, with a way to stop it early (the /healthz probe stops with the flood). */
function cannon(options: autocannon.Options) {
  let instance: autocannon.Instance | undefined;
  const done = new Promise<Result>((resolve, reject) => {
    instance = autocannon({ ...options }, (error, result) => (error ? reject(error) : resolve(result)));
  });
  return { done, stop: () => instance?.stop() };
}

const healthzOptions = (base: string, seconds: number): autocannon.Options => ({
  url: `${base}/healthz`,
  connections: HEALTHZ_CONNECTIONS,
  duration: seconds,
});

/**
 * The /healthz probe during a flood, in a process of its own (this script with --probe=URL), so the
 * client busy sending the uploads does not delay its readings. It runs until told to stop.
 */
function startProbe(base: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, `--probe=${base}`], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const result = new Promise<Result>((resolve, reject) => {
    child.once('message', (message) => resolve(message as Result));
    child.once('exit', (code) => reject(new Error(`the /healthz probe exited with code ${code}`)));
  });
  const ready = new Promise<void>((resolve) => child.once('spawn', () => setTimeout(resolve, 1500)));
  return {
    ready,
    stop: () => {
      child.send('stop');
      return result;
    },
  };
}

/** --probe=URL: probe URL/healthz until the parent says stop, then send it the result. */
async function probeMain(base: string) {
  const probe = cannon(healthzOptions(base, 3600));
  process.once('message', () => probe.stop());
  const result = await probe.done;
  process.send?.(result, () => process.exit(0));
}

interface FloodReport {
  name: string;
  uploadMb: number;
  statuses: Record<string, number>;
  answered: number;
  errors: number;
  timeouts: number;
  seconds: number;
  uploadP50: number;
  uploadMax: number;
  healthz: { p50: number; p99: number; max: number; perSecond: number; requests: number };
  rss: { sampledMb: number; hwmMb: number };
}

/** `UPLOADS` parallel requests of `body` by autocannon, one per member, while /healthz is probed. */
async function flood(
  name: string,
  base: string,
  pid: number,
  cookies: string[],
  body: Buffer,
  contentType: string,
): Promise<FloodReport> {
  const probe = startProbe(base);
  await probe.ready; // the probe is running before the flood starts
  const memory = watchMemory(pid);
  let connection = 0;
  const started = performance.now();
  const uploads = await cannon({
    url: `${base}/api/items`,
    method: 'POST',
    connections: UPLOADS,
    amount: UPLOADS,
    timeout: 120,
    body,
    headers: { 'content-type': contentType },
    setupClient: (client) => {
      client.setHeaders({
        'content-type': contentType,
        cookie: cookies[connection++ % cookies.length] ?? '',
      });
    },
  }).done;
  const seconds = (performance.now() - started) / 1000;
  const rss = memory.stop();
  const healthz = await probe.stop();
  const statuses: Record<string, number> = {};
  for (const [code, stats] of Object.entries(uploads.statusCodeStats ?? {}))
    statuses[code] = stats.count ?? 0;
  return {
    name,
    uploadMb: body.length / MB,
    statuses,
    answered: Object.values(statuses).reduce((sum, count) => sum + count, 0),
    errors: uploads.errors,
    timeouts: uploads.timeouts,
    seconds,
    uploadP50: uploads.latency.p50,
    uploadMax: uploads.latency.max,
    healthz: {
      p50: healthz.latency.p50,
      p99: healthz.latency.p99,
      max: healthz.latency.max,
      perSecond: healthz.requests.average,
      requests: healthz.requests.total,
    },
    rss,
  };
}

/**
 * Every member uploads one photo and, when told 503, waits Retry-After seconds and tries again,
 * until all are stored: how long a flood takes to get through when clients behave.
 */
async function retryingFlood(
  base: string,
  pid: number,
  cookies: string[],
  body: Buffer,
  contentType: string,
) {
  const probe = startProbe(base);
  await probe.ready;
  const memory = watchMemory(pid);
  let attempts = 0;
  let refused = 0;
  const started = performance.now();
  const statuses: Record<string, number> = {};
  await Promise.all(
    Array.from({ length: UPLOADS }, async (_, index) => {
      for (;;) {
        attempts++;
        const answer = await request(
          base,
          'POST',
          '/api/items',
          { 'content-type': contentType, cookie: cookies[index % cookies.length] ?? '' },
          body,
        );
        if (answer.status !== 503) {
          statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
          return;
        }
        refused++;
        const retryAfter = Number(answer.headers['retry-after'] ?? 1);
        await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const rss = memory.stop();
  const healthz = await probe.stop();
  return {
    seconds,
    attempts,
    refused,
    statuses,
    healthz: { p50: healthz.latency.p50, p99: healthz.latency.p99, max: healthz.latency.max },
    rss,
  };
}

/** Sign a member in; the session cookie. */
async function signIn(base: string, email: string): Promise<string> {
  const answer = await request(
    base,
    'POST',
    '/api/auth/login',
    { 'content-type': 'application/json' },
    JSON.stringify({ email, password: PASSWORD }),
  );
  const cookie = answer.setCookie.find((value) => /^(__Host-)?bh_session=/.test(value));
  if (answer.status !== 200 || !cookie) throw new Error(`sign-in failed: ${answer.status} ${answer.body}`);
  return cookie.split(';', 1)[0] as string;
}

interface PipelineTiming {
  name: string;
  p50: number;
  min: number;
  /** CPU time per photo, every thread of this process. */
  cpu: number;
}

/** Time `encode` SINGLES times after 3 warm-up runs, one at a time. */
async function timePipeline(name: string, encode: () => Promise<unknown>): Promise<PipelineTiming> {
  for (let i = 0; i < 3; i++) await encode();
  const times: number[] = [];
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < SINGLES; i++) {
    const started = performance.now();
    await encode();
    times.push(performance.now() - started);
  }
  const cpu = process.cpuUsage(cpuBefore);
  times.sort((a, b) => a - b);
  return {
    name,
    p50: percentile(times, 50),
    min: times[0] ?? Number.NaN,
    cpu: (cpu.user + cpu.system) / 1000 / SINGLES,
  };
}

/**
 * The pipeline as it was before ADR 013 (ADR 008), for comparison: each size decoded on its own
 * (two clones), WebP at the default effort 4.
 */
async function encodeAsBefore(bytes: Buffer) {
  const upright = sharp(bytes, { limitInputPixels: 50_000_000, failOn: 'error' }).rotate();
  const resized = (maxPx: number) =>
    upright.clone().resize({ width: maxPx, height: maxPx, fit: 'inside', withoutEnlargement: true });
  return Promise.all([
    resized(1600).webp({ quality: 82 }).toBuffer(),
    resized(600).webp({ quality: 76 }).toBuffer(),
  ]);
}

const ms = (value: number) => value.toFixed(1);
const pass = (ok: boolean) => (ok ? 'met' : 'NOT met');

async function main() {
  const load = loadAverage;
  const startLoad = load();
  console.log(
    benchHeader('bench:uploads', `sharp ${sharp.versions.sharp} (libvips ${sharp.versions.vips}), `),
  );

  // Photos: a typical 12-megapixel phone photo, and the largest a member may send (about 10 MB).
  const typical = await photoLike(4032, 3024, 92, 6);
  const largest = await photoLike(4032, 3024, 100, 10);
  if (largest.length > PHOTO_MAX_BYTES) throw new Error('the flood photo is over PHOTO_MAX_BYTES');
  console.log(
    `photos: typical 4032 x 3024 JPEG ${(typical.length / MB).toFixed(2)} MB; ` +
      `largest 4032 x 3024 JPEG ${(largest.length / MB).toFixed(2)} MB (limit ${PHOTO_MAX_BYTES / MB} MB)`,
  );

  // 1. The pipeline alone, in this process: a detailed and a soft photo, now and as it was.
  const soft = await sharp(typical).blur(2.5).jpeg({ quality: 90 }).toBuffer();
  const pipelines: PipelineTiming[] = [];
  for (const [photo, name] of [
    [typical, `detailed, ${(typical.length / MB).toFixed(1)} MB`],
    [soft, `soft, ${(soft.length / MB).toFixed(1)} MB`],
  ] as const) {
    for (const [encode, version] of [
      [encodePhoto, 'now'],
      [encodeAsBefore, 'before (ADR 008)'],
    ] as const) {
      const timing = await timePipeline(`${name}, ${version}`, () => encode(photo));
      pipelines.push(timing);
      console.log(
        `pipeline alone, 12 MP ${timing.name}: p50 ${ms(timing.p50)} ms, min ${ms(timing.min)} ms, ` +
          `CPU ${ms(timing.cpu)} ms per photo`,
      );
    }
  }
  const pipeline = pipelines[0] as PipelineTiming;

  // The server, on PGlite with members who can sign in.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bh-bench-uploads-'));
  const postgres = DB === 'postgres' ? await freshBenchDatabase('barterhood_bench_uploads') : null;
  try {
    const database = postgres
      ? openPostgres({ url: postgres.url, poolMax: 2, statementTimeoutMs: 60_000 })
      : await openPglite({ dataDir: path.join(dataDir, 'pglite') });
    const emails: string[] = [];
    try {
      await migrateDatabase(database, postgres?.url);
      for (let i = 0; i < UPLOADS; i++) {
        emails.push(
          (await createUser(database.db, { password: PASSWORD, email: `uploader${i}@bench.test` })).email ??
            '',
        );
      }
    } finally {
      await database.close();
    }
    const server = await startServer(
      {
        DATA_DIR: dataDir,
        ...(postgres ? { DATABASE_URL: postgres.url } : {}),
        ITEM_CREATE_RATE_LIMIT: '1000000',
        ...serverEnv(),
      },
      { logLevel: LOG_LEVEL },
    );
    try {
      const { base, pid } = server;
      const cookies: string[] = [];
      for (const email of emails) cookies.push(await signIn(base, email));
      console.log(
        `server (own process, pid ${pid}, ${postgres ? 'PostgreSQL' : 'PGlite'}) on ${base}, ` +
          `${cookies.length} members signed in`,
      );
      const restMb = memoryMb(pid, 'VmRSS');
      console.log(`server RSS at rest: ${restMb.toFixed(0)} MB`);

      // 2. Bare /healthz.
      const bare = await cannon(healthzOptions(base, BARE_SECONDS)).done;
      console.log(
        `GET /healthz, bare: p50 ${ms(bare.latency.p50)} ms, p99 ${ms(bare.latency.p99)} ms, ` +
          `${bare.requests.average.toFixed(0)} req/s (${HEALTHZ_CONNECTIONS} connections)`,
      );

      // 3. One 12-megapixel upload at a time.
      const single = await multipartBody(listing, typical);
      const headers = { 'content-type': single.contentType, cookie: cookies[0] ?? '' };
      for (let i = 0; i < 2; i++) await request(base, 'POST', '/api/items', headers, single.body);
      const uploadTimes: number[] = [];
      const serverCpuBefore = cpuMs(pid);
      for (let i = 0; i < SINGLES; i++) {
        const t0 = performance.now();
        const answer = await request(base, 'POST', '/api/items', headers, single.body);
        uploadTimes.push(performance.now() - t0);
        if (answer.status !== 201) throw new Error(`upload failed: ${answer.status} ${answer.body}`);
      }
      const serverCpu = (cpuMs(pid) - serverCpuBefore) / SINGLES;
      uploadTimes.sort((a, b) => a - b);
      const one = { p50: percentile(uploadTimes, 50), min: uploadTimes[0] ?? Number.NaN, cpu: serverCpu };
      console.log(
        `one 12 MP upload at a time (multipart, ${(single.body.length / MB).toFixed(2)} MB): ` +
          `p50 ${ms(one.p50)} ms, min ${ms(one.min)} ms; server CPU ${ms(one.cpu)} ms per upload; ` +
          `server RSS afterwards ${memoryMb(pid, 'VmRSS').toFixed(0)} MB`,
      );

      // 4. The floods.
      const largestForm = await multipartBody(listing, largest);
      const largestJson = Buffer.from(
        JSON.stringify({ ...listing, imageUrl: `data:image/jpeg;base64,${largest.toString('base64')}` }),
      );
      const floods: FloodReport[] = [];
      const kinds = [
        ['multipart/form-data', largestForm.body, largestForm.contentType],
        ['JSON with a data URL', largestJson, 'application/json'],
      ] as const;
      for (const [name, body, type] of option('first', 'multipart') === 'json'
        ? [...kinds].reverse()
        : kinds) {
        const report = await flood(name, base, pid, cookies, body, type);
        floods.push(report);
        console.log(
          `flood of ${UPLOADS} x ${report.uploadMb.toFixed(1)} MB as ${name}: answered ${report.answered}/${UPLOADS} ` +
            `${JSON.stringify(report.statuses)} errors ${report.errors} timeouts ${report.timeouts} in ${report.seconds.toFixed(1)} s ` +
            `(upload p50 ${report.uploadP50} ms, max ${report.uploadMax} ms) | /healthz p50 ${ms(report.healthz.p50)} ms ` +
            `p99 ${ms(report.healthz.p99)} ms max ${ms(report.healthz.max)} ms (${report.healthz.requests} requests) | ` +
            `RSS peak ${report.rss.hwmMb.toFixed(0)} MB (VmHWM), ${report.rss.sampledMb.toFixed(0)} MB (sampled)`,
        );
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }

      // 5. Clients that honour Retry-After.
      const retrying = await retryingFlood(base, pid, cookies, largestForm.body, largestForm.contentType);
      console.log(
        `${UPLOADS} uploads retrying after 503: all answered ${JSON.stringify(retrying.statuses)} in ` +
          `${retrying.seconds.toFixed(1)} s, ${retrying.attempts} attempts (${retrying.refused} refused) | /healthz p50 ` +
          `${ms(retrying.healthz.p50)} ms p99 ${ms(retrying.healthz.p99)} ms | RSS peak ${retrying.rss.hwmMb.toFixed(0)} MB`,
      );

      const worstP99 = Math.max(...floods.map((f) => f.healthz.p99), retrying.healthz.p99);
      const worstRss = Math.max(
        ...floods.map((f) => Math.max(f.rss.hwmMb, f.rss.sampledMb)),
        retrying.rss.hwmMb,
      );
      const allAnswered = floods.every((f) => f.answered === UPLOADS && f.errors === 0 && f.timeouts === 0);
      const lines = [
        '',
        `${postgres ? 'PostgreSQL' : 'PGlite'}; server RSS at rest ${restMb.toFixed(0)} MB. Machine: ${os.cpus().length} cores ` +
          `(${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, sharp ${sharp.versions.sharp} ` +
          `(libvips ${sharp.versions.vips}); load average at the start ${startLoad}, at the end ${load()}.`,
        '',
        '| measure | figure | target |',
        '| --- | ---: | --- |',
        `| GET /healthz, bare (${HEALTHZ_CONNECTIONS} connections) | p50 ${ms(bare.latency.p50)} ms, p99 ${ms(bare.latency.p99)} ms | |`,
        ...floods.flatMap((f) => [
          `| ${UPLOADS} parallel uploads of ${f.uploadMb.toFixed(1)} MB as ${f.name}: answered | ${f.answered} of ${UPLOADS} (${Object.entries(
            f.statuses,
          )
            .map(([code, count]) => `${count} x ${code}`)
            .join(
              ', ',
            )}), ${f.errors} errors, ${f.timeouts} timeouts, in ${f.seconds.toFixed(1)} s | every request |`,
          `| ... GET /healthz meanwhile | p50 ${ms(f.healthz.p50)} ms, p99 ${ms(f.healthz.p99)} ms, max ${ms(f.healthz.max)} ms | p99 < ${TARGETS.healthzP99Ms} ms |`,
          `| ... server peak RSS | ${Math.max(f.rss.hwmMb, f.rss.sampledMb).toFixed(0)} MB | < ${TARGETS.rssMb} MB |`,
        ]),
        `| ${UPLOADS} uploads retrying after Retry-After | all stored (${JSON.stringify(retrying.statuses)}) in ${retrying.seconds.toFixed(1)} s, ${retrying.attempts} attempts; /healthz p99 ${ms(retrying.healthz.p99)} ms; RSS ${retrying.rss.hwmMb.toFixed(0)} MB | |`,
        ...pipelines.map(
          (p) =>
            `| one 12 MP photo (${p.name}), pipeline alone: p50 / min / CPU | ${ms(p.p50)} / ${ms(p.min)} / ${ms(p.cpu)} ms | ${p.name.endsWith('now') ? `< ${TARGETS.photoMs} ms` : ''} |`,
        ),
        `| one 12 MP upload at a time, request p50 / server CPU per upload | ${ms(one.p50)} ms / ${ms(one.cpu)} ms | |`,
        '',
        `Targets: /healthz p99 ${pass(worstP99 < TARGETS.healthzP99Ms)} (worst ${ms(worstP99)} ms); every request answered ` +
          `${pass(allAnswered)}; RSS ${pass(worstRss < TARGETS.rssMb)} (worst ${worstRss.toFixed(0)} MB); 12 MP photo ` +
          `${pass(pipeline.p50 < TARGETS.photoMs)} (${ms(pipeline.p50)} ms).`,
      ];
      console.log(lines.join('\n'));
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    await postgres?.drop();
  }
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
