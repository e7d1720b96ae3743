import {
  describe,
  drive,
  type Fault,
  judgeOutages,
  lastWords,
  mixedCall,
  ms,
  now,
  sleep,
  TcpProxy,
  tally,
  warmUp,
  warningsIn,
} from './kit';

/**
 * The connection to PostgreSQL cut under load (issue 18): the server reaches PostgreSQL through a
 * TCP proxy in the suite, which resets every connection and refuses new ones for a few seconds,
 * then accepts again. 503 only during the cut plus 2 s, no 500, recovery without a restart.
 */
export const connectionCut: Fault = {
  name: 'pg-connection-cut',
  timeoutMs: 60_000,
  needs: ['postgres'],
  async run({ suite, processes, short }) {
    const database = await suite.postgres('cut');
    const town = suite.town('postgres');
    const target = new URL(database.url);
    const proxy = new TcpProxy(suite.port(), { host: target.hostname, port: Number(target.port || 5432) });
    await proxy.restore();
    try {
      const server = await processes.start(
        { DATABASE_URL: proxy.url(database.url), DB_POOL_MAX: '10' },
        { port: suite.port() },
      );
      await warmUp(server.base, mixedCall(town));
      const loadMs = short ? 8_000 : 14_000;
      const cutMs = short ? 2_000 : 4_000;
      const stopAt = now() + loadMs;
      const load = drive(server.base, {
        concurrency: 12,
        next: mixedCall(town),
        stop: () => now() >= stopAt,
      });
      await sleep(short ? 2_000 : 4_000);
      const from = now();
      const cut = await proxy.cut();
      await sleep(cutMs);
      await proxy.restore();
      const to = now();
      const outcomes = await load;
      const { failures, recoveries } = judgeOutages(outcomes, [[from, to]]);
      const exited = await Promise.race([server.exited.then(() => true), sleep(0).then(() => false)]);
      if (exited) {
        // What follows a crash (refused connections, nothing succeeding after) would only repeat it.
        failures.splice(0, failures.length, `the server process died: ${lastWords(server.stderr())}`);
      } else if (failures.length > 0) {
        // Which of the server's limits answered (the pool's wait, load shedding, the lost connection):
        // what it logged before the cut, then in all.
        const before = warningsIn(server.stderr(), { until: performance.timeOrigin + from });
        failures.push(`the server logged before the cut: ${before}; in all: ${warningsIn(server.stderr())}`);
      }
      const t = tally(outcomes);
      const during = outcomes.filter((o) => o.end >= from && o.end <= to);
      return {
        figures:
          `${describe(t)} in ${loadMs / 1000} s; cut ${cut} connections for ${ms(to - from)}: ` +
          `${tally(during).s503} 503s during it, last failure ${ms(recoveries[0]?.recoveryMs ?? Number.NaN)} ` +
          `after the connection came back; p99 ${ms(t.p99)}`,
        failures,
      };
    } finally {
      await proxy.cut();
    }
  },
};
