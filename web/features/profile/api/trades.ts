import { queryOptions, useQuery } from '@tanstack/react-query';
import { TRADE_HISTORY_RECENT } from '#common/constants.ts';
import type { Trade, TradeStats } from '#common/schemas/trades.ts';
import { apiGet } from '#web/lib/api-client.ts';
import { tradeKeys } from '#web/lib/query-keys.ts';

/** GET /api/users/:id/trades?limit=: the member's completed trades, newest first. */
export async function getTrades(userId: string, limit: number): Promise<Trade[]> {
  const url = `/api/users/${encodeURIComponent(userId)}/trades?limit=${limit}`;
  return (await apiGet<Trade[]>(url)) ?? [];
}

/** GET /api/users/:id/trade-stats: total completed trades, average rating (or null), this month. */
export async function getTradeStats(userId: string): Promise<TradeStats> {
  const stats = await apiGet<TradeStats>(`/api/users/${encodeURIComponent(userId)}/trade-stats`);
  if (!stats) throw new Error('No trade stats');
  return stats;
}

/** The most recent completed trades of a member (5 by default, as the Trade History tab shows). */
export const tradesQuery = (userId: string, limit: number = TRADE_HISTORY_RECENT) =>
  queryOptions({
    queryKey: tradeKeys.list(userId, limit),
    queryFn: () => getTrades(userId, limit),
  });

export const tradeStatsQuery = (userId: string) =>
  queryOptions({
    queryKey: tradeKeys.stats(userId),
    queryFn: () => getTradeStats(userId),
  });

export function useTrades(userId: string, limit: number = TRADE_HISTORY_RECENT) {
  return useQuery(tradesQuery(userId, limit));
}

export function useTradeStats(userId: string) {
  return useQuery(tradeStatsQuery(userId));
}
