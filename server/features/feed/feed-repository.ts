import { type SQL, sql } from 'drizzle-orm';
import type { FeedName, FeedSort } from '../../../common/schemas/feed';
import type { Db } from '../../db/client';
import { type Page, type PageRequest, withTotal } from '../../db/paging';
import { queryPrepared } from '../../db/prepared';
import { queryRows } from '../../db/rows';
import type { Point } from '../../geo/earth';
import { distanceMiles, itemPoint, withinRadius } from '../../geo/sql';
import { type TraderSummary, traderSummaryColumns } from '../trades/trades-repository';
import type { RankedItem, Ranking } from './feed-cache';
import {
  candidateWhere,
  itemDocument,
  listedItem,
  nearMembers,
  ownerWantMatchesMyItem,
  scoreSql,
  searchMatch,
  searchTier,
  shuffleColumns,
  shuffleStart,
  textPercentSql,
  valueFits,
  valuePoints,
  wantPointsSql,
} from './feed-sql';

/** Why an item is on Barter Match, with the components its score was computed from. */
export interface MatchRow {
  score: number;
  wantId: number;
  wantTitle: string;
  mutual: boolean;
  theirWantTitle: string | null;
  sameCategory: boolean;
  /** Whole percent. */
  textPercent: number;
  maxValue: number | null;
}

/** One item with everything a card shows, as the database returns it (no e-mail, no coordinates). */
export interface FeedRow {
  id: number;
  title: string;
  description: string;
  category: string;
  isService: boolean;
  imageUrl: string | null;
  thumbnailUrl: string | null;
  estimatedValue: number | null;
  createdAt: string;
  isActive: boolean;
  userId: string;
  firstName: string | null;
  /** First character of the last name only. */
  lastInitial: string | null;
  profileImageUrl: string | null;
  /**
   * From the viewer's own point to the owner's public point (server/geo/README.md), rounded to 0.1
   * mile; null when the viewer or the owner has no location.
   */
  distanceMiles: number | null;
  isSaved: boolean;
  lookingFor: string[];
  match: MatchRow | null;
  /** The owner's rating summary ('New trader' when they have none). */
  owner: TraderSummary;
}

interface RawRow {
  id: number;
  title: string;
  description: string;
  category: string;
  is_service: boolean;
  image_url: string | null;
  thumbnail_url: string | null;
  estimated_value: number | null;
  created_at: string;
  is_active: boolean;
  user_id: string;
  first_name: string | null;
  last_initial: string | null;
  profile_image_url: string | null;
  distance_miles: number | null;
  is_saved: boolean;
  looking_for: string[] | null;
  owner_rating: number | null;
  owner_trades: number;
  score?: number | null;
  want_id?: number | null;
  want_title?: string | null;
  mutual?: boolean | null;
  their_want_title?: string | null;
  same_category?: boolean | null;
  text_pct?: number | null;
  max_value?: number | null;
}

const run = queryRows;

function toFeedRow(row: RawRow): FeedRow {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    category: row.category,
    isService: row.is_service,
    imageUrl: row.image_url,
    thumbnailUrl: row.thumbnail_url,
    estimatedValue: row.estimated_value,
    createdAt: row.created_at,
    isActive: row.is_active,
    userId: row.user_id,
    firstName: row.first_name,
    lastInitial: row.last_initial,
    profileImageUrl: row.profile_image_url,
    distanceMiles: row.distance_miles,
    isSaved: row.is_saved,
    lookingFor: row.looking_for ?? [],
    match: toMatch(row),
    owner: { averageRating: row.owner_rating, completedTrades: row.owner_trades },
  };
}

/** The match columns of a row (barter-match), or null. */
function toMatch(row: MatchColumns): MatchRow | null {
  return row.score == null || row.want_id == null
    ? null
    : {
        score: row.score,
        wantId: row.want_id,
        wantTitle: row.want_title ?? '',
        mutual: row.mutual === true,
        theirWantTitle: row.their_want_title ?? null,
        sameCategory: row.same_category === true,
        textPercent: row.text_pct ?? 0,
        maxValue: row.max_value ?? null,
      };
}

type MatchColumns = Pick<
  RawRow,
  | 'score'
  | 'want_id'
  | 'want_title'
  | 'mutual'
  | 'their_want_title'
  | 'same_category'
  | 'text_pct'
  | 'max_value'
>;

/** The match columns a barter-match page subquery `p` outputs, as the row types expect them. */
const MATCH_COLUMNS = sql`p.score, p.want_id, p.want_title, p.mutual, p.their_want_title, p.same_category,
  p.text_pct, p.max_value::float8 AS max_value`;

type Direction = 'ASC' | 'DESC' | 'DESC NULLS LAST';

/** ORDER BY over the page's output columns (bare names inside, `p.`-prefixed outside). */
function orderBy(keys: Array<[string, Direction]>, prefix = ''): SQL {
  return sql.raw(keys.map(([column, direction]) => `${prefix}${column} ${direction}`).join(', '));
}

/**
 * The card fields of the items a page subquery `p` names (column id, distance and the order
 * columns), in one statement: owner, rating summary, saved flag and the owner's newest active
 * wants come from index look-ups for the page's rows only.
 */
function presentPage(options: {
  page: SQL;
  viewerId: string;
  order: Array<[string, Direction]>;
  lookingFor: number;
  /** More output columns. */
  extra?: SQL;
  /** Leave out items no longer listed (inactive, or reserved by an accepted barter). */
  activeOnly?: boolean;
  /** More joined relations (one row each). */
  join?: SQL;
}): SQL {
  const owner = traderSummaryColumns(sql`u.id`);
  return sql`SELECT i.id, i.title, i.description, i.category, i.is_service, i.image_url, i.thumbnail_url,
      i.estimated_value::float8 AS estimated_value,
      to_char(i.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
      i.is_active, u.id::text AS user_id, u.first_name, left(u.last_name, 1) AS last_initial,
      u.profile_image_url,
      round(p.distance::numeric, 1)::float8 AS distance_miles,
      EXISTS (SELECT 1 FROM saved_items s WHERE s.user_id = ${options.viewerId}::uuid AND s.item_id = i.id) AS is_saved,
      ARRAY(SELECT w.title FROM wants w WHERE w.user_id = i.user_id AND w.is_active
            ORDER BY w.created_at DESC, w.id DESC LIMIT ${options.lookingFor}::int) AS looking_for,
      ${owner.averageRating}::float8 AS owner_rating, ${owner.completedTrades}::int AS owner_trades
      ${options.extra ?? sql``}
    FROM (${options.page}) p
    JOIN items i ON i.id = p.id ${options.activeOnly ? sql`AND ${listedItem('i')}` : sql``}
    JOIN users u ON u.id = i.user_id
    ${options.join ?? sql``}
    ORDER BY ${orderBy(options.order, 'p.')}`;
}

/** The order of a card page: output columns of its page subquery, each with its direction. */
export type CardOrder = Array<[string, Direction]>;

/**
 * The cards of the items a page subquery names (output columns id, distance and the `order`
 * columns), in that order, as the viewer sees them: for lists whose rows other features choose
 * (saved items, a member's items), so every list shows the same card.
 */
export async function readCardPage(
  db: Db,
  options: { page: SQL; viewerId: string; order: CardOrder; lookingFor: number },
): Promise<FeedRow[]> {
  const rows = await run<RawRow>(db, presentPage(options));
  return rows.map(toFeedRow);
}

export interface FeedPageParams {
  feed: FeedName;
  viewerId: string;
  /** The viewer's own point; null when they have no location. */
  origin: Point | null;
  radiusMiles: number;
  sort: FeedSort;
  q?: string;
  seed: number;
  limit: number;
  offset: number;
  lookingFor: number;
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
  const tier = params.q ? sql`, ${searchTier(params.q, i)} AS tier` : sql``;
  const shuffle = params.feed === 'random-barter' ? sql`, ${shuffleColumns(params.seed, i)}` : sql``;
  return sql`${sql.raw(`${i}.id, ${i}.created_at, ${i}.estimated_value AS value`)}${tier}${shuffle}`;
}

/** Miles from the viewer to the item's copy of its owner's public point; NULL without both. */
const distanceOrNull = (origin: Point | null) => distanceMiles(origin, itemPoint('i'));
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
 * everything by distance: the members whose public point is within the radius, nearest first
 * (their public point index), then each one's items (which carry that same point); the sort on
 * (distance, id) is incremental, so a page stops early.
 */
function distancePage(params: FeedPageParams & { origin: Point }, order: Array<[string, Direction]>): SQL {
  return sql`SELECT ${orderColumns(params)}, nu.distance
    FROM (SELECT n.id, n.distance FROM (${nearMembers(params)}) n ORDER BY distance) nu
    CROSS JOIN LATERAL (SELECT i.* FROM items i WHERE i.user_id = nu.id AND ${listedItem('i')}) i
    ORDER BY ${orderBy(order)}
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
 *     index, the full-text index (all the want's words) and the trigram index (near spellings);
 *  2. candidates: those items of members within the radius (one pass over the location index,
 *     hash-joined), the value within the want's budget, with text similarity and value points; per
 *     item its best want;
 *  3. reciprocity, per owner on the list: their first active want one of the viewer's items matches
 *     (wants by owner index, stored title lexemes, so no text is parsed per row);
 *  4. the score (scoreSql, the same sum as match-score.ts), the order, one page.
 */
function matchPage(params: FeedPageParams, order: Array<[string, Direction]>, itemId?: number): SQL {
  const viewer = sql`${params.viewerId}::uuid`;
  const only = itemId ? sql`AND i.id = ${itemId}::int` : sql``;
  const search = params.q ? sql`AND ${searchMatch(params.q)}` : sql``;
  const filtered = params.origin && !itemId ? params.origin : null;
  // Within the radius by the item's own copy of its owner's public point: in the category probe
  // the latitude band is a range of items_active_category_lat_idx, elsewhere a test on the row.
  const near = filtered ? sql`AND ${withinRadius(filtered, params.radiusMiles, itemPoint('i'))}` : sql``;
  // Item columns every branch carries, so no item is read twice.
  const columns = sql`${orderColumns(params)}, i.user_id, i.category, i.estimated_value, i.latitude, i.longitude`;
  // The same columns, by name, from the category probe.
  const names = ['id', 'created_at', 'value'];
  if (params.q) names.push('tier');
  if (params.feed === 'random-barter') names.push('shuffle', 'lap');
  names.push('user_id', 'category', 'estimated_value', 'latitude', 'longitude');
  const fromProbe = sql.raw(names.map((name) => `bc.${name}`).join(', '));
  const branch = (
    flags: SQL,
    join: SQL,
    extra: SQL = sql``,
  ) => sql`SELECT w.id AS want_id, ${flags}, ${columns}
      FROM my_wants w CROSS JOIN LATERAL (SELECT * FROM items i
        WHERE ${join} AND i.is_service = w.is_service AND ${listedItem('i')} AND i.user_id <> ${viewer} ${only} ${search} ${near}
        -- Kept a subquery (not flattened into a join), so each want probes the index.
        OFFSET 0) i ${extra}`;
  // The candidate's latitude/longitude are the item's copy of its owner's public point.
  const distance = sql`CROSS JOIN LATERAL (SELECT ${distanceMiles(params.origin, itemPoint('c'))} AS distance) d`;
  return sql`WITH my_wants AS MATERIALIZED (
      SELECT w.*,
        -- Near spellings are the fallback for wants whose words no active item has (a typo).
        EXISTS (SELECT 1 FROM items x WHERE ${listedItem('x')} AND ${itemDocument('x')} @@ w.tsq) AS found_by_words
      FROM (SELECT w.id, w.title, w.category, w.is_service, w.max_value, plainto_tsquery('english', w.title) AS tsq
            FROM wants w WHERE w.user_id = ${viewer} AND w.is_active) w
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
          AND i.user_id <> ${viewer} ${only} ${search} ${near}
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
      ${branch(sql`false AS fts, false AS fts_title, true AS near`, sql`w.title <% i.title`, sql`WHERE NOT w.found_by_words`)}
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

/** The page subquery that fits the feed, sort and search. */
function pageQuery(params: FeedPageParams, order: Array<[string, Direction]>): SQL {
  if (params.feed === 'barter-match') return matchPage(params, order);
  if (params.feed === 'random-barter' && !params.q) return randomPage(params, order);
  if (params.sort === 'distance' && params.origin && !params.q) {
    return distancePage({ ...params, origin: params.origin }, order);
  }
  return plainPage(params, order);
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
  const rows = await run<RankRow>(db, feedRankingQuery({ ...params, limit: window + 1, offset: 0 }));
  const items = rows
    .slice(0, window)
    .map((row): RankedItem => ({ id: row.id, distanceMiles: row.distance_miles, match: toMatch(row) }));
  return { items, complete: rows.length <= window, version };
}

interface RankRow extends MatchColumns {
  id: number;
  distance_miles: number | null;
}

/** The query of a feed's order (`limit` entries from `offset`), for findRanking, EXPLAIN tests and the benchmark. */
export function feedRankingQuery(params: FeedPageParams): SQL {
  const order = pageOrder(params);
  const match = params.feed === 'barter-match' ? sql`, ${MATCH_COLUMNS}` : sql``;
  return sql`SELECT p.id, round(p.distance::numeric, 1)::float8 AS distance_miles ${match}
    FROM (${pageQuery(params, order)}) p
    ORDER BY ${orderBy(order, 'p.')}`;
}

/** The counters of listing_changes (ADR 012) as one statement reads them. */
export interface Versions {
  /** Moves on with every change that can reorder a feed. */
  listing: number;
  /** Moves on with every change that can alter a feed card. */
  card: number;
}

/** Feed cards, in no particular order, with the counters read in the same statement. */
export interface CardRows {
  cards: FeedRow[];
  versions: Versions;
}

/**
 * The cards of these items as the viewer sees them (their saved flag), read by primary key in one
 * prepared statement that also reads both counters; items hidden or deleted since are left out.
 * Distance and match are not set: they come from the ranking.
 */
export async function findCardRows(
  db: Db,
  viewerId: string,
  ids: readonly number[],
  lookingFor: number,
): Promise<CardRows> {
  if (ids.length === 0) return { cards: [], versions: await readPageState(db, viewerId, ids) };
  // The same text for every page (the ids are one array parameter): prepared once per connection.
  const raw = await queryPrepared<CardRow>(db, cardsQuery(viewerId, ids, lookingFor));
  const first = raw[0];
  const versions = first
    ? { listing: first.listing_version, card: first.card_version }
    : await readPageState(db, viewerId, ids);
  return { cards: raw.map(toFeedRow), versions };
}

interface CardRow extends RawRow {
  listing_version: number;
  card_version: number;
}

/** The statement of findCardRows (ids as one int[] parameter, so the text is the same for every page). */
export function cardsQuery(viewerId: string, ids: readonly number[], lookingFor: number): SQL {
  const page = sql`SELECT p.id, p.ord, NULL::float8 AS distance
    FROM unnest(${intArray(ids)}::int[]) WITH ORDINALITY AS p(id, ord)`;
  return presentPage({
    page,
    viewerId,
    order: [['ord', 'ASC']],
    lookingFor,
    activeOnly: true,
    extra: sql`, v.version::float8 AS listing_version, v.card_version::float8 AS card_version`,
    join: sql`JOIN listing_changes v ON v.id = 1`,
  });
}

/** Both counters, and which of these items the viewer has saved (one prepared statement). */
export async function readPageState(
  db: Db,
  viewerId: string,
  ids: readonly number[],
): Promise<Versions & { saved: Set<number> }> {
  const [row] = await queryPrepared<{ version: number; card_version: number; saved: number[] }>(
    db,
    sql`SELECT v.version::float8 AS version, v.card_version::float8 AS card_version,
          ARRAY(SELECT s.item_id FROM saved_items s
                WHERE s.user_id = ${viewerId}::uuid AND s.item_id = ANY(${intArray(ids)}::int[])) AS saved
        FROM listing_changes v WHERE v.id = 1`,
  );
  return { listing: row?.version ?? 0, card: row?.card_version ?? 0, saved: new Set(row?.saved ?? []) };
}

/** Whole numbers as one PostgreSQL int[] literal (one parameter, whatever the count). */
const intArray = (ids: readonly number[]) => `{${ids.map((id) => Math.trunc(id)).join(',')}}`;

/**
 * One page of the viewer's saved items that are still listed (active, not reserved by an accepted
 * barter), newest saved first, with how many there are in all (the Saved tab's count).
 */
export async function findSavedItems(
  db: Db,
  viewerId: string,
  origin: Point | null,
  lookingFor: number,
  pageRequest: PageRequest,
): Promise<Page<FeedRow>> {
  const distance = distanceOrNull(origin);
  const page = sql`SELECT i.id, s.created_at AS saved_at, s.id AS saved_id, ${distance} AS distance
    FROM saved_items s JOIN items i ON i.id = s.item_id
    WHERE s.user_id = ${viewerId}::uuid AND ${listedItem('i')}
    ORDER BY saved_at DESC, saved_id DESC
    LIMIT ${pageRequest.limit}::int OFFSET ${pageRequest.offset}::int`;
  const rows = await readCardPage(db, {
    page,
    viewerId,
    order: [
      ['saved_at', 'DESC'],
      ['saved_id', 'DESC'],
    ],
    lookingFor,
  });
  return withTotal(rows, pageRequest, async () => {
    const [row] = await run<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM saved_items s JOIN items i ON i.id = s.item_id
        WHERE s.user_id = ${viewerId}::uuid AND ${listedItem('i')}`,
    );
    return row?.n ?? 0;
  });
}

/**
 * One item as its detail shows it: an active item of anyone, or any item of the viewer's own;
 * null otherwise. When it matches one of the viewer's wants, the match comes with it.
 */
export async function findItemDetail(
  db: Db,
  viewerId: string,
  origin: Point | null,
  itemId: number,
  lookingFor: number,
): Promise<FeedRow | null> {
  // One's own item is at home (0 miles), not at the public point others measure it from.
  const distance = origin
    ? sql`CASE WHEN i.user_id = ${viewerId}::uuid THEN 0::float8 ELSE ${distanceOrNull(origin)} END`
    : distanceOrNull(origin);
  const page = sql`SELECT i.id, ${distance} AS distance FROM items i
    WHERE i.id = ${itemId}::int AND (i.is_active OR i.user_id = ${viewerId}::uuid)`;
  const [row] = await run<RawRow>(db, presentPage({ page, viewerId, order: [['id', 'ASC']], lookingFor }));
  if (!row) return null;
  const detail = toFeedRow(row);
  if (!detail.isActive || detail.userId === viewerId) return detail;
  const params: FeedPageParams = {
    feed: 'barter-match',
    viewerId,
    origin,
    radiusMiles: 0,
    sort: 'recent',
    seed: 0,
    limit: 1,
    offset: 0,
    lookingFor,
  };
  const [matched] = await run<MatchColumns>(
    db,
    sql`SELECT ${MATCH_COLUMNS} FROM (${matchPage(params, [['id', 'ASC']], itemId)}) p`,
  );
  if (matched) detail.match = toMatch(matched);
  return detail;
}

/** Count a view by someone other than the owner, in one statement; updated_at stays as it was. */
export async function countView(db: Db, itemId: number, viewerId: string): Promise<void> {
  await db.execute(
    sql`UPDATE items SET view_count = view_count + 1
        WHERE id = ${itemId}::int AND user_id <> ${viewerId}::uuid AND is_active`,
  );
}
