import { describe, expect, it } from 'vitest';
import { solvePief } from './pief';
import { bestDisjointLoops, randomTradeGraph, seededRandom } from './random-graphs';
import { enumerateLoops, loadHighs } from './solver';

const random = seededRandom(5);

describe('the position-indexed formulation (capped loops without listing them)', () => {
  it('finds the most items, then the cheapest wants, within the cap (checked by brute force)', async () => {
    const runtime = await loadHighs();
    for (let round = 0; round < 10; round++) {
      const n = 5 + Math.floor(random() * 5);
      const graph = randomTradeGraph(random, { items: n, density: 0.35, maxCost: 5 });
      const wantCost = new Map(graph.wants.map((want) => [`${want.from}>${want.to}`, want.cost]));
      for (const cap of [2, 3, 4]) {
        const loops = enumerateLoops(graph, cap);
        const best = bestDisjointLoops(loops);
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
