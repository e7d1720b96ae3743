import {
  describe,
  drive,
  type Fault,
  judgeOutages,
  lastWords,
  mixedCall,
  ms,
  now,
  OUTAGE_GRACE_MS,
  sleep,
  tally,
  terminateBackends,
  warmUp,
} from './kit';

/**
 * PostgreSQL backends killed under load (issue 18): feed reads and message writes keep 12 requests
 * in flight while every backend of the server's database is ended (pg_terminate_backend) twice. Each
 * request must succeed, or be a 503 within 2 s of a kill; never a 500; the same process recovers.
 */
export const pgBackendsKilled: Fault = {
  name: 'pg-backends-killed',
  timeoutMs: 60_000,
  needs: ['postgres'],
  async run({ suite, processes, short }) {
    const database = await suite.postgres('killed');
    const town = suite.town('postgres');
    const server = await processes.start(
      { DATABASE_URL: database.url, DB_POOL_MAX: '10' },
      { port: suite.port() },
    );
    await warmUp(server.base, mixedCall(town));
    const loadMs = short ? 6_000 : 12_000;
    const stopAt = now() + loadMs;
    const windows: Array<[number, number]> = [];
    // The load runs on past the last outage's window and grace by a second at least, so that the
    // recovery is seen in the short run too (a 6 s load with a kill at 4 s ends inside the grace).
    const load = drive(server.base, {
      concurrency: 12,
      next: mixedCall(town),
      stop: () => {
        const lastEnd = windows.length === 2 ? (windows[1]?.[1] ?? 0) : Number.POSITIVE_INFINITY;
        return now() >= Math.max(stopAt, lastEnd + OUTAGE_GRACE_MS + 1_000);
      },
    });
    let killed = 0;
    for (const at of [loadMs / 3, (2 * loadMs) / 3]) {
      await sleep(stopAt - loadMs + at - now());
      const from = now();
      killed += await terminateBackends(database.name);
      windows.push([from, now()]);
    }
    const outcomes = await load;
    const loadSeconds = ((now() - (stopAt - loadMs)) / 1000).toFixed(1);
    const { failures, recoveries } = judgeOutages(outcomes, windows);
    const exited = await Promise.race([server.exited.then(() => true), sleep(0).then(() => false)]);
    if (exited) {
      // What follows a crash (refused connections, nothing succeeding after) would only repeat it.
      failures.splice(0, failures.length, `the server process died: ${lastWords(server.stderr())}`);
    }
    const t = tally(outcomes);
    return {
      figures:
        `${describe(t)} in ${loadSeconds} s, ${killed} backends killed in 2 rounds; ` +
        `failures after each kill ${recoveries.map((r) => r.failed).join(' + ')}, ` +
        `last failure ${recoveries.map((r) => ms(r.recoveryMs)).join(' / ')} after the kill; p99 ${ms(t.p99)}`,
      failures,
    };
  },
};
