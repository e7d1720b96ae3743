import { and, asc, count, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { barterRequestItems, barterRequests, circles, ratings, swapDays } from '../../db/schema/trading';
import { users } from '../../db/schema/users';
import { handOverRecordColumns } from './hand-over-record';

/** Only completed barter requests are trades (spec section 4). */
export const COMPLETED = 'completed';

const fromUser = alias(users, 'from_user');
const toUser = alias(users, 'to_user');

/** Completed requests the member took part in, on either side (served by the two user indexes). */
function completedFor(userId: string | SQL): SQL {
  return and(
    eq(barterRequests.status, COMPLETED),
    or(eq(barterRequests.fromUserId, userId), eq(barterRequests.toUserId, userId)),
  ) as SQL;
}

/** A completed request with both members and both items, as one row. */
export interface TradeRow {
  id: number;
  fromUserId: string | null;
  toUserId: string | null;
  status: string;
  createdAt: Date;
  updatedAt: Date;
  fromUser: TradeUserRow | null;
  toUser: TradeUserRow | null;
  /** The first item of each side; null when that side listed none. */
  fromItem: TradeItemRow | null;
  toItem: TradeItemRow | null;
  /** Every item of each side, in the order proposed. */
  fromItems: TradeItemRow[];
  toItems: TradeItemRow[];
  /** The swap day whose hand-over this was (issue 30: "Given at <swap day>"), or null. */
  swapDay: { id: number; name: string } | null;
}
export interface TradeUserRow {
  id: string;
  firstName: string | null;
  email: string | null;
  profileImageUrl: string | null;
}
export interface TradeItemRow {
  title: string;
  category: string;
}

/**
 * The member's completed trades, newest first (by last update, then id), with both members joined,
 * then the items of both sides of the page in a second query: the titles and categories as they
 * were proposed (barter_request_items), so the history still reads right after an item is edited
 * or deleted.
 */
export async function findCompletedTrades(db: Db, userId: string, limit: number): Promise<TradeRow[]> {
  const rows = await db
    .select({
      id: barterRequests.id,
      fromUserId: barterRequests.fromUserId,
      toUserId: barterRequests.toUserId,
      status: barterRequests.status,
      createdAt: barterRequests.createdAt,
      updatedAt: barterRequests.updatedAt,
      fromUserRowId: fromUser.id,
      fromUserFirstName: fromUser.firstName,
      fromUserEmail: fromUser.email,
      fromUserImage: fromUser.profileImageUrl,
      toUserRowId: toUser.id,
      toUserFirstName: toUser.firstName,
      toUserEmail: toUser.email,
      toUserImage: toUser.profileImageUrl,
      swapDayId: swapDays.id,
      swapDayName: swapDays.name,
    })
    .from(barterRequests)
    .leftJoin(fromUser, eq(fromUser.id, barterRequests.fromUserId))
    .leftJoin(toUser, eq(toUser.id, barterRequests.toUserId))
    .leftJoin(circles, eq(circles.id, barterRequests.circleId))
    .leftJoin(swapDays, eq(swapDays.id, circles.swapDayId))
    .where(completedFor(userId))
    .orderBy(desc(barterRequests.updatedAt), desc(barterRequests.id))
    .limit(limit);
  const sides = await findTradeItems(
    db,
    rows.map((row) => row.id),
  );

  return rows.map((row) => ({
    id: row.id,
    fromUserId: row.fromUserId,
    toUserId: row.toUserId,
    status: row.status,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    fromUser:
      row.fromUserRowId === null
        ? null
        : {
            id: row.fromUserRowId,
            firstName: row.fromUserFirstName,
            email: row.fromUserEmail,
            profileImageUrl: row.fromUserImage,
          },
    toUser:
      row.toUserRowId === null
        ? null
        : {
            id: row.toUserRowId,
            firstName: row.toUserFirstName,
            email: row.toUserEmail,
            profileImageUrl: row.toUserImage,
          },
    fromItem: sides.get(`${row.id}:from`)?.[0] ?? null,
    toItem: sides.get(`${row.id}:to`)?.[0] ?? null,
    fromItems: sides.get(`${row.id}:from`) ?? [],
    toItems: sides.get(`${row.id}:to`) ?? [],
    swapDay:
      row.swapDayId !== null && row.swapDayName !== null
        ? { id: row.swapDayId, name: row.swapDayName }
        : null,
  }));
}

/** The proposed items of these requests, by `${requestId}:${side}`, in position order. */
async function findTradeItems(db: Db, requestIds: number[]): Promise<Map<string, TradeItemRow[]>> {
  const bySide = new Map<string, TradeItemRow[]>();
  if (requestIds.length === 0) return bySide;
  const rows = await db
    .select({
      requestId: barterRequestItems.barterRequestId,
      side: barterRequestItems.side,
      title: barterRequestItems.title,
      category: barterRequestItems.category,
    })
    .from(barterRequestItems)
    .where(inArray(barterRequestItems.barterRequestId, requestIds))
    .orderBy(
      asc(barterRequestItems.barterRequestId),
      asc(barterRequestItems.side),
      asc(barterRequestItems.position),
    );
  for (const row of rows) {
    const key = `${row.requestId}:${row.side}`;
    const item = { title: row.title, category: row.category };
    const list = bySide.get(key);
    if (list) list.push(item);
    else bySide.set(key, [item]);
  }
  return bySide;
}

/**
 * Average stars the member received, rounded to one decimal in SQL (null when none); removed ratings
 * left out, and ratings not revealed yet at `now` (issue 30, ADR 074).
 */
const averageRatingOf = (userId: string | SQL, now: Date) =>
  sql<string | null>`(SELECT round(avg(${ratings.stars}), 1) FROM ${ratings}
    WHERE ${ratings.rateeId} = ${userId} AND ${ratings.removedAt} IS NULL
      AND ${ratings.revealedAt} <= ${now.toISOString()}::timestamptz)`;

/**
 * The distinct members `userId` completed a barter with (ADR 074); each barter with a member whose
 * account is gone counts on its own.
 */
const tradingPartnersOf = (userId: string) =>
  sql<number>`count(DISTINCT coalesce(
    (CASE WHEN ${barterRequests.fromUserId} = ${userId} THEN ${barterRequests.toUserId} ELSE ${barterRequests.fromUserId} END)::text,
    'gone:' || ${barterRequests.id}::text))`.mapWith(Number);

export interface TradeStatsRow {
  totalTrades: number;
  thisMonth: number;
  averageRating: number | null;
  tradingPartners: number;
  handOversKept: number;
  handOversDue: number;
}

/**
 * Completed trades in all, those last updated within [monthStart, nextMonthStart), the distinct
 * trading partners and the average rating received (revealed by `now`), in one query.
 */
export async function findTradeStats(
  db: Db,
  userId: string,
  monthStart: Date,
  nextMonthStart: Date,
  now: Date,
): Promise<TradeStatsRow> {
  const [row] = await db
    .select({
      totalTrades: count(),
      thisMonth:
        sql<number>`count(*) FILTER (WHERE ${barterRequests.updatedAt} >= ${monthStart.toISOString()}::timestamptz AND ${barterRequests.updatedAt} < ${nextMonthStart.toISOString()}::timestamptz)`.mapWith(
          Number,
        ),
      averageRating: averageRatingOf(userId, now),
      tradingPartners: tradingPartnersOf(userId),
      handOversKept: handOverRecordColumns(sql`${userId}::uuid`, now).kept,
      handOversDue: handOverRecordColumns(sql`${userId}::uuid`, now).due,
    })
    .from(barterRequests)
    .where(completedFor(userId));
  return {
    totalTrades: row?.totalTrades ?? 0,
    thisMonth: row?.thisMonth ?? 0,
    averageRating: row?.averageRating == null ? null : Number(row.averageRating),
    tradingPartners: row?.tradingPartners ?? 0,
    handOversKept: Number(row?.handOversKept ?? 0),
    handOversDue: Number(row?.handOversDue ?? 0),
  };
}

/** What a feed card says about an item's owner: '4.9 (23 trades)', or 'New trader'. */
export interface TraderSummary {
  /** Average stars received, to one decimal; null when nobody has rated the member yet. */
  averageRating: number | null;
  completedTrades: number;
  /** "Kept N of M hand-overs" over the last 12 months (ADR 079). */
  handOvers: { kept: number; due: number };
}

/**
 * A member's rating summary as two scalar subqueries on the member id `userId` (an SQL expression),
 * for statements that show owners: the average stars received to one decimal (numeric, NULL when
 * nobody has rated them; ratings revealed by `now` only, ADR 074) and the completed trades (bigint).
 */
export function traderSummaryColumns(
  userId: SQL,
  now: Date = new Date(),
): {
  averageRating: SQL<string | null>;
  completedTrades: SQL<number>;
  handOversKept: SQL<number>;
  handOversDue: SQL<number>;
} {
  const record = handOverRecordColumns(userId, now);
  return {
    averageRating: averageRatingOf(userId, now),
    handOversKept: record.kept,
    handOversDue: record.due,
    completedTrades: sql<number>`(SELECT count(*) FROM ${barterRequests} WHERE ${completedFor(userId)})`,
  };
}
