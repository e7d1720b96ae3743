import { spawn } from 'node:child_process';
import { hashPassword, verifyPassword } from '#server/features/auth/index.ts';
import { percentile } from '../bench-server';
import { drive, type Fault, feedCall, forMs, ms, SERVER_ENV, send, sleep, TARGET_EMAIL, tally } from './kit';

const METRICS_TOKEN = 'faults-suite-metrics-token-0123456789abcdef';
const ATTACKERS = 200;
/** The account the cost of one wave is measured on (no such member: the throttle counts it the same). */
const PROBE_EMAIL = 'probe-target@faults.example';
/** LOGIN_ACCOUNT_RATE_LIMIT, as the suite runs the server (production's default). */
const ACCOUNT_LIMIT = Number(SERVER_ENV.LOGIN_ACCOUNT_RATE_LIMIT);

/**
 * The server's own count and total time of sign-in answers, by status, and the CPU time its process
 * has used (GET /metrics, ADR 038).
 */
async function loginMetrics(
  base: string,
): Promise<{ byStatus: Map<string, { count: number; seconds: number }>; cpuSeconds: number }> {
  const response = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await response.text();
  const cpu = /^process_cpu_seconds_total ([0-9.e+-]+)$/m.exec(text);
  if (!cpu) throw new Error('GET /metrics has no process_cpu_seconds_total');
  const found = new Map<string, { count: number; seconds: number }>();
  const pattern =
    /^http_request_duration_seconds_(sum|count)\{([^}]*route="\/api\/auth\/login"[^}]*)\} ([0-9.e+-]+)$/gm;
  for (const match of text.matchAll(pattern)) {
    const status = /status_code="(\d+)"/.exec(match[2] ?? '')?.[1] ?? '?';
    const entry = found.get(status) ?? { count: 0, seconds: 0 };
    if (match[1] === 'sum') entry.seconds = Number(match[3]);
    else entry.count = Number(match[3]);
    found.set(status, entry);
  }
  return { byStatus: found, cpuSeconds: Number(cpu[1]) };
}

/**
 * What one argon2id verification costs on this machine now, in CPU time as the wave's cost is (median
 * of 5): the verification runs in a thread below this one's priority (ADR 120), so its wall time on
 * a loaded host is its wait for a core, not its cost. This process does nothing else meanwhile.
 */
async function verifyCost(): Promise<number> {
  const stored = await hashPassword('a-password-to-time-0000');
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = process.cpuUsage();
    await verifyPassword(stored, 'a-wrong-password-1111');
    const used = process.cpuUsage(started);
    times.push((used.user + used.system) / 1000);
  }
  return percentile(
    times.sort((x, y) => x - y),
    50,
  );
}

/** The attacker process, started and waiting: `go()` starts its waves and resolves with its JSON summary. */
async function attacker(base: string, lasting: number, email = TARGET_EMAIL) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'scripts/faults/login-attacker.ts',
      `--base=${base}`,
      `--email=${email}`,
      `--concurrency=${ATTACKERS}`,
      '--every=1000',
      `--ms=${lasting}`,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  while (!out.includes('ready\n')) {
    if (child.exitCode !== null) throw new Error(`the attacker exited with code ${child.exitCode}`);
    await sleep(50);
  }
  return {
    async go(): Promise<{
      attempts: number;
      waves: number;
      waveMs: number[];
      byStatus: Record<string, number>;
    }> {
      child.stdin.end('go\n');
      const code = await exited;
      if (code !== 0) throw new Error(`the attacker exited with code ${code}`);
      return JSON.parse(out.trim().split('\n').at(-1) ?? '{}');
    },
  };
}

/** The least the feed's p99 may grow during the flood before it counts as slowed (ms). */
const FEED_P99_SLACK_MS = 25;

/** The most the feed's p99 may grow for the waves' own cost, however slow a 429 became (ms). */
const WAVE_ALLOWANCE_MAX_MS = 100;

/**
 * 200 concurrent wrong-password sign-ins during feed traffic (issue 18): waves of 200 guesses at one
 * account, each from its own address, every second. The throttle must answer them 429 before any
 * password is hashed (the flood's CPU time in the server, per attempt, is under one argon2
 * verification, and few attempts reach the hash), and the feed's p99 stays under twice its baseline
 * (the slower of the quiet phases just before and just after) and its throughput above half.
 */
export const loginFlood: Fault = {
  name: 'login-flood',
  timeoutMs: 90_000,
  needs: ['pglite'],
  async run({ suite, processes, short }) {
    const town = suite.town('pglite');
    const server = await processes.start(
      { DATA_DIR: suite.pglite('flood'), METRICS_TOKEN },
      { port: suite.port() },
    );
    // The short phase is long enough for five waves: the first, which pays for the hashes the throttle
    // lets through, is not then most of the feed's slowest hundredth.
    const phaseMs = short ? 6_000 : 10_000;
    const feed = (stop: () => boolean) =>
      drive(server.base, { concurrency: 8, next: (n) => feedCall(town, n), stop });
    // Warm up: the feed, and the sign-in path (its code and the dummy hash of an unknown address)
    // through another account and address, so the flood's first wave does not pay for a cold start.
    const warm = feed(forMs(2_000));
    for (let i = 0; i < 3; i++) {
      await send(
        server.base,
        {
          kind: 'login',
          method: 'POST',
          path: '/api/auth/login',
          body: { email: `nobody${i}@faults.example`, password: 'not-this-one' },
          from: '127.0.2.1',
        },
        {},
      );
    }
    await warm;
    // What one wave costs the server, alone: its CPU time for one wave at another account (whose
    // first guesses reach the hash, as the flood's do), shared out over the wave's attempts. A 429's
    // time in /metrics is not its cost: a flood's sign-ins wait for their turns (ADR 102).
    const probe = await attacker(server.base, 1, PROBE_EMAIL);
    const probeStart = await loginMetrics(server.base);
    const probed = await probe.go();
    const probeEnd = await loginMetrics(server.base);
    const perAttemptMs =
      ((probeEnd.cpuSeconds - probeStart.cpuSeconds) * 1000) / Math.max(1, probed.attempts);
    // The attacker's process is started (and idle) before the baseline, so both phases run beside it.
    const waiting = await attacker(server.base, phaseMs - 1_000);
    const baseline = tally(await feed(forMs(phaseMs)));
    const before = await loginMetrics(server.base);
    const [flooded, attack] = await Promise.all([feed(forMs(phaseMs)), waiting.go()]);
    const during = tally(flooded);
    const after = await loginMetrics(server.base);
    // A second baseline after the flood brackets it: the shared host's own load drifts within a
    // minute (a clean-clone run saw the feed's p99 at 37 ms before and 85 ms during while serving more
    // pages), so the flood is judged against the slower of the two quiet phases around it.
    const baselineAfter = tally(await feed(forMs(phaseMs)));
    const quiet = baselineAfter.p99 > baseline.p99 ? baselineAfter : baseline;
    const hashMs = await verifyCost();

    const delta = (status: string) => {
      const a = after.byStatus.get(status) ?? { count: 0, seconds: 0 };
      const b = before.byStatus.get(status) ?? { count: 0, seconds: 0 };
      return {
        count: a.count - b.count,
        meanMs: ((a.seconds - b.seconds) * 1000) / Math.max(1, a.count - b.count),
      };
    };
    const s429 = delta('429');
    const s401 = delta('401');
    const failures: string[] = [];
    const answered429 = attack.byStatus['429'] ?? 0;
    const otherStatuses = Object.entries(attack.byStatus).filter(
      ([status]) => status !== '429' && status !== '401',
    );
    if (answered429 < attack.attempts * 0.9)
      failures.push(`only ${answered429} of ${attack.attempts} sign-ins were answered 429`);
    // The throttle lets LOGIN_ACCOUNT_RATE_LIMIT failures through, then one per doubling delay: the
    // hashes must not grow with the flood.
    if (s401.count > 2 * ACCOUNT_LIMIT) {
      failures.push(`${s401.count} sign-ins reached the password hash (more than ${2 * ACCOUNT_LIMIT})`);
    }
    if (perAttemptMs >= hashMs) {
      failures.push(
        `a wave cost the server ${ms(perAttemptMs)} of CPU an attempt, not less than one hash (${ms(hashMs)})`,
      );
    }
    if (otherStatuses.length)
      failures.push(`sign-ins answered ${otherStatuses.map(([s, n]) => `${n}x ${s}`).join(', ')}`);
    // Twice the baseline, and never less than the baseline plus FEED_P99_SLACK_MS: with the embedded
    // database in its own thread the feed's p99 fell to 15 ms, where one scheduling hiccup of the
    // shared host is a millisecond's difference in the ratio (a clean-clone run saw 31 ms against 15).
    //
    // A wave is ATTACKERS requests arriving at once: the server accepts and reads each, and answers
    // them one per turn of its event loop (ADR 102), a feed request between any two; what the wave
    // costs (measured above as CPU per attempt) still takes the host's two cores from the feed. That
    // is the price of answering a flood at all, not of hashing; so the feed's p99 may also grow by
    // twice one wave's cost, never by more than WAVE_ALLOWANCE_MAX_MS. Hashing that leaked fails the
    // 401 count and the cost per attempt above.
    const waveMs = ATTACKERS * perAttemptMs;
    const growth = Math.min(WAVE_ALLOWANCE_MAX_MS, Math.max(FEED_P99_SLACK_MS, 2 * waveMs));
    const allowed = Math.max(2 * quiet.p99, quiet.p99 + growth);
    if (during.p99 >= allowed) {
      failures.push(
        `feed p99 ${ms(during.p99)} during the flood, not under ${ms(allowed)} (twice the slower baseline ${ms(quiet.p99)}, or it plus ${ms(growth)}: twice one wave's cost ${ms(waveMs)}, within ${FEED_P99_SLACK_MS} to ${WAVE_ALLOWANCE_MAX_MS} ms)`,
      );
    }
    // Throughput, an average over the whole phase, is the steadier sign of a starved feed.
    const quietPages = Math.min(baseline.total, baselineAfter.total);
    if (during.total < quietPages / 2) {
      failures.push(`the feed served ${during.total} pages during the flood, under half of ${quietPages}`);
    }
    for (const [label, t] of [
      ['baseline', baseline],
      ['flood', during],
      ['baseline after', baselineAfter],
    ] as const) {
      if (t.ok !== t.total) failures.push(`${t.total - t.ok} feed requests failed in the ${label}`);
    }
    return {
      figures:
        `${attack.attempts} wrong-password sign-ins in ${attack.waves} waves of ${ATTACKERS} (each answered in ${Math.max(...attack.waveMs)} ms at most): ${answered429} answered 429 ` +
        `(answered in ${ms(s429.meanMs)} on average; one wave alone cost the server's CPU ${perAttemptMs.toFixed(2)} ms an attempt), ${s401.count} reached the hash (401, ${ms(s401.meanMs)} each; ` +
        `one argon2 verify here ${ms(hashMs)}); feed p99 ${ms(during.p99)} during vs ${ms(baseline.p99)} before and ${ms(baselineAfter.p99)} after ` +
        `(${(during.p99 / quiet.p99).toFixed(2)}x the slower; one wave's cost ${ms(waveMs)}; ${during.total} vs ${baseline.total} and ${baselineAfter.total} pages)`,
      failures,
    };
  },
};
