/**
 * The trade solver off the main thread (issue 27): the same answer as `solveTrades`, computed in the
 * server's worker pool. PLACEHOLDER until the worker pool lands: it still runs on this thread.
 */
import type { TradeGraph, TradeSolution } from './graph';
import { type SolveOptions, solveTrades } from './solver';

/** `solveTrades` in a worker thread: the event loop stays free while HiGHS works. */
export function solveTradesOffThread(graph: TradeGraph, options: SolveOptions = {}): Promise<TradeSolution> {
  return solveTrades(graph, options);
}
