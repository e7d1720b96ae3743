/** Trades: completed barters as a member's record (their trades and stats). */

export { handOverRecordColumns } from './hand-over-record';
export type { TraderSummary } from './trades-repository';
export { traderSummaryColumns } from './trades-repository';
export { tradesRoutes } from './trades-routes';
export { tradeStatsOf } from './trades-service';
