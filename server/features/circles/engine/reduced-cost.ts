/**
 * Capped loops for the items metric by the LP bound and reduced-cost fixing (issue 32, ADR 095).
 *
 * The loop formulation (a 0..1 column per loop, each item in at most one chosen loop) has a famously
 * tight LP relaxation on kidney-exchange pools, but HiGHS's branch and bound over 165,000 to 229,000
 * loop columns takes minutes. Exactly, without branching over them all:
 *
 * 1. The LP relaxation for the primary objective (items, maximised; HiGHS minimises minus items),
 *    solved by column generation over the loops (the list itself is never handed to HiGHS whole),
 *    gives row duals y. For any y of the right signs (Lagrangian duality) and any 0..1 solution x,
 *    `-items(x) >= L + sum over chosen loops of max(0, d_j) + sum over rows of |y_i| * slack_i`,
 *    where d = -real - A^T y are the reduced costs and L = sum(y_i * bound_i) + sum(min(0, d_j)).
 *    So items(x) <= U = -L, and a solution with at least T items uses only loops with
 *    max(0, d_j) <= U - T, and fills every item whose |y_i| > U - T. The bound is recomputed here
 *    from the duals HiGHS reports (clipped to the right signs), so it holds whatever its tolerances.
 * 2. T starts at floor(U). The integer program (most items, presolve off) over the loops kept for T
 *    is solved on growing samples of them (the LP's support and a seeded random few thousand, then
 *    four times more, each with a cutoff at T and a node limit), then on all of them: a solution
 *    that reaches T items is optimal for the items, since nothing has more than U. When the whole
 *    kept set stays below T, no solution reaches T: T drops by one and the kept set grows.
 * 3. The cost (the secondary objective) among the solutions of T items: T times the least cost per
 *    real item of the kept loops bounds it (enough for kidney pools), else a second LP (least cost,
 *    items >= T, over the kept loops) bounds it the same way as in 1. When the solution found meets that
 *    bound it is optimal; otherwise the integer program over the loops that could still lower the
 *    cost (reduced cost within the difference) decides, exactly.
 */
import type { Highs } from 'highs';
import { ModelBuilder } from './model-builder';

/** A loop as a column: its items, how many are real (what the items metric counts), its cost. */
export interface BoundLoop {
  items: readonly number[];
  real: number;
  cost: number;
}

export interface BoundedChoice {
  /** Indices (into the loops given) of the chosen loops. */
  chosen: number[];
  /** The bound on the items from the LP relaxation's duals (U). */
  bound: number;
  /** Each restricted integer program: the target T, the loops it had, the items it reached. */
  steps: Array<{ target: number; columns: number; items: number }>;
  /** How the cost was proven: by a bound (per item, or the second LP's), or by an integer program. */
  costProof: 'bound' | 'integer program';
}

export interface BoundOptions {
  timeLimitSeconds?: number;
  /** Loops in the first sample of the kept set (then four times more each round). */
  firstSample?: number;
}

/** Slack on reduced costs and bounds: keeps a few loops more and fixes a few rows less. */
const TOLERANCE = 1e-6;
/** HiGHS's infinite_bound: bounds this large are no bounds. */
const INFINITE = 1e20;
const FIRST_SAMPLE = 4000;
/** Branch-and-bound nodes a sample gets before a larger one is tried. */
const SAMPLE_NODES = 100;
/** Loops in the first LP of the column generation, and most loops added per round. */
const FIRST_COLUMNS = 4000;
const ENTERING_PER_ROUND = 4000;

/**
 * The Lagrangian bound of `min objective.x` over the rows of `model` and 0..1 columns, from row duals
 * (clipped to the sign a finite bound of the row allows): reduced costs and the bound.
 */
function lagrangian(model: ModelBuilder, objective: readonly number[], rowDual: Float64Array) {
  const y = new Float64Array(model.rows.length);
  let bound = 0;
  model.rows.forEach((row, r) => {
    const dual = rowDual[r] ?? 0;
    // y * activity >= y * lower when y >= 0, and >= y * upper when y <= 0.
    if (dual > 0 && row.lower > -INFINITE) {
      y[r] = dual;
      bound += dual * row.lower;
    } else if (dual < 0 && row.upper < INFINITE) {
      y[r] = dual;
      bound += dual * row.upper;
    }
  });
  const reduced = Float64Array.from(objective);
  model.rows.forEach((row, r) => {
    const dual = y[r] as number;
    if (dual === 0) return;
    row.cols.forEach((col, k) => {
      reduced[col] = (reduced[col] as number) - dual * (row.coefs?.[k] ?? 1);
    });
  });
  for (const d of reduced) if (d < 0) bound += d;
  return { y, reduced, bound };
}

/**
 * The loops that reach the most real items, then the lowest cost, exactly; null when the LP
 * relaxation fails (the caller then solves the whole integer program).
 */
export function chooseLoopsByBound(
  runtime: Highs,
  numItems: number,
  loops: readonly BoundLoop[],
  options: BoundOptions = {},
): BoundedChoice | null {
  if (loops.length === 0) return { chosen: [], bound: 0, steps: [], costProof: 'bound' };
  const deadline =
    options.timeLimitSeconds === undefined ? undefined : performance.now() + options.timeLimitSeconds * 1000;
  const remaining = () => {
    if (deadline === undefined) return undefined;
    const seconds = (deadline - performance.now()) / 1000;
    if (seconds <= 0) throw new Error('the solver stopped without an optimum (time limit)');
    return seconds;
  };

  // 1. The LP relaxation of the primary objective, by column generation: the LP over some loops,
  // then the loops whose reduced cost under its duals is negative, until there are none. The bound
  // is the Lagrangian one over every loop (valid at every round; the LP optimum's at the last).
  const step = Math.max(1, Math.ceil(loops.length / FIRST_COLUMNS));
  const active: number[] = [];
  const isActive = new Uint8Array(loops.length);
  for (let j = 0; j < loops.length; j += step) {
    active.push(j);
    isActive[j] = 1;
  }
  const itemDual = new Float64Array(numItems);
  const reduced = new Float64Array(loops.length);
  let support: number[] = [];
  for (;;) {
    const lp = new ModelBuilder();
    const byItem: number[][] = Array.from({ length: numItems }, () => []);
    active.forEach((j, c) => {
      lp.column(-(loops[j]?.real ?? 0));
      for (const item of loops[j]?.items ?? []) byItem[item]?.push(c);
    });
    const rowItems: number[] = [];
    byItem.forEach((list, item) => {
      if (list.length > 0) {
        rowItems.push(item);
        lp.row(list, 0, 1);
      }
    });
    const relaxed = lp.relaxation(runtime, lp.costs, remaining());
    if (!relaxed) return null;
    itemDual.fill(0);
    // Minimising, a row at its upper bound has a dual <= 0; anything else is left out (0).
    rowItems.forEach((item, r) => {
      itemDual[item] = Math.min(0, relaxed.rowDual[r] ?? 0);
    });
    const entering: number[] = [];
    loops.forEach((loop, j) => {
      let d = -loop.real;
      for (const item of loop.items) d -= itemDual[item] as number;
      reduced[j] = d;
      if (d < -TOLERANCE && !isActive[j]) entering.push(j);
    });
    support = active.filter((_, c) => (relaxed.colValue[c] ?? 0) > TOLERANCE);
    if (entering.length === 0) break;
    if (entering.length > ENTERING_PER_ROUND) {
      entering.sort((a, b) => (reduced[a] as number) - (reduced[b] as number));
      entering.length = ENTERING_PER_ROUND;
    }
    for (const j of entering) {
      active.push(j);
      isActive[j] = 1;
    }
  }
  let lagrangianBound = 0;
  for (const y of itemDual) lagrangianBound += y;
  for (const d of reduced) if (d < 0) lagrangianBound += d;
  const bound = -lagrangianBound;
  const steps: BoundedChoice['steps'] = [];

  /** Loops a solution of `target` items may use, and the items it must fill. */
  const keptFor = (target: number) => {
    const gap = Math.max(0, bound - target) + TOLERANCE;
    const kept: number[] = [];
    reduced.forEach((d, j) => {
      if (d <= gap) kept.push(j);
    });
    const mustTrade = new Uint8Array(numItems);
    itemDual.forEach((y, item) => {
      if (-y > gap) mustTrade[item] = 1;
    });
    return { kept, mustTrade };
  };

  /**
   * The integer program over `cols`, must-trade items filled: the most items (`lexicographic`: then
   * the lowest cost), or null when infeasible.
   */
  const restricted = (
    cols: readonly number[],
    mustTrade: Uint8Array,
    start: ReadonlySet<number>,
    lexicographic: boolean,
    sample?: { target: number },
  ) => {
    const model = new ModelBuilder();
    const itemCols: number[][] = Array.from({ length: numItems }, () => []);
    cols.forEach((j, c) => {
      model.column(-(loops[j]?.real ?? 0), true);
      for (const item of loops[j]?.items ?? []) itemCols[item]?.push(c);
    });
    for (let item = 0; item < numItems; item++) {
      const list = itemCols[item] as number[];
      if (mustTrade[item]) {
        if (list.length === 0) return null;
        model.row(list, 1, 1);
      } else if (list.length > 1) model.row(list, 0, 1);
    }
    const startValues = cols.map((j) => (start.has(j) ? 1 : 0));
    const result = model.trySolve(runtime, {
      presolve: false,
      timeLimitSeconds: remaining(),
      ...(lexicographic
        ? {
            objectives: [
              { coefficients: model.costs, priority: 2 },
              { coefficients: cols.map((j) => loops[j]?.cost ?? 0), priority: 1 },
            ],
          }
        : {}),
      ...(startValues.some(Boolean) ? { start: startValues } : {}),
      // A sample only matters when it reaches the target: nothing below it, and not for long.
      ...(sample ? { cutoff: -sample.target + 0.5, maxNodes: SAMPLE_NODES } : {}),
    });
    if (result.status !== 'optimal') {
      // A sample that stops (its node limit) or has nothing of the target: a larger one is tried.
      if (sample || result.status === 'infeasible') return null;
      throw new Error(`the solver stopped without an optimum (status ${result.code})`);
    }
    return cols.filter((_, c) => (result.values[c] ?? 0) > 0.5);
  };
  const itemsOf = (chosen: readonly number[]) => chosen.reduce((sum, j) => sum + (loops[j]?.real ?? 0), 0);
  const costOf = (chosen: readonly number[]) => chosen.reduce((sum, j) => sum + (loops[j]?.cost ?? 0), 0);

  // 2. The most items: growing samples of the loops kept for the target, then the whole kept set.
  let best: number[] = [];
  let bestItems = 0;
  let target = Math.floor(bound + TOLERANCE);
  let seed = 12345;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  while (target > bestItems) {
    const { kept, mustTrade } = keptFor(target);
    const always = new Set<number>(best);
    for (const j of support) always.add(j);
    for (let size = options.firstSample ?? FIRST_SAMPLE; ; size *= 4) {
      const whole = size >= kept.length;
      const cols = whole ? kept : kept.filter((j) => always.has(j) || random() < size / kept.length);
      const chosen = restricted(cols, mustTrade, new Set(best), false, whole ? undefined : { target }) ?? [];
      const items = itemsOf(chosen);
      steps.push({ target, columns: cols.length, items });
      if (items > bestItems) {
        best = chosen;
        bestItems = items;
      }
      if (bestItems >= target || whole) break;
    }
    if (bestItems < target) target--;
  }
  if (bestItems === 0) return { chosen: [], bound, steps, costProof: 'bound' };

  // 3. The least cost among the solutions of `target` (= bestItems) items.
  const { kept, mustTrade } = keptFor(target);
  const bestCost = costOf(best);
  // Every kept loop costs at least `ratio` per real item: then no solution of `target` items costs
  // less than ratio * target (the kidney pools: one per transplant).
  let ratio = Number.POSITIVE_INFINITY;
  for (const j of kept) {
    const loop = loops[j];
    if (loop && loop.real > 0) ratio = Math.min(ratio, loop.cost / loop.real);
  }
  if (ratio >= 0 && bestCost <= ratio * target + TOLERANCE * Math.max(1, bestCost)) {
    return { chosen: best, bound, steps, costProof: 'bound' };
  }
  const costLp = new ModelBuilder();
  const itemCols: number[][] = Array.from({ length: numItems }, () => []);
  kept.forEach((j, c) => {
    costLp.column(loops[j]?.cost ?? 0);
    for (const item of loops[j]?.items ?? []) itemCols[item]?.push(c);
  });
  itemCols.forEach((list, item) => {
    if (mustTrade[item]) costLp.row(list, 1, 1);
    else if (list.length > 1) costLp.row(list, 0, 1);
  });
  costLp.row(
    kept.map((_, c) => c),
    target,
    1e30,
    kept.map((j) => loops[j]?.real ?? 0),
  );
  const costRelaxed = costLp.relaxation(runtime, costLp.costs, remaining());
  let candidates = kept;
  if (costRelaxed) {
    const secondary = lagrangian(costLp, costLp.costs, costRelaxed.rowDual);
    const slack = bestCost - secondary.bound;
    if (slack <= TOLERANCE * Math.max(1, Math.abs(bestCost))) {
      return { chosen: best, bound, steps, costProof: 'bound' };
    }
    candidates = kept.filter((_, c) => (secondary.reduced[c] as number) <= slack + TOLERANCE);
  }
  const cheapest = restricted(candidates, mustTrade, new Set(best), true);
  steps.push({ target, columns: candidates.length, items: cheapest ? itemsOf(cheapest) : 0 });
  if (!cheapest || itemsOf(cheapest) < target || costOf(cheapest) > bestCost) {
    // Cannot happen (the best solution is among the candidates); keep what is proven.
    return { chosen: best, bound, steps, costProof: 'integer program' };
  }
  return { chosen: cheapest, bound, steps, costProof: 'integer program' };
}
