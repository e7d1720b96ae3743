import type { SQL } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { queryPrepared } from '../../db/prepared';
import { queryRows } from '../../db/rows';
import { readsPostings, searchPage } from './feed-candidates';
import { type MatchColumns, orderBy, toMatch } from './feed-cards';
import type { FeedDefinition, FeedPageParams } from './feed-definition';
import { feedDefinition } from './feed-registry';
import type { CardOrder, RankedItem, Ranking } from './feed-types';
import { resolveSearch } from './search';

/**
 * A feed's ranking: its definition's order and candidate source (feed-registry.ts, ADR 064), run
 * in the database, with the viewer's distance and, on a feed with reasons, why each item is on it.
 */

const run = queryRows;

/**
 * The order of a feed page: with search text, title hits first; then the feed's own order
 * (FeedDefinition.order), which ends in a key no two items share, so offset paging never repeats or
 * skips.
 */
export function pageOrder(params: FeedPageParams, feed = feedDefinition(params.feed)): CardOrder {
  return [...(params.q ? ([['tier', 'DESC']] as CardOrder) : []), ...feed.order(params)];
}

/**
 * The page subquery: with search text on a feed that reads postings, their walk (ADR 023);
 * otherwise the feed's own candidate source.
 */
function pageQuery(params: FeedPageParams, feed: FeedDefinition, order: CardOrder): SQL {
  if (readsPostings(params, feed.searchPostings) && params.search) {
    return searchPage({ ...params, search: params.search }, order);
  }
  return feed.candidates(params, order);
}

/**
 * The current listing version (moved on by triggers whenever items, wants or a member's location
 * are written; ADR 012).
 */
export async function readListingVersion(db: Db): Promise<number> {
  const [row] = await queryPrepared<{ version: number }>(
    db,
    sql`SELECT version::float8 AS version FROM listing_changes WHERE id = 1`,
  );
  return row?.version ?? 0;
}

/**
 * The first `window` items of a feed's order, with the viewer's distance to each and on Barter
 * Match why it matched (one statement); `complete` when the feed has no more. `version` is the
 * listing version read before ranking (readListingVersion), so a change made meanwhile makes the
 * ranking look older than it is, never newer.
 */
export async function findRanking(
  db: Db,
  params: FeedPageParams,
  window: number,
  version: number,
): Promise<Ranking> {
  const feed = feedDefinition(params.feed);
  const resolved = await withSearch(db, params);
  // Only stop words ("the"): nothing to find.
  if (resolved.search?.empty) return { items: [], complete: true, version };
  const query = { ...resolved, limit: window + 1, offset: 0 };
  // Index walks whose plan does not depend on the values (the feed says which, and search text the
  // postings answer) run as prepared statements: planned once per connection.
  const stable = query.q ? readsPostings(query, feed.searchPostings) : feed.prepared(query);
  const read = (p: FeedPageParams) =>
    (stable ? queryPrepared<RankRow> : run<RankRow>)(db, feedRankingQuery(p));
  let rows = await read(query);
  // Short of the window: the end of the feed, or the feed's source reads once more (readAgain).
  const again = rows.length <= window ? (feed.readAgain?.(query) ?? null) : null;
  if (again) rows = await read({ ...query, ...again });
  const items = rows
    .slice(0, window)
    .map((row): RankedItem => ({ id: row.id, distanceMiles: row.distance_miles, match: toMatch(row) }));
  return { items, complete: rows.length <= window, version };
}

interface RankRow extends MatchColumns {
  id: number;
  distance_miles: number | null;
}

/** The params with their search text resolved (resolveSearch), as feedRankingQuery needs them. */
export async function withSearch(db: Db, params: FeedPageParams): Promise<FeedPageParams> {
  if (!params.q || params.search) return params;
  return { ...params, search: await resolveSearch(db, params.q) };
}

/** The query of a feed's order (`limit` entries from `offset`), for findRanking, EXPLAIN tests and the benchmark. */
export function feedRankingQuery(params: FeedPageParams): SQL {
  if (params.q && !params.search)
    throw new Error('feedRankingQuery: resolve the search text first (resolveSearch)');
  const feed = feedDefinition(params.feed);
  const order = pageOrder(params, feed);
  const reasons = feed.reasons ? sql`, ${feed.reasons}` : sql``;
  return sql`SELECT p.id, round(p.distance::numeric, 1)::float8 AS distance_miles ${reasons}
    FROM (${pageQuery(params, feed, order)}) p
    ORDER BY ${orderBy(order, 'p.')}`;
}
