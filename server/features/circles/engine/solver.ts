import highsLoader, { type Highs } from 'highs';
import {
  loopsFromSuccessors,
  summarise,
  type TradeGraph,
  type TradeLoop,
  type TradeSolution,
  wantsOnLoops,
} from './graph';
import { ModelBuilder } from './model-builder';
import { minCostFlow } from './network-simplex';
import { solvePief } from './pief';
import { chooseLoopsByBound } from './reduced-cost';

/**
 * What to maximise, in order (then always the lowest preference cost): `items` that change hands
 * (TradeMaximizer's count), `users` (members who trade, then items), or `items-users` (items, then
 * members: among the ways that trade the most items, the one that lets the most members trade; a swap
 * day's order).
 */
export type TradeMetric = 'items' | 'users' | 'items-users';

export interface SolveOptions {
  /** Longest loop, in real items (2, 3, 4...); none: loops of any length. */
  maxCycle?: number;
  metric?: TradeMetric;
  /** Give up after this long (the best solution found so far is not returned: an error is). */
  timeLimitSeconds?: number;
}

/** Most loops a capped solve enumerates before it refuses (memory, and time to build the model). */
export const MAX_ENUMERATED_LOOPS = 3_000_000;

export class TooManyLoopsError extends Error {}

/**
 * A capped solve for the items metric with at least this many loops per want (and
 * BOUND_MIN_LOOPS loops) picks them by the LP bound and reduced-cost fixing (reduced-cost.ts,
 * ADR 095) rather than one integer program over every loop: exact, and seconds instead of minutes
 * on the 128-pair kidney pools within 4. It replaces ADR 070's rule (above 4 loops per want, the
 * position-indexed formulation, pief.ts), which now only takes the items metric without dummies
 * when the loops pass POSITIONAL_AFTER_LOOPS.
 */
export const BOUND_LOOPS_PER_WANT = 1;
export const BOUND_MIN_LOOPS = 1000;

/**
 * The items metric without dummies lists at most this many loops, then hands the graph to the
 * position-indexed formulation (listing 3,000,000 loops of a dense pool takes about 3 s and 600 MB
 * before it could be refused; 229,000 are solved in under a second by the bound).
 */
export const POSITIONAL_AFTER_LOOPS = 1_000_000;

let highs: Promise<Highs> | null = null;
/** The HiGHS WebAssembly runtime, loaded once per process (ADR 028). */
export function loadHighs(): Promise<Highs> {
  highs ??= highsLoader();
  return highs;
}

const EPS = 1e-6;
/**
 * The best set of disjoint loops (ADR 028). Without a cap: TradeMaximizer's problem, the most real
 * items traded, then the lowest total preference cost, as a minimum-cost perfect matching between
 * givers and receivers (each item receives one item or itself), solved by a network simplex
 * (`solveAssignment`, ADR 070; the member metrics need an integer program, HiGHS's). With
 * `maxCycle`: every loop of at most that many real items is enumerated and an integer program picks
 * disjoint ones (exact for the cap; for the items metric on long lists, by the LP bound and
 * reduced-cost fixing, ADR 095). The `users` metric puts members trading first, then items;
 * `items-users` keeps the most items and then lets the most members trade.
 */
export async function solveTrades(graph: TradeGraph, options: SolveOptions = {}): Promise<TradeSolution> {
  const metric = options.metric ?? 'items';
  if (options.maxCycle !== undefined)
    return solveCapped(await loadHighs(), graph, options.maxCycle, metric, options);
  if (metric === 'items') return solveAssignment(graph);
  return solveUnbounded(await loadHighs(), wantsOnLoops(graph), metric, options);
}

/** Not trading must cost more than any set of wants can: then the most items trade, then the cheapest. */
function noTradeCost(graph: TradeGraph) {
  const maxOut = new Array<number>(graph.items.length).fill(0);
  for (const want of graph.wants) maxOut[want.from] = Math.max(maxOut[want.from] ?? 0, want.cost);
  return maxOut.reduce((sum, cost) => sum + cost, 0) + 1;
}

/**
 * The `items` metric without a cap: a minimum-cost assignment (each item gives to one item or to
 * itself), solved as a minimum-cost flow by the network simplex (ADR 070): givers supply 1, receivers
 * take 1, a want is an arc at its cost, keeping one's own item an arc at `noTrade` (0 for a dummy).
 */
export function solveAssignment(graph: TradeGraph): TradeSolution {
  // Only wants inside a strongly connected component can be on a loop: the rest stay home.
  const { wants } = wantsOnLoops(graph);
  const node = new Int32Array(graph.items.length).fill(-1);
  const items: number[] = [];
  for (const want of wants) {
    for (const v of [want.from, want.to]) {
      if ((node[v] as number) < 0) {
        node[v] = items.length;
        items.push(v);
      }
    }
  }
  const n = items.length;
  const m = wants.length;
  const noTrade = noTradeCost({ items: graph.items, wants });
  const supply = new Float64Array(2 * n);
  supply.fill(1, 0, n);
  supply.fill(-1, n);
  const source = new Int32Array(m + n);
  const target = new Int32Array(m + n);
  const cost = new Float64Array(m + n);
  wants.forEach((want, e) => {
    source[e] = node[want.from] as number;
    target[e] = n + (node[want.to] as number);
    cost[e] = want.cost;
  });
  items.forEach((v, k) => {
    source[m + k] = k;
    target[m + k] = n + k;
    cost[m + k] = graph.items[v]?.dummy ? 0 : noTrade;
  });
  const flow = minCostFlow({ supply, source, target, cost });
  const successor = new Map<number, number>();
  let total = 0;
  wants.forEach((want, e) => {
    if ((flow[e] ?? 0) > 0) {
      successor.set(want.from, want.to);
      total += want.cost;
    }
  });
  return summarise(graph, loopsFromSuccessors(successor), total);
}

function solveUnbounded(runtime: Highs, graph: TradeGraph, metric: TradeMetric, options: SolveOptions) {
  const n = graph.items.length;
  const model = new ModelBuilder();
  const outgoing: number[][] = Array.from({ length: n }, () => []);
  const incoming: number[][] = Array.from({ length: n }, () => []);
  const noTrade = noTradeCost(graph);
  // Counting members needs a binary per member, so a mixed-integer program instead of an LP.
  const countsMembers = metric !== 'items';
  const wantCols = graph.wants.map((want) => {
    const col = model.column(want.cost, countsMembers);
    outgoing[want.from]?.push(col);
    incoming[want.to]?.push(col);
    return col;
  });
  const selfCols = graph.items.map((item) => model.column(item.dummy ? 0 : noTrade, countsMembers));
  for (let v = 0; v < n; v++) {
    const self = selfCols[v] as number;
    model.row([...(outgoing[v] ?? []), self], 1, 1);
    model.row([...(incoming[v] ?? []), self], 1, 1);
  }
  let objectives: Array<{ coefficients: number[]; priority: number }> | undefined;
  if (countsMembers) {
    // y_u <= items of u that trade: y_u + sum(self of u's real items) <= count.
    const owners = new Map<string, number[]>();
    graph.items.forEach((item, v) => {
      if (item.dummy) return;
      const list = owners.get(item.owner) ?? [];
      list.push(selfCols[v] as number);
      owners.set(item.owner, list);
    });
    const userCols: number[] = [];
    for (const selves of owners.values()) {
      const y = model.column(0, true);
      userCols.push(y);
      model.row([y, ...selves], 0, selves.length);
    }
    const numCols = model.costs.length;
    const users = new Array<number>(numCols).fill(0);
    for (const y of userCols) users[y] = -1;
    const items = new Array<number>(numCols).fill(0);
    graph.items.forEach((item, v) => {
      if (!item.dummy) items[selfCols[v] as number] = 1;
    });
    const costs = new Array<number>(numCols).fill(0);
    wantCols.forEach((col, e) => {
      costs[col] = graph.wants[e]?.cost ?? 0;
    });
    objectives = [
      { coefficients: users, priority: metric === 'users' ? 3 : 2 },
      { coefficients: items, priority: metric === 'users' ? 2 : 3 },
      { coefficients: costs, priority: 1 },
    ];
  }
  const values = model.solve(runtime, { timeLimitSeconds: options.timeLimitSeconds, objectives });
  const successor = new Map<number, number>();
  let cost = 0;
  graph.wants.forEach((want, e) => {
    const value = values[wantCols[e] as number] ?? 0;
    if (value > 1 - EPS) {
      successor.set(want.from, want.to);
      cost += want.cost;
    } else if (value > EPS) {
      throw new Error('the matching came out fractional; this should not happen for a network LP');
    }
  });
  return summarise(graph, loopsFromSuccessors(successor), cost);
}

/**
 * Every simple loop of at most `maxCycle` real items (dummies ride along free, at most as many as
 * real ones), each found once: from its smallest item index, through larger ones only.
 */
export function enumerateLoops(graph: TradeGraph, maxCycle: number, limit = MAX_ENUMERATED_LOOPS) {
  const n = graph.items.length;
  const out: Array<Array<{ to: number; cost: number }>> = Array.from({ length: n }, () => []);
  for (const want of graph.wants) out[want.from]?.push({ to: want.to, cost: want.cost });
  const maxNodes = maxCycle * 2;
  const loops: Array<{ items: TradeLoop; cost: number; real: number }> = [];
  const path: number[] = [];
  const onPath = new Uint8Array(n);
  const dummy = graph.items.map((item) => item.dummy);

  const visit = (start: number, at: number, real: number, cost: number) => {
    for (const { to, cost: step } of out[at] ?? []) {
      if (to === start) {
        if (real > 0 && path.length > 1) {
          loops.push({ items: [...path], cost: cost + step, real });
          if (loops.length > limit) {
            throw new TooManyLoopsError(`more than ${limit} loops of at most ${maxCycle}: use a smaller cap`);
          }
        }
        continue;
      }
      if (to < start || onPath[to]) continue;
      const nextReal = real + (dummy[to] ? 0 : 1);
      if (nextReal > maxCycle || path.length + 1 > maxNodes) continue;
      onPath[to] = 1;
      path.push(to);
      visit(start, to, nextReal, cost + step);
      path.pop();
      onPath[to] = 0;
    }
  };
  for (let start = 0; start < n; start++) {
    onPath[start] = 1;
    path.push(start);
    visit(start, start, dummy[start] ? 0 : 1, 0);
    path.pop();
    onPath[start] = 0;
  }
  return loops;
}

function solveCapped(
  runtime: Highs,
  graph: TradeGraph,
  maxCycle: number,
  metric: TradeMetric,
  options: SolveOptions,
) {
  if (!Number.isInteger(maxCycle) || maxCycle < 2)
    throw new RangeError('maxCycle must be a whole number of at least 2');
  // Loops are listed, up to MAX_ENUMERATED_LOOPS; when the position-indexed formulation applies (the
  // items metric, no dummies, ADR 070), up to POSITIONAL_AFTER_LOOPS and then it solves instead.
  const positional = metric === 'items' && !graph.items.some((item) => item.dummy);
  let loops: ReturnType<typeof enumerateLoops>;
  try {
    loops = enumerateLoops(graph, maxCycle, positional ? POSITIONAL_AFTER_LOOPS : MAX_ENUMERATED_LOOPS);
  } catch (error) {
    if (positional && error instanceof TooManyLoopsError)
      return solvePief(runtime, wantsOnLoops(graph), maxCycle, options.timeLimitSeconds);
    throw error;
  }
  // Many loops per want, the items metric: the LP bound and reduced-cost fixing (ADR 095).
  if (
    metric === 'items' &&
    loops.length >= BOUND_MIN_LOOPS &&
    loops.length >= BOUND_LOOPS_PER_WANT * graph.wants.length
  ) {
    const bounded = chooseLoopsByBound(runtime, graph.items.length, loops, {
      timeLimitSeconds: options.timeLimitSeconds,
    });
    if (bounded) {
      const chosen = bounded.chosen.map((j) => loops[j] as (typeof loops)[number]);
      return summarise(
        graph,
        chosen.map((loop) => loop.items),
        chosen.reduce((sum, loop) => sum + loop.cost, 0),
      );
    }
  }
  if (loops.length === 0) return summarise(graph, [], 0);
  const model = new ModelBuilder();
  const byItem: number[][] = Array.from({ length: graph.items.length }, () => []);
  const cols = loops.map((loop) => {
    const col = model.column(0, true);
    for (const item of loop.items) byItem[item]?.push(col);
    return col;
  });
  for (const list of byItem) if (list.length > 1) model.row(list, 0, 1);
  const numLoopCols = cols.length;
  const items = loops.map((loop) => -loop.real);
  const costs = loops.map((loop) => loop.cost);
  const objectives: Array<{ coefficients: number[]; priority: number }> = [];
  if (metric !== 'items') {
    // One column per owner: trades when one of their real items is in a chosen loop.
    const owners = new Map<string, Set<number>>();
    loops.forEach((loop, c) => {
      for (const item of loop.items) {
        const info = graph.items[item];
        if (!info || info.dummy) continue;
        const set = owners.get(info.owner) ?? new Set<number>();
        set.add(c);
        owners.set(info.owner, set);
      }
    });
    const userCols: number[] = [];
    for (const loopsOfOwner of owners.values()) {
      const y = model.column(0, true);
      userCols.push(y);
      const list = [...loopsOfOwner].map((c) => cols[c] as number);
      model.row([y, ...list], -1e30, 0, [1, ...list.map(() => -1)]);
    }
    const numCols = model.costs.length;
    const pad = (values: number[]) => [...values, ...new Array<number>(numCols - numLoopCols).fill(0)];
    const users = new Array<number>(numCols).fill(0);
    for (const y of userCols) users[y] = -1;
    objectives.push({ coefficients: users, priority: metric === 'users' ? 3 : 2 });
    objectives.push({ coefficients: pad(items), priority: metric === 'users' ? 2 : 3 });
    objectives.push({ coefficients: pad(costs), priority: 1 });
  } else {
    objectives.push({ coefficients: items, priority: 2 });
    objectives.push({ coefficients: costs, priority: 1 });
  }
  const values = model.solve(runtime, { timeLimitSeconds: options.timeLimitSeconds, objectives });
  const chosen: TradeLoop[] = [];
  let cost = 0;
  loops.forEach((loop, c) => {
    if ((values[cols[c] as number] ?? 0) > 0.5) {
      chosen.push(loop.items);
      cost += loop.cost;
    }
  });
  return summarise(graph, chosen, cost);
}
