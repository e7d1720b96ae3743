import { sql } from 'drizzle-orm';
import { intArray, uuidArray } from '../../db/arrays';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/rows';
import { handOverRecordColumns } from '../trades';
import type { CircleEdge } from './circle-finder';

/**
 * How likely a circle is to complete (issue 30, ADR 081): each hand-over happens when its giver
 * keeps their word and the way between the two is short enough to make. The finder adds
 * -ln(likelihood) of every hand-over to a circle's cost, so among circles of as many members (and as
 * many circles) the more likely ones win; how long the receiver has waited for what they get takes a
 * little off. Members first, then circles, stay as they were: the swap day's and math trades' optima
 * do not use this (they solve with the engine directly).
 */

/** A member's hand-over record over the last 12 months: hand-overs kept of those agreed. */
export interface HandOverRecord {
  kept: number;
  agreed: number;
}

/** Where records come from: members' ids in, a record for each (missing: none yet). */
export type HandOverRecords = (
  db: Db,
  memberIds: readonly string[],
  now: Date,
) => Promise<Map<string, HandOverRecord>>;

/**
 * The hand-over record the members' pages and cards show ("Kept 19 of 20 hand-overs", ADR 079, the
 * trades feature's `handOverRecordColumns`): completed barters and answered no-show reports kept,
 * reports decided missed or left unanswered not, over the last 12 months. One read for all members.
 */
export const recordsOfHandOvers: HandOverRecords = async (db, memberIds, now) => {
  const records = new Map<string, HandOverRecord>();
  if (memberIds.length === 0) return records;
  const { kept, due } = handOverRecordColumns(sql`m.id`, now);
  const rows = await queryRows<{ member_id: string; kept: number; agreed: number }>(
    db,
    sql`SELECT m.id::text AS member_id, ${kept} AS kept, ${due} AS agreed
      FROM unnest(${uuidArray([...new Set(memberIds)])}::uuid[]) AS m(id)`,
  );
  for (const row of rows) records.set(row.member_id, { kept: Number(row.kept), agreed: Number(row.agreed) });
  return records;
};

/**
 * How likely a member keeps a hand-over: their record with four kept of five added (a newcomer
 * starts at 0.8, "kept 19 of 20" is 0.92, "kept 0 of 1" 0.67), so one record does not decide alone.
 */
export function keepsWord(record: HandOverRecord | undefined): number {
  const kept = record?.kept ?? 0;
  const agreed = record?.agreed ?? 0;
  return (kept + 4) / (agreed + 5);
}

/** Miles at which a hand-over's way halves its likelihood (1 / (1 + miles / this)). */
export const DISTANCE_HALF_MILES = 25;
/** The likelihood of one hand-over: the giver keeps their word, the way is short. */
export function handOverLikelihood(record: HandOverRecord | undefined, miles: number | null): number {
  const way = miles === null ? 1 : 1 / (1 + Math.max(0, miles) / DISTANCE_HALF_MILES);
  return keepsWord(record) * way;
}

/**
 * Weigh hand-overs before the finder chooses (two reads: the givers' records, the receivers' wants'
 * ages): each edge gets its likelihood and how many days its want has waited.
 */
export async function weighEdges(
  db: Db,
  edges: CircleEdge[],
  now: Date,
  records: HandOverRecords = recordsOfHandOvers,
): Promise<CircleEdge[]> {
  if (edges.length === 0) return edges;
  const byMember = await records(db, [...new Set(edges.map((edge) => edge.giverId))], now);
  const wantIds = [...new Set(edges.map((edge) => edge.wantId))];
  const wants = await queryRows<{ id: number; created_at: string | Date }>(
    db,
    sql`SELECT id, created_at FROM wants WHERE id = ANY(${intArray(wantIds)}::int[])`,
  );
  const since = new Map(wants.map((want) => [Number(want.id), new Date(want.created_at).getTime()]));
  return edges.map((edge) => {
    const created = since.get(edge.wantId);
    return {
      ...edge,
      likelihood: handOverLikelihood(byMember.get(edge.giverId), edge.miles ?? null),
      waitingDays: created === undefined ? 0 : Math.max(0, (now.getTime() - created) / 86_400_000),
    };
  });
}
