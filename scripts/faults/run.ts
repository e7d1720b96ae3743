/**
 * `npm run test:faults`: the fault suite (issue 18, ADR 043, docs/reliability.md). Each fault starts
 * its own real server processes on loopback, breaks something for real (PostgreSQL backends killed,
 * the connection cut, the pool held, kill -9 mid-write, the data directory opened twice, slow
 * clients, a sign-in flood, SIGTERM under load) and prints one line: `PASS|FAIL <fault> — <figures>`.
 * Exits 1 when any fails.
 *
 *   --short (or FAULTS_SHORT=1)  the short version CI runs: shorter loads, the same demands
 *   --only=name,name             only these faults (names as printed)
 *
 * PostgreSQL: DATABASE_URL names the server (default postgres://postgres@127.0.0.1:5432/postgres);
 * each run works in databases of its own (barterhood_faults_<pid>_*), dropped at the end. Ports
 * 5500-5549; data under the system's temporary directory.
 */
import { loadAverage, option } from '../bench-server';
import { connectionCut } from './connection-cut';
import { dataDirTwice } from './data-dir-twice';
import { killMidWrite } from './kill-mid-write';
import { type DatabaseKind, type Fault, Processes, Suite, type Verdict } from './kit';
import { loginFlood } from './login-flood';
import { pgBackendsKilled } from './pg-backends-killed';
import { poolHeld } from './pool-held';
import { shutdownUnderLoad } from './shutdown-under-load';
import { slowClients } from './slow-clients';

const FAULTS: Fault[] = [
  pgBackendsKilled,
  connectionCut,
  poolHeld,
  killMidWrite('pglite'),
  killMidWrite('postgres'),
  dataDirTwice,
  slowClients,
  loginFlood,
  shutdownUnderLoad,
];

const short = process.env.FAULTS_SHORT === '1' || option('short', 'false') === 'true';
const only = option('only', '')
  .split(',')
  .filter((name) => name !== '');

async function runOne(fault: Fault, suite: Suite): Promise<{ ok: boolean; line: string }> {
  const processes = new Processes();
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Verdict>((resolve) => {
    timer = setTimeout(
      () => resolve({ figures: '', failures: [`did not finish within ${fault.timeoutMs / 1000} s`] }),
      fault.timeoutMs,
    );
  });
  let verdict: Verdict;
  try {
    verdict = await Promise.race([fault.run({ suite, processes, short }), timeout]);
  } catch (error) {
    verdict = { figures: '', failures: [`crashed: ${(error as Error).message.split('\n')[0]}`] };
  } finally {
    clearTimeout(timer);
    await processes.killAll();
  }
  const ok = verdict.failures.length === 0;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const what = [verdict.figures, ...verdict.failures.map((failure) => `FAILED: ${failure}`)].filter(Boolean);
  return { ok, line: `${ok ? 'PASS' : 'FAIL'} ${fault.name} — ${what.join('; ')} [${seconds} s]` };
}

async function main(): Promise<number> {
  const chosen = only.length ? FAULTS.filter((fault) => only.includes(fault.name)) : FAULTS;
  const unknown = only.filter((name) => !FAULTS.some((fault) => fault.name === name));
  if (unknown.length) {
    console.error(
      `unknown fault(s): ${unknown.join(', ')}; the faults: ${FAULTS.map((f) => f.name).join(', ')}`,
    );
    return 2;
  }
  const started = performance.now();
  const suite = new Suite(short);
  const stop = () => {
    void suite.cleanUp().finally(() => process.exit(130));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  let failed = 0;
  try {
    const needs = new Set<DatabaseKind>(chosen.flatMap((fault) => fault.needs));
    console.log(
      `# test:faults${short ? ' --short' : ''}: ${chosen.length} faults; load average ${loadAverage()}`,
    );
    console.log(`# seeded ${await suite.prepare(needs)}`);
    for (const fault of chosen) {
      const { ok, line } = await runOne(fault, suite);
      if (!ok) failed++;
      console.log(line);
    }
  } finally {
    await suite.cleanUp();
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  console.log(
    `# ${chosen.length - failed} passed, ${failed} failed in ${seconds} s; load average ${loadAverage()}`,
  );
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
