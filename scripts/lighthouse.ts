/**
 * `npm run lighthouse` (issue 17, ADR 033): Lighthouse with its default mobile settings (a mid-range
 * phone's screen, 4x slower CPU, slow 4G, simulated) in Debian's Chromium against the built web app,
 * served by its own server on a fresh embedded database: the landing page, the signed-in feed, the
 * profile and a barter page. Members, items with photos, a want and a barter are made through the API;
 * the site gate's and the session's cookies reach Lighthouse as an extra Cookie header.
 *
 * Fails below 95 for accessibility or best practices, below 90 for performance, or when the largest
 * contentful paint takes longer than 1.5 s. Each run has a fresh browser and profile (no service
 * worker or cache left by the page before). Prints a table; the reports stay in DATA_DIR/reports as
 * JSON. Needs the web build (dist/web): `npx vite build` first. The server is the one `npm start`
 * runs (scripts/run.mjs: the compiled dist/node/main.mjs, built first when stale), and each run's line
 * gives its CPU time during the run beside the host's.
 *
 * Settings: LIGHTHOUSE_PORT (5303), LIGHTHOUSE_DATA_DIR (.data-lighthouse, emptied first),
 * CHROMIUM_PATH (/usr/bin/chromium), LIGHTHOUSE_PAGES (names to run, comma-separated),
 * LIGHTHOUSE_RUNS (runs per page, judged by their median as Lighthouse advises; 1), LIGHTHOUSE_SERVER_LOG
 * (1 to show the server's log).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import sharp from 'sharp';
import { CHROMIUM_ARGS } from '../playwright.config';
import {
  judge,
  type LighthouseFigures,
  median,
  needsMoreRuns,
  type PageRun,
  THRESHOLDS,
} from './lighthouse-judge';

const PORT = Number(process.env.LIGHTHOUSE_PORT ?? 5303);
const BASE_URL = `http://127.0.0.1:${PORT}`;
const DATA_DIR = path.resolve(process.env.LIGHTHOUSE_DATA_DIR ?? '.data-lighthouse');
const SITE_PASSWORD = 'lighthouse-gate';
const MEMBER_PASSWORD = 'Lighthouse-2026!';
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
/** Runs per page, judged by their median (LIGHTHOUSE_RUNS; one keeps CI short). */
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 1));
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const started = Date.now();
const seconds = () => ((Date.now() - started) / 1000).toFixed(1);

// --- The server ---

/**
 * The server runs at a lower CPU priority (`nice -n 10`, where there is `nice`): in service it runs on
 * another machine than the phone, while here it shares two cores with the browser whose main thread
 * is being measured. At equal priority, a run whose page work met the server's (the page's API calls
 * and drawing) counted that wait as the page's blocking time: runs fell into a fast and a slow group.
 */
function serverCommand(): [string, string[]] {
  // The server as `npm start` runs it: the compiled build (dist/node/main.mjs, built first when stale).
  const node: [string, string[]] = [process.execPath, ['scripts/run.mjs', 'main']];
  if (process.platform === 'win32' || spawnSync('nice', ['true']).status !== 0) return node;
  return ['nice', ['-n', '10', node[0], ...node[1]]];
}

/** The server's process id, for its CPU time per run (`nice` replaces itself with the server). */
let serverPid: number | undefined;

function startServer(): ChildProcess {
  const [command, args] = serverCommand();
  const child = spawn(command, args, {
    // LIGHTHOUSE_SERVER_LOG=1 shows the server's log (warnings and errors).
    stdio: ['ignore', process.env.LIGHTHOUSE_SERVER_LOG === '1' ? 'inherit' : 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(PORT),
      HOST: '127.0.0.1',
      PUBLIC_URL: BASE_URL,
      DATA_DIR,
      SITE_PASSWORD,
      SESSION_SECRET: randomBytes(32).toString('hex'),
      SEED_DEMO: 'false',
      // Measured here: pages, not the photo model's first load or the circle finder's runs.
      PHOTO_SCREENING: 'false',
      CIRCLE_FINDER: 'false',
      LOG_LEVEL: 'warn',
      GATE_RATE_LIMIT: '10000',
      REGISTER_RATE_LIMIT: '10000',
      LOGIN_RATE_LIMIT: '10000',
    },
  });
  serverPid = child.pid;
  return child;
}

async function waitUntilReady(server: ChildProcess): Promise<void> {
  // Three minutes: scripts/run.mjs first builds what is stale (the server, and the web app when its
  // sources are newer than dist/web), which takes a minute on a slow host.
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`The server exited with code ${server.exitCode}`);
    try {
      if ((await fetch(`${BASE_URL}/readyz`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The server did not answer ${BASE_URL}/readyz within 180 s`);
}

// --- Seeding through the API, as a browser would ---

/** A client that keeps the cookies the server sets, like a browser. */
class Client {
  readonly cookies = new Map<string, string>();

  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async call<T>(method: string, url: string, body?: unknown): Promise<T> {
    const response = await fetch(`${BASE_URL}${url}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.cookies.size ? { cookie: this.cookieHeader } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair = ''] = header.split(';');
      const at = pair.indexOf('=');
      if (at > 0) this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  }
}

/** A photo as a phone would send it: 1600x1200 JPEG with detail (a plain colour would weigh nothing). */
async function photoDataUrl(hue: number): Promise<string> {
  const width = 1600;
  const height = 1200;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3;
      const wave = Math.sin(x / 37 + Math.cos(y / 53) * 3) * 40;
      pixels[at] = (hue + x / 8 + wave) & 255;
      pixels[at + 1] = (120 + y / 6 - wave) & 255;
      pixels[at + 2] = (200 - hue / 2 + ((x * y) % 29)) & 255;
    }
  }
  const jpeg = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
  return `data:image/jpeg;base64,${jpeg.toString('base64')}`;
}

interface Seeded {
  gateCookie: string;
  memberCookie: string;
  barterId: number;
}

async function seed(): Promise<Seeded> {
  const member = async (firstName: string, lastName: string, latitude: number, location: string) => {
    const client = new Client();
    await client.call('POST', '/api/verify-password', { password: SITE_PASSWORD });
    await client.call('POST', '/api/auth/register', {
      firstName,
      lastName,
      email: `${firstName.toLowerCase()}@example.com`,
      password: MEMBER_PASSWORD,
    });
    await client.call('PUT', '/api/user/profile', {
      location,
      latitude,
      longitude: -122.6587,
      maxTravelDistance: 25,
    });
    return client;
  };
  const gate = new Client();
  await gate.call('POST', '/api/verify-password', { password: SITE_PASSWORD });
  const ann = await member('Ann', 'Avery', 45.5122, 'Portland, OR');
  const ben = await member('Ben', 'Brook', 45.5267, 'Portland, OR');

  type Item = { id: number };
  const item = async (client: Client, title: string, category: string, hue: number) =>
    client.call<Item>('POST', '/api/items', {
      title,
      description: `${title}, in good shape. Pick up any evening this week.`,
      category,
      estimatedValue: '40',
      imageUrl: await photoDataUrl(hue),
    });
  const annBike = await item(ann, 'Mountain bike', 'bikes', 10);
  await item(ann, 'Folding chair', 'furniture', 90);
  const benDrill = await item(ben, 'Cordless drill', 'tools', 160);
  await item(ben, 'Aluminum ladder', 'tools', 220);
  await ann.call('POST', '/api/wants', { title: 'Cordless drill', category: 'tools' });
  await ben.call('POST', '/api/wants', { title: 'Mountain bike', category: 'bikes' });
  // A returning member: the guided start is done and put away.
  await ann.call('PUT', '/api/account/getting-started', { completed: true });
  const barter = await ann.call<{ id: number }>('POST', '/api/barter-requests', {
    offeredItemIds: [annBike.id],
    requestedItemIds: [benDrill.id],
    message: 'My bike for your drill?',
  });
  return { gateCookie: gate.cookieHeader, memberCookie: ann.cookieHeader, barterId: barter.id };
}

// --- Lighthouse ---

/**
 * How often a run whose trace Lighthouse could not read is made again: Lighthouse ends such a run
 * with a runtime error (NO_NAVSTART, "Please run Lighthouse again") and no performance score, which
 * is a failure of the recording, not of the page.
 */
const RECORDING_ATTEMPTS = 3;

/** The host's CPU time in clock ticks, all cores together, where /proc/stat exists. */
function hostTicks(): { busy: number; steal: number; total: number } | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = line
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    return {
      busy: user + nice + system + irq + softirq,
      steal,
      total: user + nice + system + idle + iowait + irq + softirq + steal,
    };
  } catch {
    return null;
  }
}

/**
 * What the host's CPU did during a run, as shares of all its cores' time: how busy it was (this
 * script, the browser and the server among it) and how much the hypervisor gave to other machines
 * (steal). A run that blocked for long beside a high steal met a contended host, not a slower page.
 */
function hostShare(before: ReturnType<typeof hostTicks>, after: ReturnType<typeof hostTicks>): string {
  if (!before || !after || after.total <= before.total) return '';
  const share = (a: number, b: number) => Math.round((100 * (b - a)) / (after.total - before.total));
  return `, host CPU ${share(before.busy, after.busy)}% busy, ${share(before.steal, after.steal)}% stolen`;
}

/** Each process's CPU time (clock ticks) and command line, where /proc exists. */
function processTicks(): Map<number, { ticks: number; command: string }> | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return null;
  }
  const processes = new Map<number, { ticks: number; command: string }>();
  for (const pid of entries) {
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      const ticks = ticksOfProcess(pid);
      if (ticks !== null) processes.set(Number(pid), { ticks, command });
    } catch {
      // The process ended meanwhile.
    }
  }
  return processes;
}

/** One process's CPU time (user and system) in clock ticks from /proc; null when it cannot be read. */
function ticksOfProcess(pid: number | string | undefined): number | null {
  if (pid === undefined) return null;
  try {
    // Fields after the command's name, which sits in parentheses: utime and stime are 14th and 15th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

/** CPU time (clock ticks) of every process whose command line names `marker`. */
function ticksOf(processes: Map<number, { ticks: number; command: string }>, marker: string): number {
  let ticks = 0;
  for (const { ticks: used, command } of processes.values()) if (command.includes(marker)) ticks += used;
  return ticks;
}

/** The whole host's busy CPU time (clock ticks, every core) from /proc/stat. */
function hostBusyTicks(): number {
  try {
    const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1, 9);
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields.map(Number);
    return user + nice + system + irq + softirq + steal;
  } catch {
    return 0;
  }
}

/** The processes that used the most CPU between two readings, for the log. */
function busiest(
  before: Map<number, { ticks: number; command: string }>,
  after: Map<number, { ticks: number; command: string }>,
  seconds: number,
): string {
  return [...after]
    .map(([pid, { ticks, command }]) => ({ pid, command, used: ticks - (before.get(pid)?.ticks ?? ticks) }))
    .filter((process) => process.used > 0)
    .sort((a, b) => b.used - a.used)
    .slice(0, 5)
    .map((p) => `${Math.round(p.used / seconds)}% ${p.pid} ${p.command.slice(0, 90)}`)
    .join('; ');
}

/** How long a browser may take to settle after its start before the run goes ahead anyway. */
const SETTLE_LIMIT_MS = 20_000;
/** Clock ticks are 1/100 s on Linux: 5 ticks in 0.5 s is a tenth of a core. */
const QUIET_BROWSER_TICKS = 5;
/** The whole host over the same half second: the browser, the (idle) server and anything else. */
const QUIET_HOST_TICKS = 15;

/**
 * Waits until the new browser's own start-up work is over: the sum of its processes' CPU time grows
 * by less than a tenth of a core over half a second. Chromium 156 starts its toolbar's omnibox popup
 * as a web page of its own in a renderer even headless (about 1.5 s of CPU here, in the first
 * seconds); measured meanwhile, the page under test shared the two cores with it (ADR 092).
 * The same wait holds for the rest of the host (ADR 103): on two shared cores, another process's
 * work (a test suite's leftover, a build) lengthens the page's tasks that Lighthouse multiplies by
 * four. When the host stays busy the run goes ahead, and the log names the busiest processes.
 */
async function browserSettled(userDataDir: string): Promise<void> {
  if (!userDataDir) return;
  const started = Date.now();
  let before = processTicks();
  if (before === null) return;
  let hostBefore = hostBusyTicks();
  while (Date.now() - started < SETTLE_LIMIT_MS) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = processTicks() ?? new Map();
    const hostNow = hostBusyTicks();
    const browser = ticksOf(now, userDataDir) - ticksOf(before, userDataDir);
    if (browser < QUIET_BROWSER_TICKS && hostNow - hostBefore < QUIET_HOST_TICKS) return;
    if (Date.now() - started >= SETTLE_LIMIT_MS - 500) {
      console.log(
        `    the host was still busy after ${SETTLE_LIMIT_MS / 1000} s (${hostNow - hostBefore} ticks in 0.5 s); measuring anyway. Busiest: ${busiest(before, now, 0.5)}`,
      );
      return;
    }
    before = now;
    hostBefore = hostNow;
  }
}

/** What the host is doing as the step starts (load average and the busiest processes over a second). */
async function describeHost(): Promise<void> {
  const before = processTicks();
  if (!before) return;
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const after = processTicks() ?? new Map();
  const load = existsSync('/proc/loadavg') ? readFileSync('/proc/loadavg', 'utf8').trim() : '?';
  console.log(`Host: load average ${load}; busiest over 1 s: ${busiest(before, after, 1) || 'none'}`);
}

async function measure(url: string, cookie: string, name: string, run: number): Promise<PageRun> {
  for (let attempt = 1; ; attempt++) {
    // A new browser (and profile) per run: a service worker or cache from the page before cannot answer.
    const userDataDir = mkdtempSync(path.join(os.tmpdir(), 'lighthouse-chromium-'));
    const chrome = await chromeLauncher.launch({
      chromePath: CHROMIUM_PATH,
      chromeFlags: [...CHROMIUM_ARGS, '--headless=new'],
      userDataDir,
      logLevel: 'error',
    });
    try {
      await browserSettled(userDataDir);
      const cpuBefore = hostTicks();
      const serverBefore = ticksOfProcess(serverPid);
      const measured = await measureIn(chrome.port, url, cookie, name, run);
      const serverAfter = ticksOfProcess(serverPid);
      // The server's CPU during the run (ticks are 10 ms on Linux): in service it is another machine's.
      const serverCpu =
        serverBefore !== null && serverAfter !== null
          ? `, server ${(serverAfter - serverBefore) * 10} ms CPU`
          : '';
      const cpu = hostShare(cpuBefore, hostTicks()) + serverCpu;
      const f = measured.figures;
      console.log(
        `    ${name} run ${run}: performance ${f.performance}, LCP ${(f.lcpMs / 1000).toFixed(2)} s, FCP ${(f.fcpMs / 1000).toFixed(2)} s, TBT ${Math.round(f.tbtMs)} ms, benchmark index ${Math.round(measured.benchmarkIndex ?? 0)}${cpu}`,
      );
      if (!measured.recordingError || attempt === RECORDING_ATTEMPTS) return measured;
      console.log(`    ${name} run ${run}: ${measured.recordingError}; running it again`);
    } finally {
      chrome.kill();
      rmSync(userDataDir, { recursive: true, force: true });
    }
  }
}

async function measureIn(
  port: number,
  url: string,
  cookie: string,
  name: string,
  run: number,
): Promise<PageRun> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
    extraHeaders: { Cookie: cookie },
    ...(process.env.LIGHTHOUSE_THROTTLING === 'devtools' ? { throttlingMethod: 'devtools' as const } : {}),
    // The report's full-page screenshot costs seconds and is not judged.
    disableFullPageScreenshot: true,
    // LIGHTHOUSE_TRACE=profile also samples the page's JavaScript (which slows it: not for figures).
    ...(process.env.LIGHTHOUSE_TRACE === 'profile'
      ? { additionalTraceCategories: 'disabled-by-default-v8.cpu_profiler' }
      : {}),
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  const reports = path.join(DATA_DIR, 'reports');
  mkdirSync(reports, { recursive: true });
  writeFileSync(path.join(reports, `${name}-${run}.report.json`), JSON.stringify(lhr));
  // LIGHTHOUSE_TRACE=1 (or profile) keeps the run's trace (for chrome://tracing or the Performance panel).
  if (process.env.LIGHTHOUSE_TRACE && result.artifacts.Trace) {
    writeFileSync(path.join(reports, `${name}-${run}.trace.json`), JSON.stringify(result.artifacts.Trace));
  }
  const score = (category: (typeof CATEGORIES)[number]) =>
    Math.round((lhr.categories[category]?.score ?? 0) * 100);
  const figures: LighthouseFigures = {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? Number.POSITIVE_INFINITY,
    fcpMs: lhr.audits['first-contentful-paint']?.numericValue ?? Number.POSITIVE_INFINITY,
    tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? Number.POSITIVE_INFINITY,
    cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? Number.POSITIVE_INFINITY,
  };
  // What cost points: every failed audit of the three categories, for the log.
  const failed = CATEGORIES.flatMap((category) =>
    (lhr.categories[category]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0)
      .map((ref) => lhr.audits[ref.id])
      .filter((audit) => audit && audit.score !== null && audit.score < 0.9)
      .map((audit) => `${category}: ${audit?.id} (${audit?.displayValue ?? audit?.score})`),
  );
  return {
    name,
    url,
    figures,
    failed,
    finalUrl: lhr.finalDisplayedUrl,
    ...(lhr.runtimeError ? { recordingError: lhr.runtimeError.code } : {}),
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? 0,
  };
}

const pad = (text: string | number, width: number) => String(text).padStart(width);

function printTable(rows: PageRun[]): void {
  console.log(
    `\n${'page'.padEnd(10)} ${pad('perf', 5)} ${pad('a11y', 5)} ${pad('b.p.', 5)} ${pad('LCP', 7)} ${pad('FCP', 7)} ${pad('TBT', 7)} ${pad('CLS', 6)} ${pad('bench', 6)}  verdict`,
  );
  for (const row of rows) {
    const { figures: f } = row;
    const problems = judge(f);
    console.log(
      `${row.name.padEnd(10)} ${pad(f.performance, 5)} ${pad(f.accessibility, 5)} ${pad(f.bestPractices, 5)} ${pad(`${(f.lcpMs / 1000).toFixed(2)} s`, 7)} ${pad(`${(f.fcpMs / 1000).toFixed(2)} s`, 7)} ${pad(`${Math.round(f.tbtMs)} ms`, 7)} ${pad(f.cls.toFixed(3), 6)} ${pad(Math.round(row.benchmarkIndex ?? 0), 6)}  ${problems.length ? `FAIL: ${problems.join('; ')}` : 'pass'}`,
    );
  }
  console.log("(bench: Lighthouse's benchmark index of this host during the run shown)");
  console.log(
    `Thresholds: performance >= ${THRESHOLDS.performance}, accessibility >= ${THRESHOLDS.accessibility}, best practices >= ${THRESHOLDS.bestPractices}, LCP <= ${THRESHOLDS.lcpMs / 1000} s (Lighthouse mobile, simulated slow 4G, 4x CPU).`,
  );
}

async function main(): Promise<number> {
  const built = path.resolve('dist/web/index.html');
  if (!existsSync(built)) {
    console.error('No web build: run `npx vite build` (or `npm run build`) first.');
    return 1;
  }
  console.log(`Lighthouse against the web build of ${statSync(built).mtime.toISOString()}, ${BASE_URL}`);
  rmSync(DATA_DIR, { recursive: true, force: true });
  mkdirSync(DATA_DIR, { recursive: true });

  const server = startServer();
  try {
    await waitUntilReady(server);
    const seeded = await seed();
    console.log(`Server ready and seeded after ${seconds()} s`);
    await describeHost();
    const memberCookie = seeded.memberCookie;
    const pages = [
      { name: 'landing', url: `${BASE_URL}/`, cookie: seeded.gateCookie },
      { name: 'feed', url: `${BASE_URL}/`, cookie: memberCookie },
      { name: 'profile', url: `${BASE_URL}/profile`, cookie: memberCookie },
      { name: 'barter', url: `${BASE_URL}/barters/${seeded.barterId}`, cookie: memberCookie },
    ].filter(
      (page) => !process.env.LIGHTHOUSE_PAGES || process.env.LIGHTHOUSE_PAGES.split(',').includes(page.name),
    );

    // A server that has drawn a page before, as one in service has: the first draw of each page
    // loads its code and fills the caches once, which is start-up cost, not the page's.
    for (const page of pages) {
      for (let warm = 0; warm < 2; warm++)
        await (await fetch(page.url, { headers: { cookie: page.cookie } })).text();
    }

    const results: PageRun[] = [];
    for (const page of pages) {
      const runs: PageRun[] = [];
      for (let run = 1; run <= RUNS; run++) runs.push(await measure(page.url, page.cookie, page.name, run));
      // A median of three that fails gets two more runs: the verdict is then the median of five.
      while (needsMoreRuns(runs, RUNS)) {
        console.log(`    ${page.name}: the median of ${runs.length} runs fails; two more runs`);
        for (let more = 0; more < 2; more++)
          runs.push(await measure(page.url, page.cookie, page.name, runs.length + 1));
      }
      const chosen = median(runs);
      results.push(chosen);
      const note = runs.length > 1 ? ` (median of ${runs.length} runs)` : '';
      console.log(`  ${page.name}: measured after ${seconds()} s${note}`);
      if (judge(chosen.figures).length) for (const line of chosen.failed) console.log(`    - ${line}`);
    }
    printTable(results);
    const failing = results.filter((row) => judge(row.figures).length > 0);
    console.log(
      `\nLighthouse ${failing.length ? 'FAILED' : 'passed'} in ${seconds()} s (reports: ${path.relative(process.cwd(), path.join(DATA_DIR, 'reports'))})`,
    );
    return failing.length ? 1 : 0;
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => {
      if (server.exitCode !== null) resolve(null);
      else server.once('exit', resolve);
    });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
