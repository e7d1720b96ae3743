import { type SQL, sql } from 'drizzle-orm';
import type { FeedName, FeedSort } from '../../../common/schemas/feed';
import { textArray } from '../../db/arrays';
import type { Db } from '../../db/client';
import { queryPrepared } from '../../db/prepared';
import { queryRows } from '../../db/rows';
import type { Point } from '../../geo/earth';
import {
  distanceMiles,
  itemPoint,
  memberPoint,
  memberSphere,
  originSphere,
  sphereBox,
  withinRadius,
} from '../../geo/sql';
import { graphPageSql } from '../match-graph/graph-sql';
import { notHiddenFrom } from '../safety/blocks-sql';
import { MATCH_COLUMNS, type MatchColumns, orderBy, toMatch } from './feed-cards';
import {
  candidateWhere,
  itemDocument,
  listedItem,
  ownerWantMatchesMyItem,
  scoreSql,
  shuffleColumns,
  shuffleStart,
  textPercentSql,
  valueFits,
  valuePoints,
  wantPointsSql,
} from './feed-sql';
import type { Direction, RankedItem, Ranking } from './feed-types';
import {
  type PostingWalk,
  postingWalks,
  resolveSearch,
  type Search,
  searchMatch,
  searchTier,
  walksPostings,
} from './search';

/** The SQL of every feed's order: which items, in what order, with the viewer's distance and match. */

const run = queryRows;

export interface FeedPageParams {
  feed: FeedName;
  viewerId: string;
  /** The viewer's own point; null when they have no location. */
  origin: Point | null;
  radiusMiles: number;
  sort: FeedSort;
  /** The search text as typed (part of a kept ranking's key). */
  q?: string;
  /** The search text resolved (resolveSearch): findRanking resolves `q` when this is missing. */
  search?: Search;
  /** everything with search text: read the text index instead of the postings (for the equivalence test). */
  postings?: boolean;
  seed: number;
  limit: number;
  offset: number;
  lookingFor: number;
  /** barter-match: read from the viewer's built match graph (ADR 022) instead of ranking every candidate. */
  graph?: boolean;
  /**
   * Sort by distance: how many of the nearest members the walk reads (their items follow each of
   * them); default offset + limit, null for all within the radius (see findRanking).
   */
  memberLimit?: number | null;
}

/**
 * The order of a feed page. With search text, title hits come first; then the chosen sort (distance
 * without a location, and match outside Barter Match, fall back to recent; random-barter is always
 * its seeded cycle); ties break by id, so offset paging never repeats or skips.
 */
export function pageOrder(params: Pick<FeedPageParams, 'feed' | 'origin' | 'sort' | 'q'>) {
  const keys: Array<[string, Direction]> = params.q ? [['tier', 'DESC']] : [];
  if (params.feed === 'random-barter') {
    keys.push(['lap', 'ASC'], ['shuffle', 'ASC'], ['id', 'ASC']);
    return keys;
  }
  if (params.sort === 'distance' && params.origin) keys.push(['distance', 'ASC']);
  else if (params.sort === 'value') keys.push(['value', 'DESC NULLS LAST']);
  else if (params.sort === 'match' && params.feed === 'barter-match') keys.push(['score', 'DESC']);
  // The recent index is (created_at DESC NULLS LAST, id DESC NULLS LAST): spelt the same to be used.
  else keys.push(['created_at', 'DESC NULLS LAST']);
  keys.push(['id', 'DESC NULLS LAST']);
  return keys;
}

/** Columns every page subquery outputs for ordering (from items `i`). */
function orderColumns(params: FeedPageParams, i = 'i'): SQL {
  const tier = params.search ? sql`, ${searchTier(params.search, i)} AS tier` : sql``;
  const shuffle = params.feed === 'random-barter' ? sql`, ${shuffleColumns(params.seed, i)}` : sql``;
  return sql`${sql.raw(`${i}.id, ${i}.created_at, ${i}.estimated_value AS value`)}${tier}${shuffle}`;
}

/** Miles from the viewer to the item's copy of its owner's public point; NULL without both. */
export const distanceOrNull = (origin: Point | null) => distanceMiles(origin, itemPoint('i'));
const page = (params: FeedPageParams) => sql`LIMIT ${params.limit}::int OFFSET ${params.offset}::int`;

/**
 * everything (any sort) and random-barter with search text: candidates in order, one page. Recent
 * and value walk their indexes and stop after a page; search starts from the text indexes.
 */
function plainPage(params: FeedPageParams, order: Array<[string, Direction]>): SQL {
  return sql`SELECT ${orderColumns(params)}, ${distanceOrNull(params.origin)} AS distance
    FROM items i
    WHERE ${candidateWhere(params)}
    ORDER BY ${orderBy(order)}
    ${page(params)}`;
}

/**
 * everything by distance: a nearest-neighbour walk of the members' public points
 * (users_public_sphere_idx) from the viewer's own point, and each member's items (which carry that
 * same point) by id; the sort on (member order, id) is incremental. The walk reads the
 * `memberLimit` nearest members and keeps those within the radius (each with items gives at least
 * one): when that leaves the page short, findRanking reads again with no limit, every member
 * within the radius's box.
 */
function distancePage(params: FeedPageParams & { origin: Point }, order: Array<[string, Direction]>): SQL {
  const point = memberPoint('u');
  const memberLimit = params.memberLimit === undefined ? params.offset + params.limit : params.memberLimit;
  const inside = withinRadius(params.origin, params.radiusMiles, point);
  const bounded =
    memberLimit === null
      ? sql`AND ${memberSphere('u')} <@ ${sphereBox(params.origin, params.radiusMiles)} AND ${inside}`
      : sql``;
  return sql`SELECT ${orderColumns(params)}, nu.distance
    FROM (SELECT u.id, ${memberSphere('u')} <-> ${originSphere(params.origin)} AS nearness,
            ${distanceMiles(params.origin, point)} AS distance, ${inside} AS inside
          FROM users u
          WHERE u.public_latitude IS NOT NULL AND u.id <> ${params.viewerId}::uuid
            AND ${notHiddenFrom('u.id', params.viewerId)} ${bounded}
          ORDER BY nearness ${memberLimit === null ? sql`` : sql`LIMIT ${memberLimit}::int`}) nu
    CROSS JOIN LATERAL (SELECT i.* FROM items i WHERE i.user_id = nu.id AND ${listedItem('i')}) i
    WHERE nu.inside
    ORDER BY nu.nearness, ${orderBy(order.filter(([column]) => column !== 'distance'))}
    ${page(params)}`;
}

/**
 * random-barter without search text: walk the shuffle index from the seed's entry point to the end
 * of the cycle, then from its start; each half stops after offset + limit candidates.
 */
function randomPage(params: FeedPageParams, order: Array<[string, Direction]>): SQL {
  const start = shuffleStart(params.seed);
  const enough = params.offset + params.limit;
  const half = (
    range: SQL,
  ) => sql`(SELECT ${orderColumns(params)}, ${distanceOrNull(params.origin)} AS distance
      FROM items i
      WHERE ${candidateWhere(params)} AND ${range}
      ORDER BY hashint4(i.id), i.id
      LIMIT ${enough}::int)`;
  return sql`SELECT * FROM (
      ${half(sql`hashint4(i.id) >= ${start}`)}
      UNION ALL
      ${half(sql`hashint4(i.id) < ${start}`)}) cycle
    ORDER BY ${orderBy(order)}
    ${page(params)}`;
}

/**
 * The page subquery of barter-match:
 *  1. pairs of (one of the viewer's wants, an item) from three index probes per want: the category
 *     index, the full-text index (all the want's words) and the trigram index (near spellings, per
 *     pair: the same definition as the match graph's, ADR 022);
 *  2. candidates: those items of members within the radius (one pass over the location index,
 *     hash-joined), the value within the want's budget, with text similarity and value points; per
 *     item its best want;
 *  3. reciprocity, per owner on the list: their first active want one of the viewer's items matches
 *     (wants by owner index, stored title lexemes, so no text is parsed per row);
 *  4. the score (scoreSql, the same sum as match-score.ts), the order, one page.
 */
export function matchPage(params: FeedPageParams, order: Array<[string, Direction]>, itemId?: number): SQL {
  const viewer = sql`${params.viewerId}::uuid`;
  const hidden = notHiddenFrom('i.user_id', params.viewerId);
  const only = itemId ? sql`AND i.id = ${itemId}::int` : sql``;
  const search = params.search ? sql`AND ${searchMatch(params.search)}` : sql``;
  const filtered = params.origin && !itemId ? params.origin : null;
  // Within the radius by the item's own copy of its owner's public point: in the category probe
  // the latitude band is a range of items_active_category_lat_idx, elsewhere a test on the row.
  const near = filtered ? sql`AND ${withinRadius(filtered, params.radiusMiles, itemPoint('i'))}` : sql``;
  // Item columns every branch carries, so no item is read twice.
  const columns = sql`${orderColumns(params)}, i.user_id, i.category, i.estimated_value, i.latitude, i.longitude`;
  // The same columns, by name, from the category probe.
  const names = ['id', 'created_at', 'value'];
  if (params.search) names.push('tier');
  if (params.feed === 'random-barter') names.push('shuffle', 'lap');
  names.push('user_id', 'category', 'estimated_value', 'latitude', 'longitude');
  const fromProbe = sql.raw(names.map((name) => `bc.${name}`).join(', '));
  const branch = (flags: SQL, join: SQL) => sql`SELECT w.id AS want_id, ${flags}, ${columns}
      FROM my_wants w CROSS JOIN LATERAL (SELECT * FROM items i
        WHERE ${join} AND i.is_service = w.is_service AND ${listedItem('i')} AND i.user_id <> ${viewer} AND ${hidden} ${only} ${search} ${near}
        -- Kept a subquery (not flattened into a join), so each want probes the index.
        OFFSET 0) i`;
  // The candidate's latitude/longitude are the item's copy of its owner's public point.
  const distance = sql`CROSS JOIN LATERAL (SELECT ${distanceMiles(params.origin, itemPoint('c'))} AS distance) d`;
  return sql`WITH my_wants AS MATERIALIZED (
      SELECT w.id, w.title, w.category, w.is_service, w.max_value, plainto_tsquery('english', w.title) AS tsq
      FROM wants w WHERE w.user_id = ${viewer} AND w.is_active
    ),
    my_items AS MATERIALIZED (
      SELECT mi.category, mi.is_service, mi.estimated_value, tsvector_to_array(mi.search_vector) AS lexemes
      FROM items mi WHERE mi.user_id = ${viewer} AND mi.is_active
    ),
    -- One probe of the category index per distinct category of the viewer's wants (several wants
    -- often share one), before the wants are joined back.
    by_category AS MATERIALIZED (
      SELECT c.is_service AS probe_service, i.* FROM (SELECT DISTINCT category, is_service FROM my_wants) c
      CROSS JOIN LATERAL (SELECT ${columns} FROM items i
        WHERE i.category = c.category AND i.is_service = c.is_service AND ${listedItem('i')}
          AND i.user_id <> ${viewer} AND ${hidden} ${only} ${search} ${near}
        OFFSET 0) i
    ),
    pairs AS (
      SELECT w.id AS want_id, false AS fts, false AS fts_title, false AS near, ${fromProbe}
      FROM by_category bc JOIN my_wants w ON w.category = bc.category AND w.is_service = bc.probe_service
      UNION ALL
      ${branch(
        sql`true AS fts, ts_filter(${itemDocument('i')}, '{a}') @@ w.tsq AS fts_title, false AS near`,
        sql`${itemDocument('i')} @@ w.tsq`,
      )}
      UNION ALL
      ${branch(sql`false AS fts, false AS fts_title, true AS near`, sql`w.title <% i.title`)}
    ),
    pair_points AS (
      SELECT p.*, w.title AS want_title, w.max_value, (p.category = w.category) AS same_category,
        ${textPercentSql()} AS text_pct, ${valuePoints('w', 'p')} AS value_points
      FROM pairs p
      JOIN my_wants w ON w.id = p.want_id
      WHERE ${valueFits('w', 'p')}
    ),
    -- Per item the want that earns it the most points (relevance and value fit), then the oldest.
    candidates AS MATERIALIZED (
      SELECT DISTINCT ON (id) * FROM pair_points ORDER BY id, ${wantPointsSql()} DESC, want_id
    ),
    wanted_by AS MATERIALIZED (
      SELECT o.user_id, x.title AS their_want_title
      FROM (SELECT DISTINCT user_id FROM candidates) o
      CROSS JOIN LATERAL (
        SELECT ow.title FROM wants ow JOIN my_items mi ON ${ownerWantMatchesMyItem('ow', 'mi')}
        WHERE ow.user_id = o.user_id AND ow.is_active ORDER BY ow.id LIMIT 1) x
    ),
    scored AS (
      -- A hashed subplan again: one hash of the owners who want something of the viewer's.
      SELECT c.*, d.distance, (c.user_id IN (SELECT user_id FROM wanted_by)) IS TRUE AS mutual
      FROM candidates c
      ${distance}
    )
    SELECT r.*, (SELECT wb.their_want_title FROM wanted_by wb WHERE wb.user_id = r.user_id) AS their_want_title
    FROM (SELECT *, ${scoreSql()} AS score FROM scored
          ORDER BY ${orderBy(order)}
          ${page(params)}) r`;
}

/**
 * everything with search text (ADR 023): the postings of the search's anchors (search_postings),
 * walked tier by tier (postingWalks), each entry tested on the index itself for the radius and the
 * owner, then, for more than one plain word, against its item by primary key. In the Recent order
 * each walk is in the index's order and stops after `offset + limit` entries, so a page reads about
 * a page per walk whatever the number of matches; Value and Distance read every posting of the
 * anchors within the radius (index-only) and keep the best.
 */
function searchPage(params: FeedPageParams & { search: Search }, order: Array<[string, Direction]>): SQL {
  const recent = order.some(([column]) => column === 'created_at');
  const enough = params.offset + params.limit;
  const near = params.origin
    ? sql`AND ${withinRadius(params.origin, params.radiusMiles, itemPoint('p'))}`
    : sql``;
  const walk = ({ inTitle, tier, check }: PostingWalk) => sql`(
      SELECT p.item_id, p.created_at, p.value, p.latitude, p.longitude, ${sql.raw(String(tier))} AS tier
      FROM search_postings p
      WHERE p.lexeme = a.lexeme AND ${sql.raw(inTitle ? 'p.in_title' : 'NOT p.in_title')}
        AND p.user_id <> ${params.viewerId}::uuid AND ${notHiddenFrom('p.user_id', params.viewerId)} ${near}
        ${check ? sql`AND EXISTS (SELECT 1 FROM items i WHERE i.id = p.item_id AND ${check})` : sql``}
      ${recent ? sql`ORDER BY p.created_at DESC NULLS LAST, p.item_id DESC NULLS LAST LIMIT ${enough}::int` : sql``})`;
  const walks = postingWalks(params.search);
  const tier = (n: 0 | 1) =>
    sql`FROM unnest(${textArray(params.search.anchors)}::text[]) a(lexeme)
      CROSS JOIN LATERAL (${sql.join(walks.filter((w) => w.tier === n).map(walk), sql` UNION ALL `)}) w`;
  // Items found elsewhere only come after every title hit: they are looked for only when the title
  // hits fall short of the page (then the title walks were exhausted, so title_hits holds them all
  // and no item is counted twice).
  return sql`WITH title_hits AS MATERIALIZED (SELECT DISTINCT ON (w.item_id) w.* ${tier(1)} ORDER BY w.item_id)
    SELECT h.item_id AS id, h.created_at, h.value, h.tier, ${distanceMiles(params.origin, itemPoint('h'))} AS distance
    FROM (SELECT * FROM title_hits
          UNION ALL
          (SELECT DISTINCT ON (w.item_id) w.* ${tier(0)}
           WHERE (SELECT count(*) FROM title_hits) < ${enough}::int
             AND NOT EXISTS (SELECT 1 FROM title_hits t WHERE t.item_id = w.item_id)
           ORDER BY w.item_id)) h
    ORDER BY ${orderBy(order)}
    ${page(params)}`;
}

/** The page subquery that fits the feed, sort and search. */
function pageQuery(params: FeedPageParams, order: Array<[string, Direction]>): SQL {
  if (params.feed === 'barter-match') {
    if (!params.graph) return matchPage(params, order);
    const graph = { ...params, located: params.origin !== null };
    const text = params.search && { match: searchMatch(params.search), tier: searchTier(params.search) };
    return graphPageSql(graph, order, text);
  }
  if (readsPostings(params) && params.search) return searchPage({ ...params, search: params.search }, order);
  if (params.feed === 'random-barter' && !params.q) return randomPage(params, order);
  if (walksMembers(params) && params.origin) return distancePage({ ...params, origin: params.origin }, order);
  return plainPage(params, order);
}

/** The page walks the postings of the search's words (everything with search text, ADR 023). */
function readsPostings(params: FeedPageParams): boolean {
  return (
    params.feed === 'everything' &&
    params.search !== undefined &&
    walksPostings(params.search) &&
    params.postings !== false
  );
}

/** The page is a nearest-first walk of members (everything by distance, without search text). */
function walksMembers(params: FeedPageParams): boolean {
  return (
    params.feed !== 'barter-match' &&
    params.feed !== 'random-barter' &&
    params.sort === 'distance' &&
    params.origin !== null &&
    !params.q
  );
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
  const resolved = await withSearch(db, params);
  // Only stop words ("the"): nothing to find.
  if (resolved.search?.empty) return { items: [], complete: true, version };
  const query = { ...resolved, limit: window + 1, offset: 0 };
  // Index walks whose plan does not depend on the values (everything but Barter Match's ranking
  // query and search text the text index answers) run as prepared statements: planned once per
  // connection.
  const stable = query.q ? readsPostings(query) : query.feed !== 'barter-match' || query.graph === true;
  const read = (p: FeedPageParams) =>
    (stable ? queryPrepared<RankRow> : run<RankRow>)(db, feedRankingQuery(p));
  let rows = await read(query);
  // Short from the nearest members alone (some list nothing): the end of the feed, or more members.
  if (rows.length <= window && walksMembers(query)) rows = await read({ ...query, memberLimit: null });
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
  const order = pageOrder(params);
  const match = params.feed === 'barter-match' ? sql`, ${MATCH_COLUMNS}` : sql``;
  return sql`SELECT p.id, round(p.distance::numeric, 1)::float8 AS distance_miles ${match}
    FROM (${pageQuery(params, order)}) p
    ORDER BY ${orderBy(order, 'p.')}`;
}
