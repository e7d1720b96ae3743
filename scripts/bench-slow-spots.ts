/**
 * Issue 27's slow spots, each on its own (`tsx scripts/bench-slow-spots.ts`): what the evening
 * bench's CPU profile showed holding the main thread, measured on the embedded database (PGlite) with
 * the evening's data: a neighbourhood of 250 members with match graphs and a 100-member swap day with
 * 1,000 offers and 30,000 rankings.
 *
 * 1. The swap day's page (`getSwapDay`) for a member and the match's gathering read, per call.
 * 2. The circle finder's read around changed members (`loadEdgesAround`), per statement.
 * 3. Live-event id encoding (`EventIdCodec.encode`), per id.
 * 4. The password estimator's first load: the longest block of the event loop meanwhile.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { openPglite } from '#server/db/client.ts';
import { migrateDatabase } from '#server/db/migrate.ts';
import { queryRows } from '#server/db/rows.ts';
import { EventIdCodec } from '#server/events/event-ids.ts';
import { loadEdgesAround } from '#server/features/circles/circle-edges.ts';
import { requestGraph, settleMatchGraph } from '#server/features/match-graph/index.ts';
import { getSwapDay } from '#server/features/swap-days/index.ts';
import {
  findJoinedOffers,
  findMembers,
  findOfferedItems,
  findOffers,
  findRankingsOf,
  findWants,
} from '#server/features/swap-days/swap-days-repository.ts';
import { fillNeighbourhood } from '#server/test/neighbourhood.ts';
import { percentile } from './bench-server';

const MEMBERS = 250;
const SWAP_MEMBERS = 100;
const OFFERS = 10;
const WANTS = 30;

const ms = (value: number) => `${value.toFixed(2)} ms`;

/**
 * Each run's wall time and this process's CPU time (the main thread's work, PGlite included: it runs
 * on it), medians and worst, so a busy machine's waits show apart from the work itself.
 */
async function timed<T>(runs: number, run: (i: number) => Promise<T>): Promise<string> {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const used = process.cpuUsage();
    await run(i);
    const spent = process.cpuUsage(used);
    cpu.push((spent.user + spent.system) / 1000);
    wall.push(performance.now() - started);
  }
  wall.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return `CPU median ${ms(percentile(cpu, 50))}, p95 ${ms(percentile(cpu, 95))}; wall median ${ms(percentile(wall, 50))}, worst ${ms(wall.at(-1) ?? 0)} (${runs} runs)`;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bh-bench-slow-'));
  const database = await openPglite({ dataDir: path.join(dir, 'pglite') });
  try {
    await migrateDatabase(database);
    const { db } = database;
    await fillNeighbourhood(db, { members: MEMBERS, items: MEMBERS * 4, wants: MEMBERS * 3 });
    const members = await queryRows<{ id: string }>(db, sql`SELECT id::text AS id FROM users ORDER BY id`);
    await settleMatchGraph(db, 600_000);
    for (const member of members) await requestGraph(db, member.id);
    await settleMatchGraph(db, 600_000);

    // The swap day: 100 members, 10 offers each, 30 rankings per offer (others' offers).
    const swap = members.slice(0, SWAP_MEMBERS).map((row) => row.id);
    const uuids = `{${swap.join(',')}}`;
    await db.execute(sql`UPDATE users SET latitude = 45.52, longitude = -122.68, max_travel_distance = 10
      WHERE id = ANY(${uuids}::uuid[])`);
    await db.execute(sql`INSERT INTO items (user_id, title, description, category, is_active)
      SELECT u.id, 'Swap thing ' || g, 'A thing to swap.', 'general', true
      FROM unnest(${uuids}::uuid[]) AS u(id), generate_series(1, ${OFFERS}::int) g`);
    const [day] = await queryRows<{ id: number }>(
      db,
      sql`INSERT INTO swap_days (organiser_id, name, place, starts_at, deadline, latitude, longitude)
        VALUES (${swap[0]}::uuid, 'Maple Street swap day', 'Community hall', now() + interval '2 days',
          now() + interval '1 day', 45.52, -122.68) RETURNING id`,
    );
    const dayId = Number(day?.id);
    await db.execute(sql`INSERT INTO swap_day_members (swap_day_id, member_id)
      SELECT ${dayId}::int, u.id FROM unnest(${uuids}::uuid[]) AS u(id)`);
    await db.execute(sql`INSERT INTO swap_day_offers (swap_day_id, item_id, member_id)
      SELECT ${dayId}::int, i.id, i.user_id FROM items i WHERE i.title LIKE 'Swap thing %'`);
    await db.execute(sql`SELECT setseed(0.27)`);
    await db.execute(sql`INSERT INTO swap_day_wants (swap_day_id, offer_item_id, wanted_item_id, rank)
      SELECT ${dayId}::int, o.item_id, w.item_id, w.rank
      FROM swap_day_offers o CROSS JOIN LATERAL (
        SELECT x.item_id, row_number() OVER (ORDER BY random())::int AS rank
        FROM swap_day_offers x WHERE x.swap_day_id = o.swap_day_id AND x.member_id <> o.member_id
          AND o.item_id > 0
        ORDER BY random() LIMIT ${WANTS}) w
      WHERE o.swap_day_id = ${dayId}::int`);
    await db.execute(sql`VACUUM ANALYZE`);
    const [counts] = await queryRows<{ offers: number; wants: number; graph: number }>(
      db,
      sql`SELECT (SELECT count(*)::int FROM swap_day_offers) AS offers,
        (SELECT count(*)::int FROM swap_day_wants) AS wants, (SELECT count(*)::int FROM match_graph) AS graph`,
    );
    console.log(
      `data: ${MEMBERS} members, ${counts?.graph} match-graph rows; swap day ${SWAP_MEMBERS} members, ${counts?.offers} offers, ${counts?.wants} rankings`,
    );

    const viewers = await queryRows<{
      id: string;
      latitude: number;
      longitude: number;
      public_latitude: number;
      public_longitude: number;
      max_travel_distance: number;
    }>(
      db,
      sql`SELECT id::text AS id, latitude, longitude, public_latitude, public_longitude, max_travel_distance FROM users
        WHERE id = ANY(${uuids}::uuid[]) ORDER BY id`,
    );
    const viewer = (i: number) => {
      const row = viewers[i % viewers.length] as (typeof viewers)[number];
      return {
        id: row.id,
        latitude: row.latitude,
        longitude: row.longitude,
        publicLatitude: row.public_latitude,
        publicLongitude: row.public_longitude,
        maxTravelDistance: row.max_travel_distance,
      };
    };
    let bytes = 0;
    console.log(
      `1. getSwapDay (a member's page): ${await timed(200, async (i) => {
        bytes = JSON.stringify(await getSwapDay(db, viewer(i), dayId)).length;
      })}; answer ${Math.round(bytes / 1024)} KB`,
    );
    console.log(
      `   of which findOffers: ${await timed(50, async () => {
        await findOffers(db, dayId);
      })}`,
    );
    const { swapDaySchema } = await import('#common/schemas/swap-days.ts');
    const page = await getSwapDay(db, viewer(1), dayId);
    console.log(
      `   the answer's zod check: ${await timed(50, async () => {
        swapDaySchema.parse(page);
      })}`,
    );
    console.log(
      `   findMembers: ${await timed(50, async () => {
        await findMembers(db, { id: dayId, organiserId: viewers[0]?.id } as never);
      })}`,
    );
    console.log(
      `   findRankingsOf: ${await timed(50, async (i) => {
        await findRankingsOf(db, dayId, viewer(i).id);
      })}`,
    );
    console.log(
      `1. the match's gathering read (offers and rankings): ${await timed(20, async () => {
        const joined = await findJoinedOffers(db, dayId);
        await findOfferedItems(
          db,
          joined.map((offer) => offer.itemId),
          false,
        );
        await findWants(db, dayId);
      })}`,
    );

    const changed = members.slice(SWAP_MEMBERS).map((row) => row.id);
    console.log(
      `2. loadEdgesAround (25 changed members, as the circle job's batch): ${await timed(20, async (i) => {
        await loadEdgesAround(db, changed.slice((i * 25) % 150, ((i * 25) % 150) + 25), new Date());
      })}`,
    );

    const codec = new EventIdCodec('a session secret of at least thirty-two characters');
    const n = 50_000;
    const used = process.cpuUsage();
    for (let i = 0; i < n; i++) codec.encode(viewers[i % 100]?.id ?? '', 1_000_000 + i);
    const spent = process.cpuUsage(used);
    console.log(
      `3. EventIdCodec.encode: ${((spent.user + spent.system) / n).toFixed(2)} µs of CPU per id (${n} ids)`,
    );

    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    const { passwordRefusal } = await import('#server/features/auth/index.ts');
    const loadStarted = performance.now();
    await passwordRefusal('correct horse battery staple', { email: 'ann@example.com' });
    loop.disable();
    console.log(
      `4. password estimator's first load: ${ms(performance.now() - loadStarted)} in all, longest loop block ${ms(loop.max / 1e6)}`,
    );
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
