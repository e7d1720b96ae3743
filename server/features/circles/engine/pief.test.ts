import { describe, expect, it } from 'vitest';
import type { TradeGraph } from './graph';
import { solvePief } from './pief';
import { enumerateLoops, loadHighs } from './solver';

let seed = 5;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};

describe('the position-indexed formulation (capped loops without listing them)', () => {
  it('finds the most items, then the cheapest wants, within the cap (checked by brute force)', async () => {
    const runtime = await loadHighs();
    for (let round = 0; round < 10; round++) {
      const n = 5 + Math.floor(random() * 5);
      const graph: TradeGraph = {
        items: Array.from({ length: n }, (_, i) => ({ name: `I${i}`, owner: `u${i}`, dummy: false })),
        wants: [],
      };
      for (let from = 0; from < n; from++) {
        for (let to = 0; to < n; to++) {
          if (from !== to && random() < 0.35)
            graph.wants.push({ from, to, cost: 1 + Math.floor(random() * 5) });
        }
      }
      const wantCost = new Map(graph.wants.map((want) => [`${want.from}>${want.to}`, want.cost]));
      for (const cap of [2, 3, 4]) {
        const loops = enumerateLoops(graph, cap);
        let best = { items: 0, cost: 0 };
        const pick = (from: number, used: Set<number>, items: number, cost: number) => {
          if (items > best.items || (items === best.items && cost < best.cost)) best = { items, cost };
          for (let i = from; i < loops.length; i++) {
            const loop = loops[i];
            if (!loop || loop.items.some((item) => used.has(item))) continue;
            for (const item of loop.items) used.add(item);
            pick(i + 1, used, items + loop.items.length, cost + loop.cost);
            for (const item of loop.items) used.delete(item);
          }
        };
        pick(0, new Set(), 0, 0);
        const solution = solvePief(runtime, graph, cap);
        expect({ items: solution.itemsTraded, cost: solution.cost }, `round ${round} cap ${cap}`).toEqual(
          best,
        );
        const used = solution.loops.flat();
        expect(new Set(used).size).toBe(used.length);
        for (const loop of solution.loops) {
          expect(loop.length).toBeLessThanOrEqual(cap);
          loop.forEach((from, i) => {
            expect(wantCost.has(`${from}>${loop[(i + 1) % loop.length]}`)).toBe(true);
          });
        }
      }
    }
  });
});
