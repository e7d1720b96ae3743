import { rmSync } from 'node:fs';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { expect, it, vi } from 'vitest';
import { buildApp } from '../../app';
import { queryRows } from '../../db/rows';
import { seedIfEmpty } from '../../db/seed';
import { createLogger } from '../../logger';
import { localPhotoStore } from '../../storage/photo-store';
import { openTestDatabase, testConfig } from '../../test/helpers';

/**
 * Issue 27: every `npm start` on a database with changes to bring into the match graph (a freshly
 * seeded one) logged "job queue circles was not created": the match graph's first drain asked for
 * the circle finder before the circles plugin had created the finder's queue.
 */
it('a start with the shipped settings (the demo seeded, the finder on) logs no warning and runs the finder', async () => {
  // As `npm start` runs (NODE_ENV=development, CIRCLE_FINDER and SEED_DEMO at their defaults).
  const config = testConfig({ NODE_ENV: 'development' });
  expect(config.circleFinder).toBe(true);
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  const { handle, drop } = await openTestDatabase();
  const photoStore = localPhotoStore(config.dataDir);
  try {
    // main.ts: the demo neighbourhood first, then the app.
    expect(await seedIfEmpty(handle.db, photoStore)).not.toBeNull();
    const app = await buildApp({
      config,
      database: handle,
      photoStore,
      logger: createLogger('info', destination),
    });
    try {
      await app.ready();
      // The finder took every member the match graph's drains logged for it.
      await vi.waitFor(
        async () => {
          const [row] = await queryRows<{ graph: boolean; circles: boolean }>(
            app.db,
            sql`SELECT EXISTS (SELECT 1 FROM match_graph_changes) AS graph,
                       EXISTS (SELECT 1 FROM circle_changes) AS circles`,
          );
          expect(row).toEqual({ graph: false, circles: false });
        },
        { timeout: 20_000, interval: 50 },
      );
    } finally {
      await app.close();
    }
    const warnings = lines.filter((line) => Number(line.level) >= 40);
    expect(
      warnings.map((line) => ({ msg: line.msg, err: (line.err as { message?: string })?.message })),
    ).toEqual([]);
  } finally {
    await drop();
    rmSync(config.dataDir, { recursive: true, force: true });
  }
});
