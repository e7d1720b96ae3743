import { type SQL, sql } from 'drizzle-orm';
import { intArray } from '../../db/arrays';
import { pageBounds } from '../../db/prepared';
import type { Point } from '../../geo/earth';
import { distanceMiles, distanceMilesFrom, itemPoint, memberPoint, withinRadius } from '../../geo/sql';
import { itemDocument, listedItem } from '../items';
import { notHiddenFrom } from '../safety';
import {
  ownerWantMatchesMyItem,
  scoreSql,
  textFoundColumns,
  textPercentSql,
  valueFits,
  valuePoints,
  wantHasRelated,
  wantLexemes,
  wantPointsSql,
} from './match-sql';

/**
 * The SQL that keeps the match graph (ADR 022). One definition of a match serves the whole graph,
 * whichever side a change comes from (a member's graph built, an item written):
 *
 *   want W matches item I when both are goods or both services, I's value fits W's maxValue, and
 *   W's category is I's, or all of W's words are in I (title, description, category), or W's title
 *   is a near spelling of I's (pg_trgm word similarity; docs/matching.md).
 *
 * Each (member, item) keeps the want that earns the most points, then the oldest; reciprocity and
 * the score follow match-sql.ts (ownerWantMatchesMyItem, scoreSql), the same formulas the ranking
 * query uses.
 */

/** Barter Match's largest radius: the graph keeps every match within it (all, without a location). */
export const GRAPH_RADIUS_MILES = 50;

/** The columns of a want `w` / item `i` pair that say how it matches (pairs must already match). */
export function pairColumns(w = 'w', i = 'i'): SQL {
  const word = sql.raw;
  return sql`(${word(`${w}.category = ${i}.category`)}) AS same_category, ${textFoundColumns(w, i)},
    (${word(`${w}.title <% ${i}.title`)}) AS near,
    ${valuePoints(w, i)} AS value_points`;
}

/** The pair test: W matches I (see the module comment). `w` must carry `tsq` (plainto_tsquery of its title). */
export function pairMatches(w = 'w', i = 'i'): SQL {
  const word = sql.raw;
  return sql`${word(`${w}.is_service = ${i}.is_service`)} AND ${valueFits(w, i)}
    AND (${word(`${w}.category = ${i}.category`)}
      OR (cardinality(${wantLexemes(w)}) > 0 AND ${wantLexemes(w)} <@ tsvector_to_array(${itemDocument(i)}))
      OR ${word(`${w}.title <% ${i}.title`)})`;
}

/** Active wants with their title as a full-text query (`tsq`), for pairColumns. */
export const wantsWithQuery = (
  where: SQL,
) => sql`SELECT w.id, w.user_id, w.title, w.category, w.is_service, w.max_value,
    w.title_lexemes, plainto_tsquery('english', w.title) AS tsq, ${wantHasRelated('w')} AS has_related
  FROM wants w WHERE w.is_active AND ${where}`;

/**
 * The owner's first active want that one of the member's active items matches (reciprocity,
 * ownerWantMatchesMyItem), or NULL: `owner` and `member` are SQL expressions of their ids.
 */
function theirWantSql(owner: SQL, member: SQL): SQL {
  return sql`(SELECT ow.id FROM wants ow
    WHERE ow.user_id = ${owner} AND ow.is_active AND EXISTS (
      SELECT 1 FROM (SELECT mi.category, mi.is_service, mi.estimated_value,
                            tsvector_to_array(mi.search_vector) AS lexemes
                     FROM items mi WHERE mi.user_id = ${member} AND mi.is_active) mi
      WHERE ${ownerWantMatchesMyItem('ow', 'mi')})
    ORDER BY ow.id LIMIT 1)`;
}

/**
 * Rows of `pairs` (member_id, item and want columns, pairColumns) into match_graph, the best want
 * per (member, item); `ctes` are common table expressions `pairs` reads.
 */
function insertBest(ctes: SQL | null, pairs: SQL): SQL {
  return sql`WITH ${ctes ? sql`${ctes},` : sql``}
    pairs AS MATERIALIZED (SELECT q.*, ${textPercentSql()} AS text_pct FROM (${pairs}) q),
    best AS MATERIALIZED (
      SELECT DISTINCT ON (p.member_id, p.item_id) p.* FROM pairs p
      ORDER BY p.member_id, p.item_id, ${wantPointsSql()} DESC, p.want_id
    )
    INSERT INTO match_graph (member_id, item_id, item_user_id, want_id, same_category, text_pct,
      value_points, mutual, their_want_id, distance, score, created_at, value)
    SELECT b.member_id, b.item_id, b.item_user_id, b.want_id, b.same_category, b.text_pct, b.value_points,
      b.mutual, b.their_want_id, b.distance, ${scoreSql()}, b.created_at, b.value
    FROM (SELECT best.*, t.their_want_id, t.their_want_id IS NOT NULL AS mutual
          FROM best
          -- Reciprocity per (member, owner): the planner memoizes it across one owner's items.
          LEFT JOIN LATERAL (SELECT ${theirWantSql(sql`best.item_user_id`, sql`best.member_id`)} AS their_want_id) t
            ON true) b
    ON CONFLICT (member_id, item_id) DO NOTHING`;
}

/**
 * Build one member's graph from scratch: their matches found through the item indexes (category
 * and latitude band, full text, trigram), one probe set per want. `origin` is their public point (ADR 059).
 */
export function buildMemberSql(memberId: string, origin: Point | null): SQL {
  const member = sql`${memberId}::uuid`;
  const near = origin ? sql`AND ${withinRadius(origin, GRAPH_RADIUS_MILES, itemPoint('i'))}` : sql``;
  const probe = (join: SQL) =>
    sql`SELECT i.id FROM items i WHERE ${join} AND i.is_service = w.is_service AND ${listedItem('i')}
          AND i.user_id <> ${member} ${near}`;
  const pairs = sql`SELECT ${member} AS member_id, i.id AS item_id, i.user_id AS item_user_id, w.id AS want_id,
      i.created_at, i.estimated_value AS value, ${distanceMiles(origin, itemPoint('i'))} AS distance,
      w.max_value, ${pairColumns()}
    FROM my_wants w
    JOIN candidates c ON c.want_id = w.id
    JOIN items i ON i.id = c.item_id
    WHERE ${pairMatches()}`;
  const ctes = sql`my_wants AS MATERIALIZED (${wantsWithQuery(sql`w.user_id = ${member}`)}),
    candidates AS MATERIALIZED (
      SELECT DISTINCT w.id AS want_id, x.id AS item_id FROM my_wants w CROSS JOIN LATERAL (
        ${probe(sql`i.category = w.category`)}
        UNION ALL ${probe(sql`${itemDocument('i')} @@ w.tsq`)}
        UNION ALL ${probe(sql`w.title <% i.title`)}) x
    )`;
  return insertBest(ctes, pairs);
}

/**
 * Add the listed items among `itemIds` to the graphs of every built member they match (not their
 * owner's), each measured from the member's public point (ADR 059): members within GRAPH_RADIUS_MILES
 * of the item, and members without a location.
 */
export function insertItemsSql(itemIds: readonly number[]): SQL {
  const distance = distanceMilesFrom(memberPoint('u'), itemPoint('i'));
  const pairs = sql`SELECT u.id AS member_id, i.id AS item_id, i.user_id AS item_user_id, w.id AS want_id,
      i.created_at, i.estimated_value AS value, ${distance} AS distance, w.max_value, ${pairColumns()}
    FROM items i
    JOIN match_graph_members gm ON gm.built_at IS NOT NULL AND gm.member_id <> i.user_id
    JOIN users u ON u.id = gm.member_id
    JOIN LATERAL (${wantsWithQuery(sql`w.user_id = u.id`)}) w ON true
    WHERE i.id = ANY(${intArray(itemIds)}::int[]) AND ${listedItem('i')}
      AND (u.public_latitude IS NULL OR ${distance} <= ${GRAPH_RADIUS_MILES}::float8)
      AND ${pairMatches()}`;
  return insertBest(null, pairs);
}

/**
 * Recompute reciprocity (and so the score) of the graph rows `where` selects (over match_graph g),
 * once per (member, owner): after an owner's wants or a member's items changed.
 */
export function refreshMutualSql(where: SQL): SQL {
  return sql`UPDATE match_graph g SET mutual = t.their_want_id IS NOT NULL, their_want_id = t.their_want_id,
      score = (SELECT ${scoreSql()} FROM (SELECT g.same_category, g.text_pct, g.value_points, g.distance,
                                                  t.their_want_id IS NOT NULL AS mutual) s)
    FROM (SELECT o.member_id, o.item_user_id, ${theirWantSql(sql`o.item_user_id`, sql`o.member_id`)} AS their_want_id
          FROM (SELECT DISTINCT g.member_id, g.item_user_id FROM match_graph g WHERE ${where}) o) t
    WHERE g.member_id = t.member_id AND g.item_user_id = t.item_user_id
      AND g.their_want_id IS DISTINCT FROM t.their_want_id`;
}

/** What a graph page depends on (the fields of the feed's page parameters it reads). */
export interface GraphPageParams {
  viewerId: string;
  /** The viewer has a location: the radius applies (the graph keeps GRAPH_RADIUS_MILES at most). */
  located: boolean;
  radiusMiles: number;
  limit: number;
  offset: number;
}

/** The graph's column for each output column a feed order names (pageOrder). */
const GRAPH_ORDER_COLUMNS: Record<string, string> = {
  id: 'g.item_id',
  created_at: 'g.created_at',
  value: 'g.value',
  distance: 'g.distance',
  score: 'g.score',
  tier: 'tier',
};

/**
 * One Barter Match page from the viewer's graph, in `order` (pageOrder's keys): a walk of the
 * graph index of that order (match_graph_*_idx), each row checked against its item (still
 * listed) and want (still active) by primary key, stopping after the page. Output columns as the
 * ranking query's barter-match page: id, created_at, value, distance, score and the match's.
 * `text` is the feed's search (search.ts: searchMatch and searchTier), applied to the item;
 * `where`, more the item must be (the feed's condition filter, ADR 082), on `items i`.
 *
 * It runs prepared, and its plan does not depend on the values: the walk reads up to one of a few
 * sizes written into the text (pageBounds), and a LIMIT parameter above it keeps the page exact.
 * So PostgreSQL prices the plan it would keep for the connection no dearer than a plan made with
 * the values, and keeps it instead of planning every page afresh (bench:feed, 2026-12-04).
 */
export function graphPageSql(
  params: GraphPageParams,
  order: Array<[string, string]>,
  text?: { match: SQL; tier: SQL },
  where?: SQL,
): SQL {
  const radius = params.located ? sql`AND g.distance <= ${params.radiusMiles}::float8` : sql``;
  const tier = text ? sql`, ${text.tier} AS tier` : sql``;
  // Spelt as the graph indexes are (score DESC NULLS LAST; the ids are never NULL either way), the
  // same above the walk, so that the page's ORDER BY is the walk's order and sorts nothing.
  const spelt = order.map(([column, direction]) => {
    const name = GRAPH_ORDER_COLUMNS[column];
    if (!name) throw new Error(`no graph order for ${column}`);
    return { column, name, direction: direction === 'DESC' ? 'DESC NULLS LAST' : direction };
  });
  const keys = spelt.map(({ name, direction }) => `${name} ${direction}`);
  const outputKeys = spelt.map(({ column, direction }) => `page.${column} ${direction}`);
  return sql`SELECT page.* FROM (SELECT g.item_id AS id, g.created_at, g.value, g.distance, g.score, g.want_id, w.title AS want_title,
      g.mutual, tw.title AS their_want_title, g.same_category, g.text_pct, w.max_value ${tier}
    FROM match_graph g
    JOIN items i ON i.id = g.item_id
    JOIN wants w ON w.id = g.want_id
    LEFT JOIN wants tw ON tw.id = g.their_want_id
    WHERE g.member_id = ${params.viewerId}::uuid AND ${listedItem('i')} AND w.is_active
      AND ${notHiddenFrom('g.item_user_id', params.viewerId)} ${radius} ${text ? sql`AND ${text.match}` : sql``}
      ${where ? sql`AND ${where}` : sql``}
    ORDER BY ${sql.raw(keys.join(', '))}
    ${pageBounds(params.limit, params.offset)}) page
    ORDER BY ${sql.raw(outputKeys.join(', '))} LIMIT ${params.limit}::int`;
}
