/**
 * The browser journeys cannot wait out a hand-over window or the 48 hours to answer a no-show report
 * (ADR 079), nor the day until an agreed hand-over is an hour away (ADR 078), nor a listing's 30 days
 * before "Still available?" (ADR 088). This support listener,
 * started by e2e/support/server.ts in the server's own process (the embedded database has one owner),
 * moves those times on the server's database: the app is found through Fastify's
 * `fastify.initialization` diagnostics channel, nothing is added to the server. It listens on
 * loopback only, on E2E_SUPPORT_PORT.
 */
import diagnostics from 'node:diagnostics_channel';
import { createServer } from 'node:http';
import { sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';

export const E2E_SUPPORT_PORT = Number(process.env.E2E_SUPPORT_PORT ?? 5196);

/** Watch for the server's app and answer the journeys' requests to move a hand-over's times. */
export async function startHandOverClock(): Promise<void> {
  const apps: Array<{ db?: Db }> = [];
  diagnostics.subscribe('fastify.initialization', (message) => {
    apps.push((message as { fastify: { db?: Db } }).fastify);
  });
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const db = apps.find((app) => app.db)?.db;
      const input = JSON.parse(body || '{}') as {
        barterId?: number;
        itemId?: number;
        hours?: number;
        minutes?: number;
        days?: number;
      };
      const id = Number(input.barterId ?? input.itemId);
      const hours = Number(input.hours ?? 0);
      const minutes = Number(input.minutes ?? 50);
      const run = async () => {
        if (!db || !Number.isInteger(id)) throw new Error('no app yet, or no barterId or itemId');
        if (request.url === '/hand-over-window-passed') {
          // The agreed window ended an hour ago (its length kept).
          await db.execute(sql`UPDATE hand_over_plans
            SET starts_at = now() - (ends_at - starts_at) - interval '1 hour', ends_at = now() - interval '1 hour'
            WHERE barter_request_id = ${id}::int`);
        } else if (request.url === '/hand-over-starts-soon') {
          // The clock moved on until the agreed window starts in `minutes`: the start, the end and the
          // agreement all move by the same step (so the plan still counts as agreed that long ahead of
          // its start, as ADR 078's reminders ask); the reminders already sent stay as they are.
          await db.execute(sql`UPDATE hand_over_plans
            SET starts_at = now() + make_interval(mins => ${minutes}::int),
              ends_at = now() + make_interval(mins => ${minutes}::int) + (ends_at - starts_at),
              agreed_at = agreed_at + (now() + make_interval(mins => ${minutes}::int) - starts_at)
            WHERE barter_request_id = ${id}::int AND agreed_at IS NOT NULL`);
        } else if (request.url === '/listing-aged') {
          // A listing's confirmation (and an open "Still available?") moved `days` into the past
          // (ADR 088): the stale-listings minute job then asks, or takes it out of the feeds.
          await db.execute(sql`UPDATE items
            SET confirmed_at = confirmed_at - make_interval(days => ${Number(input.days ?? 0)}::int),
              stale_asked_at = stale_asked_at - make_interval(days => ${Number(input.days ?? 0)}::int)
            WHERE id = ${id}::int`);
        } else if (request.url === '/no-show-reports-aged') {
          await db.execute(sql`UPDATE no_show_reports
            SET created_at = created_at - make_interval(hours => ${hours}::int)
            WHERE barter_request_id = ${id}::int`);
        } else {
          throw new Error(`unknown ${request.url}`);
        }
      };
      run().then(
        () => response.writeHead(204).end(),
        (error: Error) => response.writeHead(500).end(error.message),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(E2E_SUPPORT_PORT, '127.0.0.1', resolve));
}

/** From a journey: ask the support listener to move a hand-over's times. */
export async function moveHandOverTime(
  what: 'hand-over-window-passed' | 'hand-over-starts-soon' | 'no-show-reports-aged' | 'listing-aged',
  input: { barterId?: number; itemId?: number; hours?: number; minutes?: number; days?: number },
): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${E2E_SUPPORT_PORT}/${what}`, {
    method: 'POST',
    body: JSON.stringify(input),
  });
  if (response.status !== 204) throw new Error(`${what}: ${response.status} ${await response.text()}`);
}
