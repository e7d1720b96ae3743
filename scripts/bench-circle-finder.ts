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
 * 3. Circles that heal (ADR 081), timed from the call to `declineCircle` to its answer, each beside a
 *    bare SELECT 1. (a) `--updates` declines where a replacement exists: before each, the decliner's
 *    twin joins the city (a new member at the same spot with the same travel distance, listing an
 *    item like the one the decliner gives and wanting what the previous member gives, its graph rows
 *    written in the bench's shape), so the heal has someone to offer; the bench fails when none of
 *    these offers a replacement, so it cannot time the wrong path unnoticed. (b) `--updates` declines
 *    of circles picked at random with no help (in the generated city these nearly always find
 *    nothing and dissolve). Each outcome (replacement, shorter circle, nothing) timed apart.
 *
 * `--only=listing` stops after 2 (the A/B of the update figure against an older checkout, whose
 * `declineCircle` does not heal).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openPglite } from '#server/db/client.ts';
import { migrateDatabase } from '#server/db/migrate.ts';
import { queryRows } from '#server/db/rows.ts';
import { drainCircleChanges } from '#server/features/circles/circles-plugin.ts';
import { declineCircle, findAndPropose } from '#server/features/circles/circles-service.ts';
import { markCircleChanges } from '#server/features/circles/index.ts';
import { numberOption, option, percentile } from './bench-server';

const ms = (value: number) => `${value.toFixed(1)} ms`;

export async function benchCircleFinder(
  members: number,
  updates: number,
  { heal = true }: { heal?: boolean } = {},
): Promise<string[]> {
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
    const updateBareTimes: number[] = [];
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
      await db.execute(sql`SELECT 1`);
      updateBareTimes.push(performance.now() - t);
      t = performance.now();
      await drainCircleChanges(db);
      circleTimes.push(performance.now() - t);
      const after = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM circles`);
      proposed += (after[0]?.n ?? 0) - (before[0]?.n ?? 0);
    }
    graphTimes.sort((a, b) => a - b);
    circleTimes.sort((a, b) => a - b);
    updateBareTimes.sort((a, b) => a - b);
    const summary = (times: number[]) =>
      `median ${ms(percentile(times, 50))}, p95 ${ms(percentile(times, 95))}, worst ${ms(times[times.length - 1] ?? 0)}`;
    lines.push(`one new listing, x${updates}: item and its graph rows written ${summary(graphTimes)}`);
    lines.push(
      `one new listing, x${updates}: circle update (target < 50 ms) ${summary(circleTimes)}; ${proposed} new circles proposed; bare SELECT 1 ${summary(updateBareTimes)}`,
    );
    if (!heal) return lines;

    // 3. Circles that heal (ADR 081): a member of a proposed circle declines it, and the decline's own
    // transaction looks for a replacement (or a shorter circle) and offers it. Timed from the call to
    // its answer; beside it, the database's bare round trip (SELECT 1) on this machine.
    const outcomes = { replacement: [] as number[], shorter: [] as number[], none: [] as number[] };
    const bareTimes: number[] = [];
    const decline = async (circleId: number, memberId: string) => {
      t = performance.now();
      await db.execute(sql`SELECT 1`);
      bareTimes.push(performance.now() - t);
      t = performance.now();
      const healed = await declineCircle(db, { id: memberId }, circleId);
      outcomes[healed?.kind ?? 'none'].push(performance.now() - t);
      return healed?.kind ?? 'none';
    };
    const pickStep = async () => {
      // One member of a live proposed circle the finder made (not a healed one), at random (of the
      // first 200, as circles come).
      const [pick] = await queryRows<{ id: number; member_id: string; position: number }>(
        db,
        sql`WITH live AS (SELECT c.id, cm.member_id::text AS member_id, cm.position FROM circles c
            JOIN circle_members cm ON cm.circle_id = c.id
            WHERE c.status = 'proposed' AND c.expires_at > now() AND c.swap_day_id IS NULL
              AND c.replaces_id IS NULL
            ORDER BY c.id, cm.position LIMIT 200)
          SELECT * FROM live OFFSET floor(random() * (SELECT count(*) FROM live))::int LIMIT 1`,
      );
      return pick;
    };

    // (a) Declines where a replacement exists. The decliner's twin joins first (not timed): a new
    // member where the decliner lives, as far as they travel, listing an item like the one the
    // decliner gives the next member and wanting the kind the previous member gives; its item's and
    // want's graph rows in the bench's shape (every want or item of that kind within 5 miles), as
    // the graph's drain would write them. Nothing marks the twin for the finder: it stays free.
    let twins = 0;
    let twinsReplaced = 0;
    for (let i = 0; i < updates; i++) {
      const pick = await pickStep();
      if (!pick) break;
      const [twin] = await queryRows<{ id: string }>(
        db,
        sql`WITH d AS (SELECT cm.member_id, cm.item_id AS gives,
              (SELECT p.item_id FROM circle_members p WHERE p.circle_id = cm.circle_id
                AND p.position = (cm.position + c.size - 1) % c.size) AS gets
            FROM circle_members cm JOIN circles c ON c.id = cm.circle_id
            WHERE cm.circle_id = ${pick.id}::int AND cm.position = ${pick.position}::int),
          twin AS (INSERT INTO users (first_name, last_name, latitude, longitude, max_travel_distance)
            SELECT 'Member', 'Twin ' || ${i}::int, u.latitude, u.longitude, u.max_travel_distance
            FROM users u JOIN d ON u.id = d.member_id RETURNING id),
          item AS (INSERT INTO items (user_id, title, description, category, estimated_value)
            SELECT twin.id, i.title, 'A thing like it.', i.category, i.estimated_value
            FROM twin, d JOIN items i ON i.id = d.gives RETURNING id),
          want AS (INSERT INTO wants (user_id, title, category)
            SELECT twin.id, i.title, i.category FROM twin, d JOIN items i ON i.id = d.gets RETURNING id),
          built AS (INSERT INTO match_graph_members (member_id, built_at) SELECT id, now() FROM twin)
        SELECT twin.id::text AS id FROM twin, item, want`,
      );
      if (!twin) throw new Error(`healing bench: no twin written for circle ${pick.id}`);
      await db.execute(sql`INSERT INTO match_graph (member_id, item_id, item_user_id, want_id, same_category,
          text_pct, value_points, mutual, distance, score, created_at, value)
        SELECT w.user_id, i.id, i.user_id, w.id, true, 100, 0, false, d.miles, 80, i.created_at, i.estimated_value
        FROM items i
        JOIN wants w ON w.title = i.title AND w.user_id <> i.user_id
        JOIN users r ON r.id = w.user_id
        JOIN users o ON o.id = i.user_id
        CROSS JOIN LATERAL (SELECT sqrt(((r.latitude - o.latitude) * 69) ^ 2
          + ((r.longitude - o.longitude) * 48.5) ^ 2) AS miles) d
        WHERE (i.user_id = ${twin.id}::uuid OR w.user_id = ${twin.id}::uuid) AND d.miles <= 5
        ON CONFLICT (member_id, item_id) DO NOTHING`);
      twins++;
      if ((await decline(Number(pick.id), pick.member_id)) === 'replacement') twinsReplaced++;
    }
    if (twinsReplaced === 0) {
      throw new Error(
        `healing bench: none of ${twins} declines with a replacement at hand offered one; the offer was not timed`,
      );
    }
    const offered = [...outcomes.replacement].sort((a, b) => a - b);
    const twinBare = [...bareTimes].sort((a, b) => a - b);
    lines.push(
      `a decline healed by a replacement, x${offered.length} (target < 200 ms): ${summary(offered)}; ${twinsReplaced} of ${twins} declines with a replacement at hand offered one; bare SELECT 1 ${summary(twinBare)}`,
    );

    // (b) Declines with no help: in the generated city these nearly always find nothing.
    for (const list of Object.values(outcomes)) list.length = 0;
    bareTimes.length = 0;
    for (let i = 0; i < updates; i++) {
      const pick = await pickStep();
      if (!pick) break;
      await decline(Number(pick.id), pick.member_id);
    }
    for (const list of [...Object.values(outcomes), bareTimes]) list.sort((a, b) => a - b);
    const declined = outcomes.none.length + outcomes.replacement.length + outcomes.shorter.length;
    lines.push(
      `a decline with nothing to offer, dissolved, x${outcomes.none.length} of ${declined} random declines: ${summary(outcomes.none)}; bare SELECT 1 ${summary(bareTimes)}`,
    );
    for (const kind of ['replacement', 'shorter'] as const) {
      if (outcomes[kind].length > 0) {
        lines.push(
          `  of the random declines, ${outcomes[kind].length} offered a ${kind === 'shorter' ? 'shorter circle' : 'replacement'}: ${summary(outcomes[kind])}`,
        );
      }
    }
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const lines = await benchCircleFinder(numberOption('members', 10_000), numberOption('updates', 50), {
    heal: option('only', 'all') !== 'listing',
  });
  console.log(lines.join('\n'));
}
