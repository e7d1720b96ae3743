/**
 * The app's circle finder on a real database (issue 16, ADR 029), run by `npm run bench:circles`
 * after the engine's figures (or alone: `tsx scripts/bench-circle-finder.ts --members=10000`).
 *
 * A city of `--members` members on the embedded database (PGlite, as `npm start` runs): each lives
 * somewhere on a 20 x 20 mile city, travels 1 to 5 miles, lists 1 to 4 items and wants 1 to 4 of 400
 * kinds of thing (the engine bench's shape). The match graph is filled directly with every want-item
 * pair of one kind within 5 miles (no hand-over can be longer); every member's graph counts as built.
 *
 * 1. The hourly full run: every member who offers something, 25 at a time through the incremental
 *    path (read around them, enumerate circles of 2-4 members, choose, propose with notifications).
 * 2. Incremental, `--updates` times: a member lists one new item, written with its graph rows in the
 *    bench's shape (the match graph's own drain matches by category, denser than this shape; its
 *    speed is `npm run bench:feed`'s), then the circle job's run on its owner (timed: dissolve
 *    broken circles, read around them, enumerate, choose, propose). Median, p95 and worst.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openPglite } from '../server/db/client';
import { migrateDatabase } from '../server/db/migrate';
import { queryRows } from '../server/db/rows';
import { drainCircleChanges } from '../server/features/circles/circles-plugin';
import { markCircleChanges } from '../server/features/circles/circles-repository';
import { findAndPropose } from '../server/features/circles/circles-service';
import { numberOption, percentile } from './bench-server';

const ms = (value: number) => `${value.toFixed(1)} ms`;

export async function benchCircleFinder(members: number, updates: number): Promise<string[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bh-bench-circles-'));
  const database = await openPglite({ dataDir: path.join(dir, 'pglite') });
  const lines: string[] = [];
  const step = (what: string) => {
    if (process.env.BENCH_VERBOSE) process.stderr.write(`${new Date().toISOString()} ${what}\n`);
  };
  try {
    await migrateDatabase(database);
    const { db } = database;
    const started = performance.now();
    await db.execute(sql`SELECT setseed(0.42)`);
    await db.execute(sql`INSERT INTO users (first_name, last_name, latitude, longitude, max_travel_distance)
      SELECT 'Member', 'B' || g, 45.4 + random() * 20 / 69.0, -122.8 + random() * 20 / 48.5,
        1 + floor(random() * 5)::int
      FROM generate_series(1, ${members}::int) g`);
    step('users');
    await db.execute(sql`INSERT INTO items (user_id, title, description, category, estimated_value)
      SELECT u.id, 'kind ' || floor(random() * 400 + g * 0)::int, 'A thing.', 'general',
        round((10 + random() * 60)::numeric, 2)
      FROM users u, LATERAL generate_series(1, 1 + floor(random() * 4 + length(u.last_name) * 0)::int) g`);
    step('items');
    await db.execute(sql`INSERT INTO wants (user_id, title, category)
      SELECT DISTINCT ON (u.id, k) u.id, 'kind ' || k, 'general'
      FROM users u, LATERAL (SELECT floor(random() * 400 + g * 0)::int AS k
        FROM generate_series(1, 1 + floor(random() * 4 + length(u.last_name) * 0)::int) g) kinds`);
    step('wants');
    await db.execute(sql`INSERT INTO match_graph_members (member_id, built_at) SELECT id, now() FROM users`);
    await db.execute(sql`INSERT INTO match_graph (member_id, item_id, item_user_id, want_id, same_category,
        text_pct, value_points, mutual, distance, score, created_at, value)
      SELECT w.user_id, i.id, i.user_id, w.id, true, 100, 0, false, d.miles, 80, i.created_at, i.estimated_value
      FROM wants w
      JOIN items i ON i.title = w.title AND i.user_id <> w.user_id
      JOIN users r ON r.id = w.user_id
      JOIN users o ON o.id = i.user_id
      CROSS JOIN LATERAL (SELECT sqrt(((r.latitude - o.latitude) * 69) ^ 2
        + ((r.longitude - o.longitude) * 48.5) ^ 2) AS miles) d
      WHERE d.miles <= 5
      ON CONFLICT (member_id, item_id) DO NOTHING`);
    step('graph');
    await db.execute(sql`DELETE FROM match_graph_changes`);
    await db.execute(sql`DELETE FROM circle_changes`);
    const [counts] = await queryRows<{ items: number; wants: number; rows: number }>(
      db,
      sql`SELECT (SELECT count(*)::int FROM items) AS items, (SELECT count(*)::int FROM wants) AS wants,
        (SELECT count(*)::int FROM match_graph) AS rows`,
    );
    lines.push(
      `city: ${members} members, ${counts?.items} items, ${counts?.wants} wants, ${counts?.rows} graph rows within 5 miles (filled in ${ms(performance.now() - started)})`,
    );

    // Statistics, as autovacuum keeps them on PostgreSQL (PGlite has no autovacuum: see ADR 029).
    await db.execute(sql`ANALYZE`);
    step('analyzed');

    // 1. The hourly full run: every member who offers something, 25 at a time.
    let t = performance.now();
    const run = await findAndPropose(db, null);
    const [proposedMembers] = await queryRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM circle_members`,
    );
    lines.push(
      `full run: ${run.edges} hand-overs read (around each batch), ${run.found} circles found, ${run.proposed.length} proposed (${proposedMembers?.n} members) in ${ms(performance.now() - t)}`,
    );
    step('full run');

    // 2. One new listing at a time: the item, its graph rows (what the graph's drain writes, in the
    // bench's shape: wants of its kind within 5 miles) and the change it logs for its owner, as
    // one transaction; then the circle job's run, timed.
    const graphTimes: number[] = [];
    const circleTimes: number[] = [];
    let proposed = 0;
    for (let i = 0; i < updates; i++) {
      const [owner] = await queryRows<{ id: string }>(
        db,
        sql`SELECT id::text AS id FROM users ORDER BY id OFFSET floor(random() * ${members}::int)::int LIMIT 1`,
      );
      t = performance.now();
      await db.transaction(async (tx) => {
        const [item] = await queryRows<{ id: number }>(
          tx,
          sql`INSERT INTO items (user_id, title, description, category, estimated_value)
            VALUES (${owner?.id}::uuid, 'kind ' || floor(random() * 400)::int, 'A new thing.', 'general', 30)
            RETURNING id`,
        );
        await tx.execute(sql`INSERT INTO match_graph (member_id, item_id, item_user_id, want_id, same_category,
            text_pct, value_points, mutual, distance, score, created_at, value)
          SELECT w.user_id, i.id, i.user_id, w.id, true, 100, 0, false, d.miles, 80, i.created_at, i.estimated_value
          FROM items i
          JOIN wants w ON w.title = i.title AND w.user_id <> i.user_id
          JOIN users r ON r.id = w.user_id
          JOIN users o ON o.id = i.user_id
          CROSS JOIN LATERAL (SELECT sqrt(((r.latitude - o.latitude) * 69) ^ 2
            + ((r.longitude - o.longitude) * 48.5) ^ 2) AS miles) d
          WHERE i.id = ${item?.id}::int AND d.miles <= 5
          ON CONFLICT (member_id, item_id) DO NOTHING`);
        await tx.execute(sql`DELETE FROM match_graph_changes`);
        await markCircleChanges(tx, [owner?.id ?? null]);
      });
      graphTimes.push(performance.now() - t);
      const before = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM circles`);
      t = performance.now();
      await drainCircleChanges(db);
      circleTimes.push(performance.now() - t);
      const after = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM circles`);
      proposed += (after[0]?.n ?? 0) - (before[0]?.n ?? 0);
    }
    graphTimes.sort((a, b) => a - b);
    circleTimes.sort((a, b) => a - b);
    const summary = (times: number[]) =>
      `median ${ms(percentile(times, 50))}, p95 ${ms(percentile(times, 95))}, worst ${ms(times[times.length - 1] ?? 0)}`;
    lines.push(`one new listing, x${updates}: item and its graph rows written ${summary(graphTimes)}`);
    lines.push(
      `one new listing, x${updates}: circle update (target < 50 ms) ${summary(circleTimes)}; ${proposed} new circles proposed`,
    );
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const lines = await benchCircleFinder(numberOption('members', 10_000), numberOption('updates', 50));
  console.log(lines.join('\n'));
}
