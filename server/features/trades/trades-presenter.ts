import type { Trade, TradeStats } from '#common/schemas/trades.ts';
import type { TradeRow, TradeStatsRow, TradeUserRow } from './trades-repository';

/** One side of a trade; the e-mail only when that side is the member asking (docs/product.md). */
function presentSide(user: TradeUserRow | null, viewerId: string): Trade['fromUser'] {
  if (!user) return null;
  return {
    firstName: user.firstName,
    email: user.id === viewerId ? user.email : null,
    profileImageUrl: user.profileImageUrl,
  };
}

/** A trade as the history shows it to `viewerId`. A whitelist: no coordinates, no message. */
export function presentTrade(row: TradeRow, viewerId: string): Trade {
  return {
    id: row.id,
    fromUserId: row.fromUserId,
    toUserId: row.toUserId,
    fromUser: presentSide(row.fromUser, viewerId),
    toUser: presentSide(row.toUser, viewerId),
    fromItem: row.fromItem,
    toItem: row.toItem,
    fromItems: row.fromItems,
    toItems: row.toItems,
    swapDay: row.swapDay,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function presentTradeStats(row: TradeStatsRow): TradeStats {
  return {
    totalTrades: row.totalTrades,
    rating: row.averageRating,
    thisMonth: row.thisMonth,
    tradingPartners: row.tradingPartners,
    handOvers: { kept: row.handOversKept, due: row.handOversDue },
  };
}
