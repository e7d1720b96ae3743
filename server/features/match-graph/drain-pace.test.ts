import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/rows';
import { createItem, createUser, createWant } from '../../test/factories';
import { openTestDatabase } from '../../test/helpers';
import {
  CHANGES_BATCH,
  DRAIN_TARGET_MS,
  drainMatchGraph,
  nextBatchSize,
  requestGraph,
} from './graph-maintenance';

/** The drain's batches are paced by time (ADR 100): background work keeps its transactions short. */
describe('the pace of the match graph drain', () => {
  it('halves a batch that held the database past the target, or cuts it in proportion', () => {
    expect(nextBatchSize(64, DRAIN_TARGET_MS * 1.2, true, CHANGES_BATCH)).toBe(32);
    // 686 ms for 1,000 changes (a CI run's hold): the next batch is a seventh of it.
    expect(nextBatchSize(1_000, 686, true, CHANGES_BATCH)).toBe(145);
    // One costly change cannot be split: never below one.
    expect(nextBatchSize(1, 900, true, CHANGES_BATCH)).toBe(1);
  });

  it('doubles a full batch that took under half the target, up to the most a batch may take', () => {
    expect(nextBatchSize(64, DRAIN_TARGET_MS / 4, true, CHANGES_BATCH)).toBe(128);
    expect(nextBatchSize(800, 1, true, CHANGES_BATCH)).toBe(CHANGES_BATCH);
    expect(nextBatchSize(64, DRAIN_TARGET_MS / 4, true, 100)).toBe(100);
  });

  it('keeps the size between half the target and the target, or when the batch was not full', () => {
    expect(nextBatchSize(64, DRAIN_TARGET_MS * 0.75, true, CHANGES_BATCH)).toBe(64);
    expect(nextBatchSize(64, 1, false, CHANGES_BATCH)).toBe(64);
  });
});

describe('a backlog worked off in paced batches', () => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.drop());

  it('applies every change of a bulk listing, many transactions of at most the batch given', async () => {
    const { db } = database.handle;
    const viv = await createUser(db);
    const owner = await createUser(db);
    await createWant(db, { userId: viv.id, title: 'Telescope', category: 'photo+video' });
    await requestGraph(db, viv.id);
    await drainMatchGraph(db);

    const listed = [];
    for (let i = 0; i < 90; i++)
      listed.push(
        await createItem(db, { userId: owner.id, title: `Telescope ${i}`, category: 'photo+video' }),
      );
    const [logged] = await queryRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM match_graph_changes`,
    );
    expect(logged?.n).toBeGreaterThanOrEqual(listed.length);

    // Batches of at most 8: a dozen transactions or more, and nothing left behind between them.
    expect(await drainMatchGraph(db, 8)).toBe(logged?.n);
    const [left] = await queryRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM match_graph_changes`,
    );
    expect(left?.n).toBe(0);
    const inGraph = await queryRows<{ item_id: number }>(
      db,
      sql`SELECT item_id FROM match_graph WHERE member_id = ${viv.id}::uuid ORDER BY item_id`,
    );
    expect(inGraph.map((row) => row.item_id)).toEqual(listed.map((item) => item.id).sort((a, b) => a - b));
  });
});
