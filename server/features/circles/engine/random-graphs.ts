import type { TradeGraph } from './graph';

/**
 * For the engine's tests: small random trade graphs from a seeded generator, and the brute-force
 * optimum over disjoint loops that the solvers are checked against. Not used by the engine itself.
 */

/** A repeatable stream of numbers in [0, 1): the C library's linear congruential generator. */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

export interface RandomGraphShape {
  /** How many items. */
  items: number;
  /** The chance that one item's owner wants another's. */
  density: number;
  /** Wants cost 1 to maxCost. */
  maxCost: number;
  /** Item i's owner (default `u${i}`: one item each). */
  owner?: (item: number) => string;
  /** Whether item i is a dummy (default none); drawn before the wants. */
  dummy?: (item: number) => boolean;
}

/**
 * Items I0..In-1 and, for each ordered pair (from, to) in turn, a want with the chance `density`
 * and a cost drawn from 1 to maxCost: the same draws, in the same order, from the same stream give
 * the same graph.
 */
export function randomTradeGraph(random: () => number, shape: RandomGraphShape): TradeGraph {
  const owner = shape.owner ?? ((item: number) => `u${item}`);
  const dummy = shape.dummy ?? (() => false);
  const graph: TradeGraph = {
    items: Array.from({ length: shape.items }, (_, i) => ({
      name: `I${i}`,
      owner: owner(i),
      dummy: dummy(i),
    })),
    wants: [],
  };
  for (let from = 0; from < shape.items; from++) {
    for (let to = 0; to < shape.items; to++) {
      if (from !== to && random() < shape.density)
        graph.wants.push({ from, to, cost: 1 + Math.floor(random() * shape.maxCost) });
    }
  }
  return graph;
}

/**
 * The most real items, then the lowest cost, over pairwise disjoint loops, by trying every set
 * (`real`: a loop's items that are not dummies; its length when not given).
 */
export function bestDisjointLoops(
  loops: ReadonlyArray<{ items: readonly number[]; cost: number; real?: number }>,
): { items: number; cost: number } {
  let best = { items: 0, cost: 0 };
  const used = new Set<number>();
  const pick = (from: number, items: number, cost: number) => {
    if (items > best.items || (items === best.items && cost < best.cost)) best = { items, cost };
    for (let i = from; i < loops.length; i++) {
      const loop = loops[i];
      if (!loop || loop.items.some((item) => used.has(item))) continue;
      for (const item of loop.items) used.add(item);
      pick(i + 1, items + (loop.real ?? loop.items.length), cost + loop.cost);
      for (const item of loop.items) used.delete(item);
    }
  };
  pick(0, 0, 0);
  return best;
}
