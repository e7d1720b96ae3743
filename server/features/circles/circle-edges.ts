import { type SQL, sql } from 'drizzle-orm';
import { uuidArray } from '../../db/arrays';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/rows';
import { listedItem } from '../feed/feed-sql';
import type { CircleEdge } from './circle-finder';

/** A hand-over refused by a decline or left unanswered is not proposed again for this long. */
export const REFUSED_DAYS = 30;

/**
 * Members in a live proposed circle: they are not offered another until it is settled (one circle
 * waiting for answers at a time).
 */
const busyMembers = (now: Date): SQL =>
  sql`(SELECT cm.member_id FROM circle_members cm JOIN circles c ON c.id = cm.circle_id
    WHERE c.status = 'proposed' AND c.expires_at > ${now.toISOString()}::timestamptz AND cm.member_id IS NOT NULL)`;

/**
 * Hand-overs (item, receiver) of recent circles that the member who declined, or a member who let
 * it expire without answering, gave or would have got.
 */
const refusedHandOvers = (now: Date): SQL =>
  sql`(SELECT giver.item_id, taker.member_id AS receiver_id
    FROM circles c
    JOIN circle_members giver ON giver.circle_id = c.id
    JOIN circle_members taker ON taker.circle_id = c.id AND taker.position = (giver.position + 1) % c.size
    WHERE c.status IN ('declined', 'expired') AND c.swap_day_id IS NULL
      AND c.closed_at > ${now.toISOString()}::timestamptz - make_interval(days => ${REFUSED_DAYS})
      AND EXISTS (SELECT 1 FROM circle_members m WHERE m.circle_id = c.id
        AND m.member_id IN (giver.member_id, taker.member_id)
        AND ((c.status = 'declined' AND m.member_id = c.closed_by_id)
          OR (c.status = 'expired' AND m.accepted_at IS NULL))))`;

/**
 * Members suspended or banned now. (As a hashed subquery, not a filter on the joined users: the
 * plan stays a hash join even where the table has no statistics yet, as on a new embedded database.)
 */
const barred = (at: SQL): SQL =>
  sql`(SELECT id FROM users WHERE banned_at IS NOT NULL OR suspended_until > ${at})`;

/**
 * Hand-overs members could make now, from the match graph (ADR 022): the giver's listed item
 * matches an active want of the receiver, both have a location and the distance between them is
 * within both members' travel distance, neither hides from the other, neither is suspended or
 * banned, neither waits on another circle, and the pair was not refused lately. `where` narrows
 * the rows (by giver or receiver); none: every hand-over.
 */
export async function loadCircleEdges(db: Db, where: SQL | null, now: Date): Promise<CircleEdge[]> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const rows = await queryRows<{
    giver: string;
    receiver: string;
    item_id: number;
    want_id: number;
    score: number;
    value: number | null;
  }>(
    db,
    sql`SELECT g.item_user_id::text AS giver, g.member_id::text AS receiver, g.item_id, g.want_id,
        g.score, i.estimated_value::float8 AS value
      FROM match_graph g
      JOIN items i ON i.id = g.item_id
      JOIN wants w ON w.id = g.want_id
      JOIN users r ON r.id = g.member_id
      JOIN users o ON o.id = g.item_user_id
      WHERE ${where ?? sql`TRUE`}
        AND ${listedItem('i')} AND w.is_active
        AND g.distance IS NOT NULL AND g.distance <= least(r.max_travel_distance, o.max_travel_distance)
        AND g.member_id NOT IN ${barred(at)} AND g.item_user_id NOT IN ${barred(at)}
        AND NOT EXISTS (SELECT 1 FROM member_blocks b
          WHERE (b.blocker_id = g.member_id AND b.blocked_id = g.item_user_id)
             OR (b.blocker_id = g.item_user_id AND b.blocked_id = g.member_id))
        AND g.member_id NOT IN ${busyMembers(now)}
        AND g.item_user_id NOT IN ${busyMembers(now)}
        AND (g.item_id, g.member_id) NOT IN ${refusedHandOvers(now)}`,
  );
  return rows.map((row) => ({
    giverId: row.giver,
    receiverId: row.receiver,
    itemId: Number(row.item_id),
    wantId: Number(row.want_id),
    score: Number(row.score),
    value: row.value === null ? null : Number(row.value),
  }));
}

/**
 * The hand-overs of every circle of at most 4 members through `members`: what they give, what the
 * receivers give on, twice more, and what comes back to them (four indexed reads, each from the
 * members the step before reached).
 */
export async function loadEdgesAround(db: Db, members: readonly string[], now: Date): Promise<CircleEdge[]> {
  const edges: CircleEdge[] = [];
  const seen = new Set<string>();
  let frontier = [...new Set(members)];
  for (let hop = 0; hop < 3 && frontier.length > 0; hop++) {
    for (const id of frontier) seen.add(id);
    const step = await loadCircleEdges(db, sql`g.item_user_id = ANY(${uuidArray(frontier)}::uuid[])`, now);
    edges.push(...step);
    frontier = [...new Set(step.map((edge) => edge.receiverId))].filter((id) => !seen.has(id));
  }
  if (frontier.length > 0) {
    edges.push(
      ...(await loadCircleEdges(
        db,
        sql`g.item_user_id = ANY(${uuidArray(frontier)}::uuid[]) AND g.member_id = ANY(${uuidArray(members)}::uuid[])`,
        now,
      )),
    );
  }
  return edges;
}
