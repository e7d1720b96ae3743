import { z } from 'zod';
import { handOverRecordSchema } from './no-shows';
import { wholeNumberParam } from './numbers';

/** Default and largest number of trades GET /api/users/:id/trades returns. */
export const TRADES_DEFAULT_LIMIT = 50;
export const TRADES_MAX_LIMIT = 100;

/**
 * One side of a trade. `email` is the member's own address only when that side is the signed-in
 * member asking; for anyone else it is null (docs/product.md: another member's e-mail never leaves).
 */
export const tradeUserSchema = z.object({
  firstName: z.string().nullable(),
  email: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
});

export const tradeItemSchema = z.object({
  title: z.string(),
  category: z.string(),
});

/** A completed barter request as the trade history shows it (spec section 3, Trade). */
export const tradeSchema = z.object({
  id: z.number().int(),
  fromUserId: z.string().nullable(),
  toUserId: z.string().nullable(),
  /** Null when that member's account was deleted: the history shows 'User'. */
  fromUser: tradeUserSchema.nullable(),
  toUser: tradeUserSchema.nullable(),
  /** Null when the item was deleted, or for a side that offered nothing listed. */
  fromItem: tradeItemSchema.nullable(),
  toItem: tradeItemSchema.nullable(),
  /** Every item of each side as proposed (issue 13: a barter may trade several); fromItem/toItem are the first. */
  fromItems: z.array(tradeItemSchema).optional(),
  toItems: z.array(tradeItemSchema).optional(),
  /** A swap day's hand-over (issue 30): the history reads "Given at <swap day>" / "Received at <swap day>". */
  swapDay: z.object({ id: z.number().int(), name: z.string() }).nullable().optional(),
  status: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export type Trade = z.infer<typeof tradeSchema>;

/** GET /api/users/:id/trades: completed trades, newest first. */
export const tradeListSchema = z.array(tradeSchema);

export const tradeListQuerySchema = z.object({
  limit: wholeNumberParam('limit', 1, TRADES_MAX_LIMIT).default(TRADES_DEFAULT_LIMIT),
});

/**
 * GET /api/users/:id/trade-stats (spec section 3): completed trades, the average of the stars the
 * member received to one decimal (null when none; only revealed ratings, ADR 074), and completed
 * trades this calendar month (UTC).
 */
export const tradeStatsSchema = z.object({
  totalTrades: z.number().int().nonnegative(),
  rating: z.number().nullable(),
  thisMonth: z.number().int().nonnegative(),
  /**
   * Distinct members the member completed a barter with (issue 30, ADR 074): what the Trusted Trader
   * badge counts, so one swap day or many barters with one neighbour are not several trades towards it.
   */
  tradingPartners: z.number().int().nonnegative(),
  /** "Kept N of M hand-overs" over the last 12 months (ADR 079); hidden while `due` is 0. */
  handOvers: handOverRecordSchema,
});

export type TradeStats = z.infer<typeof tradeStatsSchema>;
