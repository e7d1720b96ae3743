/**
 * The trade solver off the main thread (issue 27, ADR 048): the same answer as `solveTrades`,
 * computed in the server's worker pool, so the event loop stays free while HiGHS works.
 */
import { runInPool } from '#server/workers/pool.ts';
import type { TradeGraph, TradeSolution } from './graph';
import type { SolveOptions } from './solver';

/** Room past the solver's own time limit (building the model, loading HiGHS in a fresh thread). */
export const SOLVE_TIMEOUT_MARGIN_MS = 30_000;
/** The pool's limit for a solve with no time limit of its own. */
export const UNLIMITED_SOLVE_TIMEOUT_MS = 10 * 60_000;

/**
 * `solveTrades` in a worker thread. Errors are the solver's (message kept; `TooManyLoopsError`
 * arrives as an Error), or a WorkerPoolError when the thread died or the solve ran far past its
 * own time limit.
 */
export function solveTradesOffThread(graph: TradeGraph, options: SolveOptions = {}): Promise<TradeSolution> {
  const timeoutMs =
    options.timeLimitSeconds === undefined
      ? UNLIMITED_SOLVE_TIMEOUT_MS
      : options.timeLimitSeconds * 1000 + SOLVE_TIMEOUT_MARGIN_MS;
  return runInPool('solveTrades', { graph, options }, { timeoutMs });
}
