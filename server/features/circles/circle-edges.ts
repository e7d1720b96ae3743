import { type SQL, sql } from 'drizzle-orm';
import { intArray, uuidArray } from '../../db/arrays';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/rows';
import type { CircleEdge } from './circle-finder';

/** A hand-over refused by a decline or left unanswered is not proposed again for this long. */
export const REFUSED_DAYS = 30;

/**
 * Of these hand-overs, those members may be offered now: neither member waits on a live proposed
 * circle (one circle waiting for answers at a time), and the hand-over was not refused lately (the
 * member who declined a circle, or let it expire unanswered, gave it or would have got it). One
 * read, by the members and items at hand.
 */
async function withoutExcluded(db: Db, edges: CircleEdge[], now: Date): Promise<CircleEdge[]> {
  if (edges.length === 0) return edges;
  const at = sql`${now.toISOString()}::timestamptz`;
  const members = [...new Set(edges.flatMap((edge) => [edge.giverId, edge.receiverId]))];
  const itemIds = [...new Set(edges.map((edge) => edge.itemId))];
  const rows = await queryRows<{ member_id: string; item_id: number | null }>(
    db,
    sql`SELECT cm.member_id::text AS member_id, NULL::int AS item_id
      FROM circle_members cm JOIN circles c ON c.id = cm.circle_id
      WHERE cm.member_id = ANY(${uuidArray(members)}::uuid[]) AND c.status = 'proposed' AND c.expires_at > ${at}
      UNION ALL
      SELECT taker.member_id::text, giver.item_id
      FROM circle_members giver
      JOIN circles c ON c.id = giver.circle_id
      JOIN circle_members taker ON taker.circle_id = c.id AND taker.position = (giver.position + 1) % c.size
      WHERE giver.item_id = ANY(${intArray(itemIds)}::int[])
        AND c.status IN ('declined', 'expired') AND c.swap_day_id IS NULL
        AND c.closed_at > ${at} - make_interval(days => ${REFUSED_DAYS})
        AND EXISTS (SELECT 1 FROM circle_members m WHERE m.circle_id = c.id
          AND m.member_id IN (giver.member_id, taker.member_id)
          AND ((c.status = 'declined' AND m.member_id = c.closed_by_id)
            OR (c.status = 'expired' AND m.accepted_at IS NULL)))`,
  );
  const busy = new Set(rows.filter((row) => row.item_id === null).map((row) => row.member_id));
  const refused = new Set(
    rows.filter((row) => row.item_id !== null).map((row) => `${row.item_id}|${row.member_id}`),
  );
  return edges.filter(
    (edge) =>
      !busy.has(edge.giverId) &&
      !busy.has(edge.receiverId) &&
      !refused.has(`${edge.itemId}|${edge.receiverId}`),
  );
}

/** A member not suspended or banned at `at` (columns of `users` under `alias`). */
const inGoodStanding = (alias: string, at: SQL): SQL =>
  sql`(${sql.raw(alias)}.banned_at IS NULL AND (${sql.raw(alias)}.suspended_until IS NULL OR ${sql.raw(alias)}.suspended_until <= ${at}))`;

/**
 * Hand-overs the match graph (ADR 022) holds now: the giver's listed item matches an active want of
 * the receiver (the graph's drain keeps only those, and the job runs after it; a proposal checks
 * its items again under lock), both have a location and the distance between them is within both members' travel
 * distance, neither is suspended or banned. `where` narrows the rows (by giver or receiver); none:
 * every hand-over. (Blocks are checked on whole circles: members of one circle all talk together.)
 */
async function graphEdges(db: Db, where: SQL | null, now: Date): Promise<CircleEdge[]> {
  const at = sql`${now.toISOString()}::timestamptz`;
  // One row, a JSON array the database builds, rather than a row per hand-over: around a busy
  // neighbourhood these reads return thousands of hand-overs, and decoding them field by field on
  // the main thread cost more than the query itself (issue 27). Suspended and banned members are
  // left out by the aggregate's FILTER rather than the WHERE clause: a filter on the joined users
  // makes the planner expect one row where a table has no statistics yet (a new embedded database),
  // and it then walks every pair of members.
  const [row] = await queryRows<{ edges: string | null }>(
    db,
    sql`SELECT json_agg(json_build_array(g.item_user_id, g.member_id, g.item_id, g.want_id, g.score,
          g.value::float8, g.distance::float8))
          FILTER (WHERE ${inGoodStanding('r', at)} AND ${inGoodStanding('o', at)})::text AS edges
      FROM match_graph g
      JOIN users r ON r.id = g.member_id
      JOIN users o ON o.id = g.item_user_id
      WHERE ${where ?? sql`TRUE`}
        AND g.distance IS NOT NULL AND g.distance <= least(r.max_travel_distance, o.max_travel_distance)`,
  );
  if (!row?.edges) return [];
  return (
    JSON.parse(row.edges) as Array<[string, string, number, number, number, number | null, number | null]>
  ).map(([giverId, receiverId, itemId, wantId, score, value, miles]) => ({
    giverId,
    receiverId,
    itemId,
    wantId,
    score,
    value,
    miles,
  }));
}

/**
 * The hand-overs of every circle of at most 4 members through `members` (D), met in the middle:
 * what D gives and what comes back to D (D -> a, c -> D: one read), what comes to those (b -> c),
 * and between the members D gives to and those two back (a -> b). Three indexed reads, each bounded
 * by the sets the ones before found, instead of walking three steps out from D; then the members
 * waiting on a circle and the hand-overs refused lately are left out (one more read).
 */
export async function loadEdgesAround(db: Db, members: readonly string[], now: Date): Promise<CircleEdge[]> {
  const d = [...new Set(members)];
  const ids = (list: Iterable<string>) => uuidArray([...new Set(list)]);
  const around = await graphEdges(
    db,
    sql`(g.item_user_id = ANY(${ids(d)}::uuid[]) OR g.member_id = ANY(${ids(d)}::uuid[]))`,
    now,
  );
  const inD = new Set(d);
  const out = around.filter((edge) => inD.has(edge.giverId));
  const back = around.filter((edge) => inD.has(edge.receiverId) && !inD.has(edge.giverId));
  const givesTo = new Set(out.map((edge) => edge.receiverId));
  const givesBack = new Set(back.map((edge) => edge.giverId));
  if (givesTo.size === 0 || givesBack.size === 0) return withoutExcluded(db, around, now);
  const backTwo = await graphEdges(db, sql`g.member_id = ANY(${ids(givesBack)}::uuid[])`, now);
  const reachBack = new Set([...givesBack, ...backTwo.map((edge) => edge.giverId)]);
  const middle = await graphEdges(
    db,
    sql`g.item_user_id = ANY(${ids(givesTo)}::uuid[]) AND g.member_id = ANY(${ids(reachBack)}::uuid[])`,
    now,
  );
  return withoutExcluded(db, [...around, ...backTwo, ...middle], now);
}

/**
 * The hand-overs a circle missing members could heal with (ADR 081), in one read: among the members
 * left (a shorter circle), and, when one member is missing between `gap.previous` and `gap.next`,
 * out of the previous one and into the next one (a replacement gets from the first and gives to the
 * second). Members waiting on a live proposal and hand-overs refused lately are left out, as for the
 * finder.
 */
export async function loadHealingEdges(
  db: Db,
  left: readonly string[],
  gap: { previous: string; next: string } | null,
  now: Date,
): Promise<CircleEdge[]> {
  const ids = uuidArray([...new Set(left)]);
  const among = sql`(g.item_user_id = ANY(${ids}::uuid[]) AND g.member_id = ANY(${ids}::uuid[]))`;
  const where = gap
    ? sql`(${among} OR g.item_user_id = ${gap.previous}::uuid OR g.member_id = ${gap.next}::uuid)`
    : among;
  return withoutExcluded(db, await graphEdges(db, where, now), now);
}
