import { type SQL, sql } from 'drizzle-orm';
import { textArray } from '../../db/arrays';
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
import { itemDocument, listedItem } from '../items';
import {
  ownerWantMatchesMyItem,
  scoreSql,
  textFoundColumns,
  textPercentSql,
  valueFits,
  valuePoints,
  wantHasRelated,
  wantPointsSql,
} from '../match-graph';
import { notHiddenFrom } from '../safety';
import { orderBy } from './feed-cards';
import type { FeedPageParams } from './feed-definition';
import { candidateWhere, conditionAtLeast, shuffleColumns, shuffleStart } from './feed-sql';
import type { CardOrder } from './feed-types';
import {
  type PostingWalk,
  postingWalks,
  type Search,
  searchMatch,
  searchTier,
  walksPostings,
} from './search';

/**
 * The candidate sources the feeds compose (feeds/*.ts, ADR 064): each is a page subquery with the
 * columns id and distance, and those its order names, one page of candidates in that order.
 */

/**
 * Columns every page subquery outputs for ordering (from items `i`), and `extra` columns a feed's
 * own order reads (random-barter's place on its cycle).
 */
function orderColumns(params: FeedPageParams, extra: SQL | null = null, i = 'i'): SQL {
  const tier = params.search ? sql`, ${searchTier(params.search, i)} AS tier` : sql``;
  const more = extra ? sql`, ${extra}` : sql``;
  return sql`${sql.raw(`${i}.id, ${i}.created_at, ${i}.estimated_value AS value`)}${tier}${more}`;
}

/** Miles from the viewer to the item's copy of its owner's public point; NULL without both. */
export const distanceOrNull = (origin: Point | null) => distanceMiles(origin, itemPoint('i'));
const page = (params: FeedPageParams) => sql`LIMIT ${params.limit}::int OFFSET ${params.offset}::int`;

/**
 * Every candidate (listed items of other members within the radius, matching the search text), in
 * order, one page: everything (any sort) and random-barter with search text. Recent and value walk
 * their indexes and stop after a page; search starts from the text indexes. `extra`: columns the
 * feed's order reads beyond the usual (orderColumns); `where`: what a candidate must be besides.
 */
export function plainPage(
  params: FeedPageParams,
  order: CardOrder,
  extra: { columns?: SQL; where?: SQL } = {},
): SQL {
  const where = extra.where ? sql` AND ${extra.where}` : sql``;
  return sql`SELECT ${orderColumns(params, extra.columns ?? null)}, ${distanceOrNull(params.origin)} AS distance
    FROM items i
    WHERE ${candidateWhere(params)}${where}
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
export function distancePage(params: FeedPageParams & { origin: Point }, order: CardOrder): SQL {
  const point = memberPoint('u');
  const memberLimit = params.memberLimit === undefined ? params.offset + params.limit : params.memberLimit;
  const inside = withinRadius(params.origin, params.radiusMiles, point);
  // With a condition filter each member's items stay one probe of the owner index (OFFSET 0: not
  // flattened, so the planner cannot trade the walk for a scan of items by condition) and the
  // condition is tested on the rows it returns (ADR 082, addendum).
  const condition = params.condition
    ? { probe: sql`OFFSET 0`, row: sql`AND ${conditionAtLeast(params.condition)}` }
    : { probe: sql``, row: sql`` };
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
    CROSS JOIN LATERAL (SELECT i.* FROM items i WHERE i.user_id = nu.id AND ${listedItem('i')} ${condition.probe}) i
    WHERE nu.inside ${condition.row}
    ORDER BY nu.nearness, ${orderBy(order.filter(([column]) => column !== 'distance'))}
    ${page(params)}`;
}

/**
 * random-barter without search text: walk the shuffle index from the seed's entry point to the end
 * of the cycle, then from its start; each half stops after offset + limit candidates.
 */
export function randomPage(params: FeedPageParams, order: CardOrder): SQL {
  const start = shuffleStart(params.seed);
  const enough = params.offset + params.limit;
  const half = (
    range: SQL,
  ) => sql`(SELECT ${orderColumns(params, shuffleColumns(params.seed))}, ${distanceOrNull(params.origin)} AS distance
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
export function matchPage(params: FeedPageParams, order: CardOrder, itemId?: number): SQL {
  const viewer = sql`${params.viewerId}::uuid`;
  const hidden = notHiddenFrom('i.user_id', params.viewerId);
  const only = itemId ? sql`AND i.id = ${itemId}::int` : sql``;
  const search = params.search ? sql`AND ${searchMatch(params.search)}` : sql``;
  const condition = params.condition ? sql`AND ${conditionAtLeast(params.condition)}` : sql``;
  const filtered = params.origin && !itemId ? params.origin : null;
  // Within the radius by the item's own copy of its owner's public point: in the category probe
  // the latitude band is a range of items_active_category_lat_idx, elsewhere a test on the row.
  const near = filtered ? sql`AND ${withinRadius(filtered, params.radiusMiles, itemPoint('i'))}` : sql``;
  // Item columns every branch carries, so no item is read twice.
  const columns = sql`${orderColumns(params)}, i.user_id, i.category, i.estimated_value, i.latitude, i.longitude`;
  // The same columns, by name, from the category probe.
  const names = ['id', 'created_at', 'value'];
  if (params.search) names.push('tier');
  names.push('user_id', 'category', 'estimated_value', 'latitude', 'longitude');
  const fromProbe = sql.raw(names.map((name) => `bc.${name}`).join(', '));
  const branch = (flags: SQL, join: SQL) => sql`SELECT w.id AS want_id, ${flags}, ${columns}
      FROM my_wants w CROSS JOIN LATERAL (SELECT * FROM items i
        WHERE ${join} AND i.is_service = w.is_service AND ${listedItem('i')} AND i.user_id <> ${viewer} AND ${hidden} ${only} ${search} ${condition} ${near}
        -- Kept a subquery (not flattened into a join), so each want probes the index.
        OFFSET 0) i`;
  // The candidate's latitude/longitude are the item's copy of its owner's public point.
  const distance = sql`CROSS JOIN LATERAL (SELECT ${distanceMiles(params.origin, itemPoint('c'))} AS distance) d`;
  return sql`WITH my_wants AS MATERIALIZED (
      SELECT w.id, w.title, w.category, w.is_service, w.max_value, w.title_lexemes,
        plainto_tsquery('english', w.title) AS tsq, ${wantHasRelated('w')} AS has_related
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
          AND i.user_id <> ${viewer} AND ${hidden} ${only} ${search} ${condition} ${near}
        OFFSET 0) i
    ),
    pairs AS (
      SELECT w.id AS want_id, false AS near, ${fromProbe}
      FROM by_category bc JOIN my_wants w ON w.category = bc.category AND w.is_service = bc.probe_service
      UNION ALL
      ${branch(sql`false AS near`, sql`${itemDocument('i')} @@ w.tsq`)}
      UNION ALL
      ${branch(sql`true AS near`, sql`w.title <% i.title`)}
    ),
    -- What the want's words find in the item (textFoundColumns), and its stored title words, by primary key.
    pair_found AS (
      SELECT p.*, w.title AS want_title, w.max_value, (p.category = w.category) AS same_category,
        ${valuePoints('w', 'p')} AS value_points, ${textFoundColumns('w', 'it')}
      FROM pairs p
      JOIN my_wants w ON w.id = p.want_id
      JOIN items it ON it.id = p.id
      WHERE ${valueFits('w', 'p')}
    ),
    pair_points AS (SELECT f.*, ${textPercentSql()} AS text_pct FROM pair_found f),
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
export function searchPage(params: FeedPageParams & { search: Search }, order: CardOrder): SQL {
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

/**
 * With search text, the page walks the postings of the search's words (ADR 023): on a feed that
 * reads them (FeedDefinition.searchPostings), when the search has words every match holds one of,
 * and no condition filter is set (ADR 082, addendum).
 */
export function readsPostings(params: FeedPageParams, searchPostings: boolean): boolean {
  return (
    searchPostings &&
    params.search !== undefined &&
    walksPostings(params.search) &&
    params.postings !== false &&
    // The postings carry no condition: with one, the text index and the condition test on the row.
    params.condition === undefined
  );
}

/**
 * The usual orders (docs/product.md): by distance (recent without a location), by value (unknown
 * last) or recent; ties break by id.
 */
export function sortedOrder(params: Pick<FeedPageParams, 'origin' | 'sort'>): CardOrder {
  const keys: CardOrder = [];
  if (params.sort === 'distance' && params.origin) keys.push(['distance', 'ASC']);
  else if (params.sort === 'value') keys.push(['value', 'DESC NULLS LAST']);
  // The recent index is (created_at DESC NULLS LAST, id DESC NULLS LAST): spelt the same to be used.
  else keys.push(['created_at', 'DESC NULLS LAST']);
  keys.push(['id', 'DESC NULLS LAST']);
  return keys;
}
