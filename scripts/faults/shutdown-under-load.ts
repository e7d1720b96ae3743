import http from 'node:http';
import { sql } from 'drizzle-orm';
import { openPglite } from '#server/db/client.ts';
import { embeddedDatabaseDir } from '#server/db/embedded.ts';
import { queryRows } from '#server/db/rows.ts';
import { type Call, describe, drive, examples, type Fault, feedCall, ms, now, sleep, tally } from './kit';

/** A request sent this close before SIGTERM may reach the server after it began closing. */
const IN_FLIGHT_MARGIN_MS = 50;
const EXIT_WITHIN_MS = 10_000;

/**
 * Graceful shutdown under load (issue 18), on the embedded database: SIGTERM while 12 requests
 * (feed pages and new listings) are in flight and a live event stream is open. Requests sent before
 * the signal must succeed; later ones must be answered 503 (or refused once the port is closed), not
 * cut off, never a 500; the process exits 0 within 10 s; the data directory opens again with every
 * acknowledged listing in it.
 *
 * The clients honour `Retry-After`, as the load balancer in front of a real deployment does (it
 * takes the process out of rotation on the drain's 503s): a client that keeps opening connections
 * to a process that is about to stop listening has some reset by the kernel, which resets the
 * connections still queued for accepting when a listening socket closes (ADR 045).
 */
export const shutdownUnderLoad: Fault = {
  name: 'shutdown-under-load',
  timeoutMs: 90_000,
  needs: ['pglite'],
  async run({ suite, processes, short }) {
    const town = suite.town('pglite');
    const dataDir = suite.pglite('shutdown');
    const port = suite.port();
    const server = await processes.start({ DATA_DIR: dataDir }, { port });
    const listers = town.traders.map(([giver]) => giver);
    const next = (n: number): Call =>
      n % 4 === 3
        ? {
            kind: 'listing',
            method: 'POST',
            path: '/api/items',
            cookie: listers[n % listers.length]?.cookie,
            keepBody: true,
            body: {
              title: `Shutdown ${n}`,
              description: 'Listed while the server stops.',
              category: 'tools',
              estimatedValue: 5,
            },
          }
        : feedCall(town, n);
    // A live event stream stays open through the shutdown, as a member's open page would.
    const stream = http.get(`${server.base}/api/events`, {
      headers: { cookie: town.viewers[0]?.cookie ?? '' },
    });
    stream.on('error', () => {});
    let exitedAt = Number.POSITIVE_INFINITY;
    let signalAt = Number.POSITIVE_INFINITY;
    void server.exited.then(() => {
      exitedAt = now();
    });
    const load = drive(server.base, {
      concurrency: 12,
      next,
      honourRetryAfter: true,
      stop: () => now() > exitedAt + 300 || now() > signalAt + EXIT_WITHIN_MS + 2_000,
    });
    await sleep(short ? 3_000 : 6_000);
    signalAt = now();
    process.kill(server.pid, 'SIGTERM');
    const exit = await Promise.race([server.exited, sleep(EXIT_WITHIN_MS + 2_000).then(() => null)]);
    const outcomes = await load;
    stream.destroy();

    const failures: string[] = [];
    const exitMs = exitedAt - signalAt;
    if (!exit) failures.push(`still running ${ms(EXIT_WITHIN_MS + 2_000)} after SIGTERM`);
    else if (exit.code !== 0) failures.push(`exited with ${exit.signal ?? `code ${exit.code}`}, not 0`);
    if (exit && exitMs > EXIT_WITHIN_MS) failures.push(`exited ${ms(exitMs)} after SIGTERM (at most 10 s)`);
    const ok = (o: { status: number }) => o.status >= 200 && o.status < 300;
    const inFlight = outcomes.filter((o) => o.start < signalAt - IN_FLIGHT_MARGIN_MS);
    const later = outcomes.filter((o) => o.start >= signalAt - IN_FLIGHT_MARGIN_MS);
    // A 503 is an answer that nothing was done (the request was shed, or had not been read when the
    // drain began: load shedding answers before anything runs), as in kill-mid-write; a request in
    // flight cut off or answered anything else is lost.
    const lostInFlight = inFlight.filter((o) => !ok(o) && o.status !== 503);
    if (lostInFlight.length)
      failures.push(`${lostInFlight.length} requests sent before SIGTERM failed (${examples(lostInFlight)})`);
    const s500 = outcomes.filter((o) => o.status >= 500 && o.status !== 503);
    if (s500.length) failures.push(`${s500.length} answers 5xx other than 503`);
    const answeredAfter = later.filter((o) => o.status > 0);
    // Once the port is closed a new connection is refused: that is an answer too. A request cut off
    // on an open connection (reset, hang-up) is not: its client cannot tell whether it was done.
    const refused = later.filter((o) => o.error === 'ECONNREFUSED');
    const cut = later.filter((o) => o.status === 0 && o.error !== 'ECONNREFUSED');
    if (cut.length)
      failures.push(
        `${cut.length} requests sent after SIGTERM were cut off instead of answered 503 (${examples(cut)}; ` +
          `sent ${cut.map((o) => Math.round(o.start - signalAt)).join(', ')} ms after it)`,
      );
    const after = tally(answeredAfter);

    const acked = outcomes
      .filter((o) => o.kind === 'listing' && o.status === 201)
      .map((o) => (o.json as { id: number }).id);
    const restartedAt = now();
    const again = await processes.start({ DATA_DIR: dataDir }, { port });
    const reopenMs = now() - restartedAt;
    await again.stop();
    const handle = await openPglite({ dataDir: embeddedDatabaseDir(dataDir) });
    let present = 0;
    try {
      const rows = await queryRows<{ n: number }>(
        handle.db,
        sql`SELECT count(*)::int AS n FROM items WHERE id = ANY(${`{${acked.join(',')}}`}::int[])`,
      );
      present = rows[0]?.n ?? 0;
    } finally {
      await handle.close();
    }
    if (present !== acked.length)
      failures.push(`${acked.length - present} acknowledged listings missing after the restart`);
    const t = tally(inFlight);
    return {
      figures:
        `before SIGTERM ${describe(t)}; after it ${answeredAfter.length} answered (${after.ok} 2xx, ${after.s503} 503, ` +
        `${after.s500} other 5xx), ${refused.length} refused (port closed), ${cut.length} cut off; exit code ${exit?.code ?? '-'} ` +
        `${ms(exitMs)} after SIGTERM; reopened in ${ms(reopenMs)} with ${present}/${acked.length} acknowledged listings`,
      failures,
    };
  },
};
