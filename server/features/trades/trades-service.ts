import type { TradeStats } from '#common/schemas/trades.ts';
import type { Db } from '../../db/client';
import { presentTradeStats } from './trades-presenter';
import { findTradeStats } from './trades-repository';

/** [start of this calendar month, start of the next) in UTC. */
export function currentMonthUtc(now: Date = new Date()): [Date, Date] {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  return [new Date(Date.UTC(year, month, 1)), new Date(Date.UTC(year, month + 1, 1))];
}

/**
 * A member's trade record: completed trades, the average rating they received and their trades this
 * calendar month (UTC); the member page and GET /api/users/:id/trade-stats show it.
 */
export async function tradeStatsOf(db: Db, userId: string): Promise<TradeStats> {
  const now = new Date();
  const [monthStart, nextMonthStart] = currentMonthUtc(now);
  return presentTradeStats(await findTradeStats(db, userId, monthStart, nextMonthStart, now));
}
