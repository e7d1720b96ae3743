import { describe, expect, it } from 'vitest';
import { InfeasibleFlowError, minCostFlow } from './network-simplex';
import { randomTradeGraph, seededRandom } from './random-graphs';
import { solveAssignment } from './solver';

const random = seededRandom(3);

/** Every permutation of 0..n-1. */
function* permutations(n: number): Generator<number[]> {
  const perm = Array.from({ length: n }, (_, i) => i);
  const swap = (i: number, j: number) => {
    const t = perm[i] as number;
    perm[i] = perm[j] as number;
    perm[j] = t;
  };
  function* from(k: number): Generator<number[]> {
    if (k === n) {
      yield [...perm];
      return;
    }
    for (let i = k; i < n; i++) {
      swap(k, i);
      yield* from(k + 1);
      swap(k, i);
    }
  }
  yield* from(0);
}

describe('the network simplex', () => {
  it('finds the cheapest assignment (checked against every permutation)', () => {
    for (let round = 0; round < 60; round++) {
      const n = 1 + Math.floor(random() * 6);
      const cost = new Map<number, number>();
      const source: number[] = [];
      const target: number[] = [];
      const costs: number[] = [];
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          if (i !== j && random() > 0.5) continue;
          const c = Math.floor(random() * 21) - 5;
          cost.set(i * n + j, c);
          source.push(i);
          target.push(n + j);
          costs.push(c);
        }
      }
      let best = Number.POSITIVE_INFINITY;
      for (const perm of permutations(n)) {
        let total = 0;
        for (let i = 0; i < n && total < Number.POSITIVE_INFINITY; i++) {
          total += cost.get(i * n + (perm[i] as number)) ?? Number.POSITIVE_INFINITY;
        }
        best = Math.min(best, total);
      }
      const supply = [...new Array<number>(n).fill(1), ...new Array<number>(n).fill(-1)];
      const flow = minCostFlow({ supply, source, target, cost: costs });
      let total = 0;
      const received = new Array<number>(2 * n).fill(0);
      flow.forEach((value, e) => {
        expect([0, 1]).toContain(value);
        total += value * (costs[e] as number);
        received[source[e] as number] = (received[source[e] as number] ?? 0) + value;
        received[target[e] as number] = (received[target[e] as number] ?? 0) + value;
      });
      expect(total, `round ${round}`).toBe(best);
      expect(received.every((count) => count === 1)).toBe(true);
    }
  });

  it('routes flow through intermediate nodes, and says when no flow meets the supplies', () => {
    // 0 -> 1 -> 2 costs 2 in all; the direct arc 0 -> 2 costs 5.
    const flow = minCostFlow({ supply: [2, 0, -2], source: [0, 1, 0], target: [1, 2, 2], cost: [1, 1, 5] });
    expect([...flow]).toEqual([2, 2, 0]);
    expect(() => minCostFlow({ supply: [1, -1], source: [1], target: [0], cost: [1] })).toThrow(
      InfeasibleFlowError,
    );
    expect(() => minCostFlow({ supply: [1, 0], source: [0], target: [1], cost: [1] })).toThrow(
      InfeasibleFlowError,
    );
  });
});

describe('the assignment (loops of any length, the items metric)', () => {
  it('trades the most items, then the cheapest wants (checked against every assignment)', () => {
    for (let round = 0; round < 80; round++) {
      const n = 2 + Math.floor(random() * 6);
      const graph = randomTradeGraph(random, {
        items: n,
        density: 0.35,
        maxCost: 9,
        owner: (i) => `u${i % 3}`,
        dummy: () => random() < 0.25,
      });
      const wantCost = new Map(graph.wants.map((want) => [want.from * n + want.to, want.cost]));
      // Brute force: each item receives an item it wants or keeps its own; most real items, then cost.
      let best = { items: 0, cost: 0 };
      for (const perm of permutations(n)) {
        let items = 0;
        let cost = 0;
        let valid = true;
        perm.forEach((to, from) => {
          if (to === from) return;
          const want = wantCost.get(from * n + to);
          if (want === undefined) valid = false;
          else {
            cost += want;
            if (!graph.items[from]?.dummy) items++;
          }
        });
        if (valid && (items > best.items || (items === best.items && cost < best.cost)))
          best = { items, cost };
      }
      const solution = solveAssignment(graph);
      expect({ items: solution.itemsTraded, cost: solution.cost }, `round ${round}`).toEqual(best);
      const used = solution.loops.flat();
      expect(new Set(used).size).toBe(used.length);
      for (const loop of solution.loops) {
        loop.forEach((from, i) => {
          expect(wantCost.has(from * n + (loop[(i + 1) % loop.length] as number))).toBe(true);
        });
      }
    }
  });
});
