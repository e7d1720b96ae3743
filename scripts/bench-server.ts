/**
 * What the HTTP benchmarks share (bench-feed.ts, bench-uploads.ts, bench-evening.ts): their flags, the
 * real server started in its own process, a light keep-alive HTTP client, percentiles, and photo-like
 * JPEGs in multipart bodies.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import pg from 'pg';
import sharp from 'sharp';

/** A flag `--name=value` (`--name` alone is "true"), else the variable BENCH_NAME, else `fallback`. */
export function option(name: string, fallback: string): string {
  const flag = process.argv.find((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`));
  if (flag) return flag.includes('=') ? flag.slice(flag.indexOf('=') + 1) : 'true';
  return process.env[`BENCH_${name.toUpperCase().replaceAll('-', '_')}`] ?? fallback;
}

/** A positive whole-number option (see option). */
export function numberOption(name: string, fallback: number): number {
  const value = Number(option(name, String(fallback)));
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return Math.floor(value);
}

/** The value at percentile `p` of ascending `sorted` values (NaN when there are none). */
export const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number);

/**
 * The load generator's HTTP client: node:http over keep-alive connections (one per request in
 * flight), in this process, while the server runs in its own (startServer), so the two do not share
 * an event loop and the client's own cost per request stays small.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

export interface Answer {
  status: number;
  body: string;
  setCookie: string[];
  headers: http.IncomingHttpHeaders;
}

/** One request with the benchmark's keep-alive client; resolves with status, body and headers. */
export function request(
  base: string,
  method: 'GET' | 'POST' | 'PATCH',
  pathname: string,
  headers: Record<string, string>,
  body?: string | Buffer,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(`${base}${pathname}`, { method, agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          setCookie: response.headers['set-cookie'] ?? [],
          headers: response.headers,
        }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (address && typeof address !== 'string' ? resolve(address.port) : reject()));
    });
  });
}

export interface RunningServer {
  base: string;
  /** The server's own process id (for /proc/PID: memory, CPU time). */
  pid: number;
  /** SIGTERM (unless it has exited already), then wait for the exit. */
  stop: () => Promise<void>;
  /** Send the process a signal (the shutdown test). */
  kill: (signal: NodeJS.Signals) => void;
  /** Resolves when the process has exited, with its code or the signal that ended it. */
  exited: Promise<ServerExit>;
  /** What the process wrote to stderr and stdout (its log) so far (only with `stderr: 'capture'`). */
  stderr: () => string;
}

export interface ServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface StartServerOptions {
  /** The server's LOG_LEVEL (production's default, info, logs each request). */
  logLevel?: string;
  /** Write the server's V8 CPU profile to bench-profiles/ when it stops. */
  profile?: boolean;
  /** Listen on this port (default: a free one the system picks). */
  port?: number;
  /** The server's stderr: passed through (default), or kept with its log lines for `RunningServer.stderr()`. */
  stderr?: 'inherit' | 'capture';
  /** How long to wait for /readyz to answer 200 (default 120 s). */
  readyTimeoutMs?: number;
}

let built = false;

/**
 * Build what `npm start` would build first (scripts/build-stale.ts: only what is missing or older
 * than its sources), once per process and before any server starts, so servers started together
 * never build at once.
 */
function buildOnce(): void {
  if (built) return;
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-stale.ts', '--web'], {
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`the build failed (exit ${result.status ?? result.signal})`);
  built = true;
}

/**
 * The real server as `npm start` runs it (scripts/run.mjs: the compiled dist/node/main.mjs, built
 * first when older than its sources; ADR 071), NODE_ENV=production, in a child process on
 * 127.0.0.1, with `env` on top of the benchmark settings: `DATABASE_URL`, or PGlite under
 * `DATA_DIR`. Not waited for: see startServer for a server that is ready.
 */
export async function spawnServer(
  env: Record<string, string>,
  { logLevel = 'info', profile = false, port: chosenPort, stderr = 'inherit' }: StartServerOptions = {},
): Promise<RunningServer> {
  buildOnce();
  const port = chosenPort ?? (await freePort());
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const args: string[] = [];
  if (profile) args.push('--cpu-prof', '--cpu-prof-dir=bench-profiles');
  args.push('scripts/run.mjs', 'main');
  const child: ChildProcess = spawn(process.execPath, args, {
    env: {
      ...inherited,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      SESSION_SECRET: 'bench-secret-that-is-long-enough-0123456789',
      SITE_PASSWORD: '',
      SEED_DEMO: 'false',
      LOG_LEVEL: logLevel,
      LOGIN_RATE_LIMIT: '1000',
      LOGIN_ACCOUNT_RATE_LIMIT: '1000',
      // As `npm start` runs it (scripts/start.ts): two glibc malloc arenas unless told otherwise.
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
      ...env,
    },
    stdio: ['ignore', stderr === 'capture' ? 'pipe' : 'ignore', stderr === 'capture' ? 'pipe' : 'inherit'],
  });
  let written = '';
  const keep = (chunk: Buffer) => {
    written += chunk.toString('utf8');
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<ServerExit>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    base: `http://127.0.0.1:${port}`,
    pid: child.pid as number,
    exited,
    stderr: () => written,
    kill: (signal) => child.kill(signal),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The real server (spawnServer), once /readyz answers 200. */
export async function startServer(
  env: Record<string, string>,
  options: StartServerOptions = {},
): Promise<RunningServer> {
  const server = await spawnServer(env, options);
  const seen: { exit: ServerExit | null } = { exit: null };
  void server.exited.then((value) => {
    seen.exit = value;
  });
  const timeoutMs = options.readyTimeoutMs ?? 120_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (seen.exit) {
      const { code, signal } = seen.exit;
      throw new Error(`the server exited with ${signal ?? `code ${code}`}${tail(server.stderr())}`);
    }
    if (Date.now() > deadline) {
      process.kill(server.pid, 'SIGKILL');
      throw new Error(`the server did not become ready within ${timeoutMs / 1000} s${tail(server.stderr())}`);
    }
    const ready = await request(server.base, 'GET', '/readyz', {}).catch(() => null);
    if (ready?.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return server;
}

/** The last lines a server wrote to stderr, for an error message. */
const tail = (text: string) => (text.trim() ? `: ${text.trim().split('\n').slice(-3).join(' | ')}` : '');

/** The machine's load average over 1, 5 and 15 minutes, as printed beside every bench's figures. */
export const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');

/** The first line of a bench's output: the machine it ran on. */
export const benchHeader = (name: string, extra = '') =>
  `# ${name} on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}, ` +
  `${extra}load average ${loadAverage()}`;

/** Run a bench's main function and exit with its outcome (open handles must not keep it alive). */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}

/**
 * A fresh database `name` on the PostgreSQL server DATABASE_URL names (default the local one),
 * for a bench run; `drop()` removes it afterwards.
 */
export async function freshBenchDatabase(name: string): Promise<{ url: string; drop(): Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/**
 * A photo-like JPEG: detail at every scale (each level doubles the size and adds finer detail, so
 * the spectrum falls off like a photograph's), mostly brightness with softer colour, and sensor
 * grain at full size. Deterministic for a seed.
 */
export async function photoLike(
  width: number,
  height: number,
  quality: number,
  grain: number,
): Promise<Buffer> {
  let seed = 12345;
  const random = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  let w = Math.ceil(width / 256);
  let h = Math.ceil(height / 256);
  let pixels = Buffer.alloc(w * h * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = 60 + random() * 140;
  for (let level = 7; level >= 0; level--) {
    const nextW = level === 0 ? width : Math.ceil(width / 2 ** level);
    const nextH = level === 0 ? height : Math.ceil(height / 2 ** level);
    pixels = await sharp(pixels, { raw: { width: w, height: h, channels: 3 } })
      .resize(nextW, nextH, { fit: 'fill', kernel: 'cubic' })
      .raw()
      .toBuffer();
    w = nextW;
    h = nextH;
    const amplitude = level === 0 ? grain : 4 + level * 3;
    for (let p = 0; p < w * h; p++) {
      const brightness = (random() - 0.5) * amplitude * 2;
      for (let c = 0; c < 3; c++) {
        const o = p * 3 + c;
        pixels[o] = Math.max(
          0,
          Math.min(255, (pixels[o] as number) + brightness + (random() - 0.5) * amplitude * 0.5),
        );
      }
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality })
    .toBuffer();
}

/** A multipart/form-data body exactly as a browser's FormData sends it: `fields`, then the photo. */
export async function multipartBody(
  fields: Record<string, string>,
  photo: Buffer,
): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('photo', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'photo.jpg');
  const encoded = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    body: Buffer.from(await encoded.arrayBuffer()),
    contentType: encoded.headers.get('content-type') ?? '',
  };
}
