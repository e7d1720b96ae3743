/**
 * The login flood's attacker (scripts/faults/login-flood.ts), in a process of its own so its work does
 * not slow the feed traffic the fault measures: waves of `--concurrency` wrong-password sign-ins on
 * one account, each from its own loopback address (127.0.1.N), every `--every` ms for `--ms` ms.
 * Starts when a line comes on stdin (so its own start-up is not in the measurement). Prints one
 * JSON line: attempts by status, and the answers' latencies.
 */
import { numberOption, option, percentile } from '../bench-server';
import { now, type Outcome, send, sleep } from './kit';

const base = option('base', '');
const email = option('email', '');
const concurrency = numberOption('concurrency', 200);
const every = numberOption('every', 1_000);
const lasting = numberOption('ms', 5_000);

const address = (k: number) => `127.0.1.${(k % 250) + 1}`;

async function main() {
  // The first connection from each new loopback address costs the kernel about 2 s here, whatever
  // the server: pay it before the flood, with one GET /healthz from each.
  await Promise.all(
    Array.from({ length: concurrency }, (_, k) =>
      send(base, { kind: 'warm', method: 'GET', path: '/healthz', from: address(k) }, { timeoutMs: 30_000 }),
    ),
  );
  process.stdout.write('ready\n');
  await new Promise((resolve) => process.stdin.once('data', resolve));
  process.stdin.pause();
  const outcomes: Outcome[] = [];
  const until = now() + lasting;
  let wave = 0;
  const waveMs: number[] = [];
  while (now() < until) {
    const started = now();
    const answers = await Promise.all(
      Array.from({ length: concurrency }, (_, k) =>
        send(
          base,
          {
            kind: 'login',
            method: 'POST',
            path: '/api/auth/login',
            body: { email, password: `wrong-guess-${wave}-${k}` },
            from: address(k),
          },
          { timeoutMs: 30_000 },
        ),
      ),
    );
    outcomes.push(...answers);
    waveMs.push(Math.round(now() - started));
    wave++;
    await sleep(every - (now() - started));
  }
  const byStatus: Record<string, number> = {};
  for (const o of outcomes) {
    const key = o.status ? String(o.status) : (o.error ?? 'error');
    byStatus[key] = (byStatus[key] ?? 0) + 1;
  }
  const latencies = (status: number) =>
    outcomes
      .filter((o) => o.status === status)
      .map((o) => o.end - o.start)
      .sort((x, y) => x - y);
  const l429 = latencies(429);
  console.log(
    JSON.stringify({
      attempts: outcomes.length,
      waves: wave,
      waveMs,
      byStatus,
      p50_429: percentile(l429, 50),
      p99_429: percentile(l429, 99),
    }),
  );
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
