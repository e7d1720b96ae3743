/**
 * Capped loops without listing them (ADR 070): the position-indexed edge formulation (PIEF) of
 * Dickerson, Manlove, Plaut, Sandholm and Trimble, "Position-indexed formulations for kidney
 * exchange" (EC 2016, arXiv 1606.01623). A loop is counted once, from its smallest item `l`: a
 * column per (l, want, position of the want in the loop), flow kept position by position through
 * every other item, and each item received at most once over all of them. Its LP bound is the
 * loop formulation's, with columns growing as wants x cap x items rather than as the loops do.
 *
 * For graphs without dummies (every item counts, so a want's position is the loop's length so far).
 */
import type { Highs } from 'highs';
import { loopsFromSuccessors, summarise, type TradeGraph, type TradeSolution } from './graph';
import { ModelBuilder } from './model-builder';

/** Steps from `start` along `next` (forward or backward adjacency), through items >= `start` only. */
function distancesFrom(start: number, next: number[][], limit: number, dist: Int32Array, queue: Int32Array) {
  dist.fill(-1);
  dist[start] = 0;
  let head = 0;
  let tail = 0;
  queue[tail++] = start;
  while (head < tail) {
    const v = queue[head++] as number;
    const d = dist[v] as number;
    if (d >= limit) continue;
    for (const w of next[v] ?? []) {
      if (w < start || (dist[w] as number) >= 0) continue;
      dist[w] = d + 1;
      queue[tail++] = w;
    }
  }
}

/** The best loops of at most `maxCycle` items: the most items, then the cheapest wants. */
export function solvePief(
  runtime: Highs,
  graph: TradeGraph,
  maxCycle: number,
  timeLimitSeconds?: number,
): TradeSolution {
  const n = graph.items.length;
  const out: number[][] = Array.from({ length: n }, () => []);
  const into: number[][] = Array.from({ length: n }, () => []);
  for (const want of graph.wants) {
    out[want.from]?.push(want.to);
    into[want.to]?.push(want.from);
  }
  const model = new ModelBuilder();
  const columns: Array<{ want: number }> = [];
  const received: number[][] = Array.from({ length: n }, () => []);
  const forward = new Int32Array(n);
  const backward = new Int32Array(n);
  const queue = new Int32Array(n);
  // Per smallest item l: columns entering (v, position) and leaving (v, position), for conservation.
  const entering = new Map<number, number[]>();
  const leaving = new Map<number, number[]>();
  const add = (map: Map<number, number[]>, key: number, col: number) => {
    const list = map.get(key);
    if (list) list.push(col);
    else map.set(key, [col]);
  };
  for (let l = 0; l < n; l++) {
    distancesFrom(l, out, maxCycle - 1, forward, queue);
    distancesFrom(l, into, maxCycle - 1, backward, queue);
    entering.clear();
    leaving.clear();
    graph.wants.forEach((want, e) => {
      const { from, to } = want;
      if (from < l || to < l) return;
      const reach = forward[from] as number;
      const back = backward[to] as number;
      if (reach < 0 || back < 0) return;
      // Position k (1-based): the want from `from` is the loop's k-th; k = 1 leaves l, and only then.
      const first = from === l ? 1 : Math.max(2, reach + 1);
      const last = from === l ? 1 : to === l ? maxCycle : maxCycle - back;
      for (let k = first; k <= last; k++) {
        if (to !== l && k === maxCycle) continue;
        if (to === l && k < 2) continue;
        const col = model.column(0, true);
        columns.push({ want: e });
        received[to]?.push(col);
        if (from !== l) add(leaving, from * (maxCycle + 1) + k, col);
        if (to !== l) add(entering, to * (maxCycle + 1) + k, col);
      }
    });
    // What reaches v at position k leaves it at position k + 1.
    for (const [key, ins] of entering) {
      const v = Math.floor(key / (maxCycle + 1));
      const k = key % (maxCycle + 1);
      const outs = leaving.get(v * (maxCycle + 1) + k + 1) ?? [];
      model.row([...ins, ...outs], 0, 0, [...ins.map(() => 1), ...outs.map(() => -1)]);
    }
    for (const [key, outs] of leaving) {
      const v = Math.floor(key / (maxCycle + 1));
      const k = key % (maxCycle + 1);
      if (!entering.has(v * (maxCycle + 1) + k - 1)) model.row(outs, 0, 0);
    }
  }
  if (columns.length === 0) return summarise(graph, [], 0);
  for (const list of received) if (list.length > 1) model.row(list, 0, 1);
  const items = columns.map(() => -1);
  const costs = columns.map(({ want }) => graph.wants[want]?.cost ?? 0);
  const values = model.solve(runtime, {
    timeLimitSeconds,
    objectives: [
      { coefficients: items, priority: 2 },
      { coefficients: costs, priority: 1 },
    ],
  });
  const successor = new Map<number, number>();
  let cost = 0;
  columns.forEach(({ want }, c) => {
    if ((values[c] ?? 0) > 0.5) {
      const chosen = graph.wants[want];
      if (!chosen) return;
      successor.set(chosen.from, chosen.to);
      cost += chosen.cost;
    }
  });
  return summarise(graph, loopsFromSuccessors(successor), cost);
}
