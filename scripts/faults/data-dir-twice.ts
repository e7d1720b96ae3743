import { type Fault, feedCall, ms, now, send } from './kit';

/**
 * The embedded data directory opened twice (issue 18): a second server on the DATA_DIR a running
 * one holds must refuse to start, with a clear message and exit code 1, and the first must go on
 * serving.
 */
export const dataDirTwice: Fault = {
  name: 'data-dir-opened-twice',
  timeoutMs: 60_000,
  needs: ['pglite'],
  async run({ suite, processes }) {
    const dataDir = suite.pglite('twice');
    const town = suite.town('pglite');
    const first = await processes.start({ DATA_DIR: dataDir }, { port: suite.port() });
    const started = now();
    const second = await processes.spawn({ DATA_DIR: dataDir }, { port: suite.port() });
    const exit = await Promise.race([
      second.exited,
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 30_000)),
    ]);
    const refusedMs = now() - started;
    const failures: string[] = [];
    const message = second.stderr().trim().split('\n')[0] ?? '';
    if (!exit) failures.push('the second server was still running after 30 s');
    else if (exit.code !== 1)
      failures.push(`the second server exited with ${exit.signal ?? `code ${exit.code}`}, not 1`);
    if (!/already using/.test(message))
      failures.push(`no clear message on stderr (got "${message.slice(0, 160)}")`);
    const page = await send(first.base, feedCall(town, 0), {});
    if (page.status !== 200)
      failures.push(`the first server answered a feed page ${page.status || page.error} afterwards`);
    return {
      figures: `second process exited with code ${exit?.code ?? '-'} after ${ms(refusedMs)}: "${message}"; the first still serves (feed ${page.status})`,
      failures,
    };
  },
};
