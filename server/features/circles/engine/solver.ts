import highsLoader, { type Highs } from 'highs';
import { loopsFromSuccessors, summarise, type TradeGraph, type TradeLoop, type TradeSolution } from './graph';

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

let highs: Promise<Highs> | null = null;
/** The HiGHS WebAssembly runtime, loaded once per process (ADR 028). */
export function loadHighs(): Promise<Highs> {
  highs ??= highsLoader();
  return highs;
}

const EPS = 1e-6;
/** HiGHS's primal_solution_status for a feasible solution (kSolutionStatusFeasible). */
const FEASIBLE_SOLUTION = 2;

/** A sparse model of 0..1 columns built row by row, for HiGHS's structured API. */
export class ModelBuilder {
  readonly costs: number[] = [];
  readonly integer: boolean[] = [];
  /** Rows as lists of column indices (all coefficients 1 unless given). */
  readonly rows: Array<{ cols: number[]; coefs?: number[]; lower: number; upper: number }> = [];

  column(cost: number, integer = false): number {
    this.costs.push(cost);
    this.integer.push(integer);
    return this.costs.length - 1;
  }

  row(cols: number[], lower: number, upper: number, coefs?: number[]): void {
    this.rows.push({ cols, coefs, lower, upper });
  }

  solve(
    runtime: Highs,
    options: {
      timeLimitSeconds?: number;
      objectives?: Array<{ coefficients: number[]; priority: number }>;
      /** At the time limit, answer the best solution found so far instead of failing. */
      incumbentOnTimeLimit?: boolean;
      /** A feasible solution to start from (a MIP start), one value per column. */
      start?: readonly number[];
    },
  ) {
    const numCols = this.costs.length;
    const numRows = this.rows.length;
    const starts = new Int32Array(numRows + 1);
    let nnz = 0;
    for (let r = 0; r < numRows; r++) nnz += this.rows[r]?.cols.length ?? 0;
    const indices = new Int32Array(nnz);
    const values = new Float64Array(nnz);
    let k = 0;
    for (let r = 0; r < numRows; r++) {
      starts[r] = k;
      const row = this.rows[r];
      if (!row) continue;
      for (let j = 0; j < row.cols.length; j++) {
        indices[k] = row.cols[j] as number;
        values[k] = row.coefs?.[j] ?? 1;
        k++;
      }
    }
    starts[numRows] = k;
    const anyInteger = this.integer.some(Boolean);
    const model = runtime.createModel({
      numCols,
      numRows,
      colCost: Float64Array.from(this.costs),
      colLower: new Float64Array(numCols),
      colUpper: new Float64Array(numCols).fill(1),
      rowLower: Float64Array.from(this.rows, (row) => row.lower),
      rowUpper: Float64Array.from(this.rows, (row) => row.upper),
      matrix: { format: 'csr', numRows, numCols, starts, indices, values },
      ...(anyInteger
        ? {
            integrality: Int32Array.from(this.integer, (flag) =>
              flag ? runtime.constants.variableType.integer : 0,
            ),
          }
        : {}),
    } as Parameters<Highs['createModel']>[0]);
    try {
      model.options.set('output_flag', false);
      if (!anyInteger) model.options.set('solver', 'simplex');
      if (options.timeLimitSeconds) model.options.set('time_limit', options.timeLimitSeconds);
      if (options.objectives) {
        // Lexicographic, not a weighted blend: the first objective's optimum is kept exactly.
        model.options.set('blend_multi_objectives', false);
        model.passLinearObjectives(
          options.objectives.map((objective) => ({
            weight: 1,
            offset: 0,
            coefficients: Float64Array.from(objective.coefficients),
            absoluteTolerance: 0.5,
            relativeTolerance: 0,
            priority: objective.priority,
          })),
        );
      }
      if (options.start) model.setSolution({ colValue: Float64Array.from(options.start) });
      model.run();
      const status = model.getModelStatus();
      // Out of time with a feasible incumbent: the best found so far, when the caller takes it.
      if (
        options.incumbentOnTimeLimit &&
        status === runtime.constants.modelStatus.timeLimit &&
        Number(model.info.get('primal_solution_status')) === FEASIBLE_SOLUTION
      ) {
        return model.getSolution().colValue;
      }
      if (status !== runtime.constants.modelStatus.optimal) {
        throw new Error(`the solver stopped without an optimum (status ${status})`);
      }
      return model.getSolution().colValue;
    } finally {
      model.dispose();
    }
  }
}

/**
 * The best set of disjoint loops (ADR 028). Without a cap: TradeMaximizer's problem, the most real
 * items traded, then the lowest total preference cost, as a minimum-cost perfect matching between
 * givers and receivers (each item receives one item or itself), an LP whose optimum is integral. With
 * `maxCycle`: every loop of at most that many real items is enumerated and an integer program picks
 * disjoint ones (exact for the cap). The `users` metric puts members trading first, then items;
 * `items-users` keeps the most items and then lets the most members trade.
 */
export async function solveTrades(graph: TradeGraph, options: SolveOptions = {}): Promise<TradeSolution> {
  const runtime = await loadHighs();
  const metric = options.metric ?? 'items';
  if (options.maxCycle !== undefined) return solveCapped(runtime, graph, options.maxCycle, metric, options);
  return solveUnbounded(runtime, graph, metric, options);
}

function solveUnbounded(runtime: Highs, graph: TradeGraph, metric: TradeMetric, options: SolveOptions) {
  const n = graph.items.length;
  const model = new ModelBuilder();
  const outgoing: number[][] = Array.from({ length: n }, () => []);
  const incoming: number[][] = Array.from({ length: n }, () => []);
  // Not trading must cost more than any set of wants can: then the most items trade, then the cheapest.
  const maxOut = new Array<number>(n).fill(0);
  for (const want of graph.wants) maxOut[want.from] = Math.max(maxOut[want.from] ?? 0, want.cost);
  const noTrade = maxOut.reduce((sum, cost) => sum + cost, 0) + 1;
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
  const loops = enumerateLoops(graph, maxCycle);
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
