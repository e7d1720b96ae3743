/**
 * `npx tsx scripts/measure-pglite-thread.ts`: whether the main thread stays free while PGlite works
 * (ADR 049). Runs one heavy statement three times on a PGlite in the main thread (as before ADR 049)
 * and through `openPglite` (its own thread), and reports how often a 10 ms timer fired meanwhile and
 * the event-loop delay. Not a test: the figures depend on the machine.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { openPglite } from '#server/db/client.ts';

const STATEMENT = 'SELECT count(*)::int AS n FROM generate_series(1, 3000000) g';
const RUNS = 3;

async function measure(name: string, run: () => Promise<unknown>): Promise<void> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  let fired = 0;
  const timer = setInterval(() => fired++, 10);
  delay.enable();
  const started = performance.now();
  for (let i = 0; i < RUNS; i++) await run();
  const ms = performance.now() - started;
  delay.disable();
  clearInterval(timer);
  // A loop that never turned records no delay at all: the timer count is the telling figure.
  console.log(
    `${name}: ${RUNS} statements in ${ms.toFixed(0)} ms; the 10 ms timer fired ${fired} times; ` +
      `event-loop delay p99 ${(delay.percentile(99) / 1e6).toFixed(0)} ms, max ${(delay.max / 1e6).toFixed(0)} ms`,
  );
}

const inMainThread = await PGlite.create();
await measure('PGlite in the main thread', () => inMainThread.query(STATEMENT));
await inMainThread.close();

const handle = await openPglite();
await measure('PGlite in its own thread (openPglite)', () => handle.db.execute(sql.raw(STATEMENT)));
await handle.close();
console.log(
  `load average: ${(await import('node:os'))
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')}`,
);
