import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { queryRows } from '../../db/rows';
import { createItem, createUser, createWant } from '../../test/factories';
import { openTestDatabase } from '../../test/helpers';
import { drainMatchGraph, requestGraph } from './graph-maintenance';

/**
 * Two drains at once (ADR 022): the job beside `settleMatchGraph`, or a job pg-boss expired and
 * started again while the first still ran. One drain builds a member's graph; an item is listed
 * after the build read the items, and the other drain takes that item's change before the build
 * has committed. The item must still reach the graph.
 *
 * PostgreSQL only: on PGlite every transaction holds the one connection, so nothing can be listed,
 * and no other drain run, while a build is open. No app here: the test is the only one draining.
 */
describe.skipIf(!inject('pgTemplateUrl'))('two drains at once', () => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  /** A connection of the test's own, outside the pool the drains use. */
  let side: pg.Client;

  beforeAll(async () => {
    database = await openTestDatabase();
    side = new pg.Client({ connectionString: database.url });
    await side.connect();
  });
  afterAll(async () => {
    await side.end();
    await database.drop();
  });

  /** Sessions of this database waiting for a lock another session holds. */
  const blocked = async () => {
    const { rows } = await side.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND cardinality(pg_blocking_pids(pid)) > 0`,
    );
    return rows[0]?.n ?? 0;
  };

  it('an item listed while a graph is being built reaches that graph', async () => {
    const { db } = database.handle;
    const viv = await createUser(db);
    const owner = await createUser(db);
    await createWant(db, { userId: viv.id, title: 'Telescope', category: 'photo+video' });
    await drainMatchGraph(db);
    await requestGraph(db, viv.id);

    // Hold Viv's row of match_graph_members: the first drain takes the build, reads the items and
    // writes her graph, then waits to mark it built (its transaction still open).
    const hold = new pg.Client({ connectionString: database.url });
    await hold.connect();
    await hold.query('BEGIN');
    await hold.query('SELECT 1 FROM match_graph_members WHERE member_id = $1 FOR UPDATE', [viv.id]);
    const first = drainMatchGraph(db);
    await expect.poll(blocked).toBe(1);

    // Listed after the build's read; a second drain runs now: it finishes, or waits for the first.
    const telescope = await createItem(db, {
      userId: owner.id,
      title: 'Brass telescope',
      category: 'photo+video',
    });
    const second = drainMatchGraph(db);
    let secondDone = false;
    void second.then(() => {
      secondDone = true;
    });
    await expect.poll(async () => secondDone || (await blocked()) === 2).toBe(true);

    await hold.query('COMMIT');
    await hold.end();
    await Promise.all([first, second]);

    const rows = await queryRows<{ item_id: number }>(
      db,
      sql`SELECT item_id FROM match_graph WHERE member_id = ${viv.id}::uuid`,
    );
    expect(rows.map((row) => row.item_id)).toEqual([telescope.id]);
    // Not merely left for a later drain: the log is empty.
    const [log] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM match_graph_changes`);
    expect(log?.n).toBe(0);
  });
});
