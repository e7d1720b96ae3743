import { EventEmitter } from 'node:events';
import type { FastifyInstance } from 'fastify';
import type { SwapDayMatchFailure, SwapDayMatchStage } from '#common/schemas/swap-days.ts';
import type { Db } from '../../db/client';
import { isDatabaseUnavailable } from '../../errors';
import { publishMemberEvents } from '../../events/publish';
import { writeHandOvers } from '../barters';
import { type SolveOptions, solveTradesOffThread, type TradeGraph, type TradeSolution } from '../circles';
import { freeToGive } from '../items';
import { type NotifyInput, notifyMembers } from '../notifications';
import {
  findHiddenPairs,
  findJoinedOffers,
  findMatching,
  findMemberIds,
  findOfferedItems,
  findWants,
  insertLoops,
  lockSwapDay,
  pairKey,
  type SolveItemRow,
  updateMatchStage,
  updateSwapDay,
} from './swap-days-repository';
import { closeDueSwapDays, swapDayEvents } from './swap-days-service';

/**
 * Matching a swap day as a job (ADR 050, after ADR 030): closing want lists only marks the swap day
 * 'matching' and asks this queue for a run; the run reads a snapshot in a short read, solves off the
 * main thread with no transaction open, and stores the result in one short transaction that drops
 * every loop an item of which changed meanwhile. One run at a time across processes (stately), and
 * a swap day left 'matching' by a process that died is matched by the next run.
 */
export const SWAP_DAY_MATCH_QUEUE = 'swap-day-match';

/** How a match ended: stored, failed (with a reason the organizer sees), or not ours any more. */
export type MatchOutcome = 'solved' | 'failed' | 'skipped';

/**
 * In this process, 'settled' (swapDayId, outcome) once a run is done with a swap day: what tests
 * await instead of sleeping (the swap-day test kit's `settled`).
 */
export const swapDayMatchEvents = new EventEmitter();
swapDayMatchEvents.setMaxListeners(0);

/** The solver the job calls: the engine off the main thread. A test may wrap it and put it back. */
export const swapDaySolver: {
  solve: (graph: TradeGraph, options: SolveOptions) => Promise<TradeSolution>;
} = { solve: solveTradesOffThread };

const EMPTY: TradeSolution = { loops: [], itemsTraded: 0, membersTrading: 0, cost: 0 };

/** A solve that failed, and whether it was its time limit that ended it. */
export class MatchSolveError extends Error {
  constructor(
    readonly failure: SwapDayMatchFailure,
    options: { cause: unknown },
  ) {
    super(`the swap day could not be solved (${failure})`, options);
  }
}

/**
 * The engine's answer for a swap day (ADR 030) within `totalSeconds`: loops of any length, the most
 * items, then the most members, then the best-ranked choices, given two thirds of the time. Should
 * that stage run out of time (or fail), the most items and best choices alone (a plain LP, fast at
 * any size the limits allow) get the rest, so a long solve still ends with a usable result.
 */
export async function solveSwapDay(graph: TradeGraph, totalSeconds: number): Promise<TradeSolution> {
  if (graph.wants.length === 0) return EMPTY;
  const started = performance.now();
  const membersStage = Math.max(1, Math.floor((totalSeconds * 2) / 3));
  try {
    return await swapDaySolver.solve(graph, { metric: 'items-users', timeLimitSeconds: membersStage });
  } catch {
    const spent = (performance.now() - started) / 1000;
    const left = Math.max(1, Math.ceil(totalSeconds - spent));
    try {
      return await swapDaySolver.solve(graph, { metric: 'items', timeLimitSeconds: left });
    } catch (error) {
      const timedOut = (performance.now() - started) / 1000 >= totalSeconds;
      throw new MatchSolveError(timedOut ? 'time-limit' : 'error', { cause: error });
    }
  }
}

/** An offer as the graph holds it: its member and item (as read at the snapshot). */
interface Offer {
  memberId: string;
  item: SolveItemRow;
}

/**
 * What the solver works on, read in one short transaction: the offers of members still joined whose
 * items are still theirs, active and unreserved, and the rankings between them (cost = rank,
 * TradeMaximizer's linear priorities; none between members who block each other). Nothing locked:
 * the store checks every loop again.
 */
async function readSnapshot(db: Db, swapDayId: number): Promise<{ offers: Offer[]; graph: TradeGraph }> {
  return db.transaction(async (tx) => {
    const joined = await findJoinedOffers(tx, swapDayId);
    const rows = new Map(
      (
        await findOfferedItems(
          tx,
          joined.map((offer) => offer.itemId),
          false,
        )
      ).map((item) => [item.id, item]),
    );
    const offers = joined.flatMap((offer) => {
      const item = rows.get(offer.itemId);
      return freeToGive(item, offer.memberId) ? [{ memberId: offer.memberId, item }] : [];
    });
    const indexOf = new Map(offers.map((offer, index) => [offer.item.id, index]));
    const hiddenPairs = await findHiddenPairs(tx, [...new Set(offers.map((offer) => offer.memberId))]);
    const graph: TradeGraph = {
      items: offers.map((offer) => ({ name: String(offer.item.id), owner: offer.memberId, dummy: false })),
      wants: (await findWants(tx, swapDayId)).flatMap((want) => {
        const from = indexOf.get(want.offerItemId);
        const to = indexOf.get(want.wantedItemId);
        if (from === undefined || to === undefined) return [];
        const giver = offers[to]?.memberId as string;
        const receiver = offers[from]?.memberId as string;
        if (giver === receiver || hiddenPairs.has(pairKey(giver, receiver))) return [];
        return [{ from, to, cost: want.rank }];
      }),
    };
    return { offers, graph };
  });
}

/** An item that can still trade for its offerer: theirs, active, not reserved. */

/**
 * Store a solution in one short transaction: the swap day locked (still 'matching', else nothing is
 * stored: another run got there first), the loops' items locked in id order; every loop with an item
 * no longer its member's, inactive or reserved, a member who left, or a block between a giver and
 * their receiver is dropped, the rest written as accepted circles whose hand-overs are accepted
 * barters. Trading members are notified (their first hand-over), every member's page told. False
 * when the swap day was no longer matching.
 */
async function storeSolution(
  db: Db,
  swapDayId: number,
  offers: readonly Offer[],
  solution: TradeSolution,
  now: Date,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const row = await lockSwapDay(tx, swapDayId, 'no key update');
    if (row?.status !== 'matching') return false;
    // The engine's loop: each item's owner receives the next item. A circle's member at a position
    // gives to the member at the next one: the same loop read backwards.
    const loops = solution.loops.map((loop) => [...loop].reverse().map((index) => offers[index] as Offer));
    const itemIds = [...new Set(loops.flat().map((step) => step.item.id))].sort((a, b) => a - b);
    const items = new Map((await findOfferedItems(tx, itemIds, true)).map((item) => [item.id, item]));
    const joined = new Set(
      (await findJoinedOffers(tx, swapDayId)).map((offer) => `${offer.itemId} ${offer.memberId}`),
    );
    const hidden = await findHiddenPairs(tx, [...new Set(loops.flat().map((step) => step.memberId))]);
    const kept = loops.flatMap((steps) => {
      const fresh = steps.map((step) => ({ memberId: step.memberId, item: items.get(step.item.id) }));
      const whole = fresh.every(
        (step, position) =>
          step.item !== undefined &&
          joined.has(`${step.item.id} ${step.memberId}`) &&
          freeToGive(step.item, step.memberId) &&
          !hidden.has(pairKey(step.memberId, (fresh[(position + 1) % fresh.length] as Offer).memberId)),
      );
      return whole ? [fresh as Offer[]] : [];
    });
    // Set-wise (ADR 056): the circles, the hand-overs and the notices of the whole solution in a
    // handful of statements, whatever the number of loops and hand-overs.
    const circleIds = await insertLoops(tx, swapDayId, kept, now);
    const written = await writeHandOvers(
      tx,
      kept.map((steps, loop) => ({
        circleId: circleIds[loop] as number,
        steps: steps.map((step, position) => ({
          giverId: step.memberId,
          receiverId: (steps[(position + 1) % steps.length] as Offer).memberId,
          itemId: step.item.id,
        })),
      })),
      { sharedThread: false, now },
    );
    // Each trading member once, about their first hand-over (loops in the solver's order).
    const notified = new Map<string, NotifyInput>();
    for (const [loop, steps] of kept.entries()) {
      for (const [position, step] of steps.entries()) {
        if (notified.has(step.memberId)) continue;
        notified.set(step.memberId, {
          userId: step.memberId,
          kind: 'swap_day_solved',
          barterRequestId: written.loops[loop]?.barterIds[position] ?? null,
          circleId: circleIds[loop] as number,
          actorId: null,
        });
      }
    }
    await notifyMembers(tx, [...written.notices, ...notified.values()]);
    await updateSwapDay(tx, swapDayId, {
      status: 'solved',
      solvedAt: now,
      itemsTraded: kept.reduce((sum, steps) => sum + steps.length, 0),
      membersTrading: notified.size,
      matchStage: null,
      matchFailure: null,
    });
    await publishMemberEvents(tx, [
      ...written.events,
      ...swapDayEvents(await findMemberIds(tx, swapDayId), swapDayId),
    ]);
    return true;
  });
}

/** Move a matching swap day to its next stage and tell its members' pages; false when it is not matching. */
async function enterStage(db: Db, swapDayId: number, stage: SwapDayMatchStage): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await updateMatchStage(tx, swapDayId, stage))) return false;
    await publishMemberEvents(tx, swapDayEvents(await findMemberIds(tx, swapDayId), swapDayId));
    return true;
  });
}

/** A match that cannot be made: 'failed' with its reason (the organizer may retry or cancel). */
async function markFailed(db: Db, swapDayId: number, failure: SwapDayMatchFailure): Promise<boolean> {
  return db.transaction(async (tx) => {
    const row = await lockSwapDay(tx, swapDayId, 'no key update');
    if (row?.status !== 'matching') return false;
    await updateSwapDay(tx, swapDayId, { status: 'failed', matchStage: null, matchFailure: failure });
    await publishMemberEvents(tx, swapDayEvents(await findMemberIds(tx, swapDayId), swapDayId));
    return true;
  });
}

/**
 * Match one swap day that is 'matching': gathering (the snapshot), solving (off the main thread, no
 * transaction open), saving (one short transaction); each stage is stored and told to the members'
 * pages. A solve or store that fails for any reason but the database leaves the swap day 'failed'
 * with its reason; the database gone leaves it 'matching' and throws (the job is retried).
 */
export async function matchSwapDay(
  db: Db,
  swapDayId: number,
  options: { totalSeconds: number; log?: FastifyInstance['log'] },
): Promise<MatchOutcome> {
  const failWith = async (failure: SwapDayMatchFailure, error: unknown): Promise<MatchOutcome> => {
    if (isDatabaseUnavailable(error)) throw error;
    options.log?.error({ err: error, swapDayId, failure }, 'matching a swap day failed');
    return (await markFailed(db, swapDayId, failure)) ? 'failed' : 'skipped';
  };
  if (!(await enterStage(db, swapDayId, 'gathering'))) return 'skipped';
  let snapshot: Awaited<ReturnType<typeof readSnapshot>>;
  try {
    snapshot = await readSnapshot(db, swapDayId);
  } catch (error) {
    return failWith('error', error);
  }
  if (!(await enterStage(db, swapDayId, 'solving'))) return 'skipped';
  let solution: TradeSolution;
  try {
    solution = await solveSwapDay(snapshot.graph, options.totalSeconds);
  } catch (error) {
    return failWith(error instanceof MatchSolveError ? error.failure : 'error', error);
  }
  if (!(await enterStage(db, swapDayId, 'saving'))) return 'skipped';
  try {
    return (await storeSolution(db, swapDayId, snapshot.offers, solution, new Date())) ? 'solved' : 'skipped';
  } catch (error) {
    return failWith('error', error);
  }
}

/** Swap days read per batch by a run. */
const RUN_BATCH = 20;

/**
 * The job: match every swap day that is 'matching', oldest first, one after another. Each one done
 * is announced on swapDayMatchEvents. How many were solved.
 */
export async function matchWaitingSwapDays(
  db: Db,
  options: { totalSeconds: number; log?: FastifyInstance['log'] },
): Promise<number> {
  let solved = 0;
  let after = 0;
  for (;;) {
    const ids = await findMatching(db, after, RUN_BATCH);
    if (ids.length === 0) return solved;
    for (const id of ids) {
      after = id;
      const outcome = await matchSwapDay(db, id, options);
      if (outcome === 'solved') solved++;
      swapDayMatchEvents.emit('settled', id, outcome);
    }
  }
}

/** Ask the job queue for a run (after a close; at start, for swap days a stopped process left). */
export function askForMatch(app: FastifyInstance): void {
  app.jobs.send(SWAP_DAY_MATCH_QUEUE, {}).catch((error: unknown) => {
    app.log.warn({ err: error }, 'could not ask for a swap day match; the next sweep will');
  });
}

/**
 * The deadline sweep's part (on the barter sweep's beat, ADR 030): hand due swap days to the match
 * job, then ask for a run whenever any swap day is waiting (also one a process left behind). Never
 * solves. How many were closed.
 */
export async function sweepSwapDays(app: FastifyInstance, now = new Date()): Promise<number> {
  const closed = await closeDueSwapDays(app.db, now);
  if (closed > 0 || (await findMatching(app.db, 0, 1)).length > 0) askForMatch(app);
  return closed;
}

/**
 * The match job (ADR 050): one run at a time across processes (stately), retried with backoff while
 * the database is away; a run left active by a process that died expires after twice the time limit
 * and runs again. At start a run is asked for, so a swap day left 'matching' is matched.
 */
export function swapDaysPlugin(app: FastifyInstance): void {
  const totalSeconds = app.config.swapDayMatchSeconds;
  let closing = false;
  const setUp = async () => {
    const { jobs } = app;
    await jobs.started();
    if (closing) return;
    await jobs.createQueue(SWAP_DAY_MATCH_QUEUE, {
      policy: 'stately',
      retryLimit: 10,
      retryDelay: 2,
      retryBackoff: true,
      expireInSeconds: totalSeconds * 2 + 120,
    });
    await jobs.work(SWAP_DAY_MATCH_QUEUE, { pollingIntervalSeconds: 2 }, async () => {
      const solved = await matchWaitingSwapDays(app.db, { totalSeconds, log: app.log });
      if (solved > 0) app.log.info({ solved }, 'matched swap days');
    });
    if (closing) return;
    askForMatch(app);
  };
  app.addHook('onReady', async () => {
    void setUp().catch((error: unknown) => {
      if (!closing) app.log.error({ err: error }, 'the swap day match job could not be set up');
    });
  });
  app.addHook('preClose', async () => {
    closing = true;
  });
}
