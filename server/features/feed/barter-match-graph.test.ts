import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/rows';
import { askAgainWhileBusy } from '../../test/busy';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { fillNeighbourhood } from '../../test/neighbourhood';
import { graphState, requestGraph, settleMatchGraph } from '../match-graph';
import type { FeedPageParams } from './feed-definition';
import { feedRankingQuery, withSearch } from './feed-ranking';

/** Degrees of latitude per mile. */
const _DEG_PER_MILE = 1 / 69.0936;

interface Ranked {
  id: number;
  distance_miles: number | null;
  score: number;
  want_id: number;
  mutual: boolean;
  their_want_title: string | null;
  same_category: boolean;
  text_pct: number;
  max_value: number | null;
}

/**
 * The graph against the definition: for members of a generated neighbourhood, every Barter Match
 * order read from the graph equals the ranking query's (which ranks every candidate from the item
 * tables on the spot), row for row with the score and its reasons.
 */
describe('the match graph holds what the ranking query finds', () => {
  let t: TestApp;
  let members: Array<{ id: string; located: boolean }>;

  beforeAll(async () => {
    t = await buildTestApp();
    const db = t.app.db;
    await fillNeighbourhood(db, { members: 300, items: 1500, wants: 900 });
    // The app's own drain of what the fill logged holds PGlite's one connection meanwhile, on a busy
    // host past the wait limit: a statement that found it busy never ran, and is sent again.
    const rows = await askAgainWhileBusy(() =>
      queryRows<{ id: string; located: boolean }>(
        db,
        sql`SELECT u.id::text AS id, u.latitude IS NOT NULL AS located FROM users u
            WHERE EXISTS (SELECT 1 FROM wants w WHERE w.user_id = u.id AND w.is_active)
              AND EXISTS (SELECT 1 FROM items i WHERE i.user_id = u.id AND i.is_active)
            ORDER BY u.latitude IS NULL DESC, u.email LIMIT 7`,
      ),
    );
    members = rows;
    expect(members.some((m) => !m.located)).toBe(true);
    for (const member of members) await askAgainWhileBusy(() => requestGraph(db, member.id));
    await askAgainWhileBusy(() => settleMatchGraph(db));
  }, 120_000);
  afterAll(() => t.close());

  const params = (member: { id: string }, overrides: Partial<FeedPageParams> = {}) => {
    return {
      feed: 'barter-match',
      viewerId: member.id,
      origin: null,
      radiusMiles: 50,
      sort: 'match',
      seed: 0,
      limit: 5_000,
      offset: 0,
      lookingFor: 2,
      ...overrides,
    } satisfies FeedPageParams;
  };

  async function originOf(id: string) {
    const [row] = await askAgainWhileBusy(() =>
      queryRows<{ latitude: number | null; longitude: number | null }>(
        t.app.db,
        sql`SELECT latitude::float8 AS latitude, longitude::float8 AS longitude FROM users WHERE id = ${id}::uuid`,
      ),
    );
    return row?.latitude != null && row.longitude != null
      ? { latitude: row.latitude, longitude: row.longitude }
      : null;
  }

  const ranked = (p: FeedPageParams) =>
    askAgainWhileBusy(async () =>
      queryRows<Ranked>(t.app.db, feedRankingQuery(await withSearch(t.app.db, p))),
    );

  it('every member is built', async () => {
    for (const member of members)
      expect(await askAgainWhileBusy(() => graphState(t.app.db, member.id))).toBe('built');
  });

  it('by score, at every radius: the same rows, scores and reasons', async () => {
    let compared = 0;
    for (const member of members) {
      const origin = await originOf(member.id);
      for (const radiusMiles of [5, 10, 25, 50]) {
        const p = { ...params(member), origin, radiusMiles };
        const fresh = await ranked({ ...p, graph: false });
        const kept = await ranked({ ...p, graph: true });
        expect(kept).toEqual(fresh);
        compared += fresh.length;
      }
    }
    // The comparison means something only when there are matches to compare.
    expect(compared).toBeGreaterThan(500);
  });

  it('in every order, page by page', async () => {
    let compared = 0;
    for (const member of members.slice(0, 3)) {
      const origin = await originOf(member.id);
      for (const sort of ['recent', 'distance', 'value', 'match'] as const) {
        for (const offset of [0, 20, 40]) {
          const p = { ...params(member), origin, radiusMiles: 25, sort, limit: 20, offset };
          const fresh = await ranked({ ...p, graph: false });
          expect(await ranked({ ...p, graph: true })).toEqual(fresh);
          compared += fresh.length;
        }
      }
    }
    expect(compared).toBeGreaterThan(200);
  });

  it('with search text', async () => {
    const member = members[0] as { id: string; located: boolean };
    const p = { ...params(member), origin: await originOf(member.id), q: 'bike' };
    expect(await ranked({ ...p, graph: true })).toEqual(await ranked({ ...p, graph: false }));
  });
});
