/** The two numbers a member's reputation is read from (GET /api/users/:id/trade-stats). */
export interface ReputationStats {
  totalTrades: number;
  /** Average stars received, to one decimal; null when nobody has rated the member yet. */
  rating: number | null;
}

/**
 * docs/product.md: the Trusted Trader badge needs at least 3 completed trades, counted per trading
 * partner (issue 30, ADR 074: distinct members completed barters with, so the hand-overs of one swap
 * day or many barters with one neighbour are not several trades towards it)...
 */
export const TRUSTED_TRADER_MIN_TRADES = 3;
/** ...and an average rating of at least 4.5. */
export const TRUSTED_TRADER_MIN_RATING = 4.5;

/** What the badge is read from: distinct trading partners and the average of revealed ratings. */
export interface TrustedTraderStats {
  tradingPartners: number;
  rating: number | null;
}

/** Whether a member has earned the Trusted Trader badge. */
export function isTrustedTrader({ tradingPartners, rating }: TrustedTraderStats): boolean {
  return (
    tradingPartners >= TRUSTED_TRADER_MIN_TRADES && rating !== null && rating >= TRUSTED_TRADER_MIN_RATING
  );
}

/**
 * Ratings are revealed together (issue 30, ADR 074): a rating stays hidden from the member rated and
 * everyone else until both sides of the barter have rated, or this many days after the first rating.
 */
export const RATING_REVEAL_DAYS = 14;
export const RATING_REVEAL_MS = RATING_REVEAL_DAYS * 24 * 60 * 60 * 1000;

function tradeCount(totalTrades: number): string {
  return `${totalTrades} ${totalTrades === 1 ? 'trade' : 'trades'}`;
}

/**
 * The rating line of the spec ('5.0 (12 trades)'): the average to one decimal and the number of
 * completed trades; 'New trader' when there are none, 'Not rated yet (2 trades)' before any rating.
 */
export function formatTraderRating({ totalTrades, rating }: ReputationStats): string {
  if (totalTrades <= 0) return 'New trader';
  if (rating === null) return `Not rated yet (${tradeCount(totalTrades)})`;
  return `${rating.toFixed(1)} (${tradeCount(totalTrades)})`;
}
