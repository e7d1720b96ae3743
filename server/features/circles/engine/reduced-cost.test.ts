import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { TradeGraph } from './graph';
import { kidneyTradeGraph, parsePreflibKidney } from './kidney';
import { ModelBuilder } from './model-builder';
import { bestDisjointLoops, randomTradeGraph, seededRandom } from './random-graphs';
import { type BoundLoop, chooseLoopsByBound } from './reduced-cost';
import { enumerateLoops, loadHighs } from './solver';

const random = seededRandom(11);

function summary(loops: readonly BoundLoop[], chosen: readonly number[]) {
  const items = chosen.flatMap((j) => loops[j]?.items ?? []);
  expect(new Set(items).size, 'an item in two chosen loops').toBe(items.length);
  return {
    items: chosen.reduce((sum, j) => sum + (loops[j]?.real ?? 0), 0),
    cost: chosen.reduce((sum, j) => sum + (loops[j]?.cost ?? 0), 0),
  };
}

describe('capped loops by the LP bound and reduced-cost fixing', () => {
  it('finds the most items, then the cheapest, on random graphs with dummies (checked by brute force)', async () => {
    const runtime = await loadHighs();
    const proofs = new Set<string>();
    for (let round = 0; round < 12; round++) {
      const n = 6 + Math.floor(random() * 4);
      const graph = randomTradeGraph(random, {
        items: n,
        density: 0.4,
        maxCost: 6,
        dummy: (i) => round % 3 === 2 && i === 0,
      });
      for (const cap of [2, 3, 4]) {
        const loops = enumerateLoops(graph, cap);
        if (loops.length > 400) continue;
        const expected = bestDisjointLoops(loops);
        // Samples of 2 loops: the growing samples, and the whole kept set, are all exercised.
        for (const firstSample of [2, 4000]) {
          const choice = chooseLoopsByBound(runtime, n, loops, { firstSample });
          expect(choice).not.toBeNull();
          if (!choice) continue;
          expect(summary(loops, choice.chosen), `round ${round} cap ${cap}`).toEqual(expected);
          expect(choice.bound).toBeGreaterThanOrEqual(expected.items - 1e-6);
          proofs.add(choice.costProof);
        }
      }
    }
    // Both ways of proving the cost came up (a lowered target: the next test).
    expect([...proofs].sort()).toEqual(['bound', 'integer program']);
  });

  it('lowers the target when the LP bound is fractional above the integer optimum', async () => {
    const runtime = await loadHighs();
    // Three items that each swap with the other two: the LP takes every swap at one half (3 items);
    // only one swap (2 items) fits. The cheapest swap is b <-> c.
    const graph: TradeGraph = {
      items: ['a', 'b', 'c'].map((name) => ({ name, owner: name, dummy: false })),
      wants: [
        { from: 0, to: 1, cost: 3 },
        { from: 1, to: 0, cost: 3 },
        { from: 1, to: 2, cost: 1 },
        { from: 2, to: 1, cost: 2 },
        { from: 0, to: 2, cost: 2 },
        { from: 2, to: 0, cost: 2 },
      ],
    };
    const loops = enumerateLoops(graph, 2);
    const choice = chooseLoopsByBound(runtime, 3, loops, { firstSample: 1 });
    expect(choice?.bound).toBeCloseTo(3);
    expect(choice?.steps.map((step) => step.target)).toContain(3);
    expect(choice?.steps.at(-1)?.target).toBe(2);
    expect(choice && summary(loops, choice.chosen)).toEqual({ items: 2, cost: 3 });
    expect(choice?.chosen.map((j) => [...(loops[j]?.items ?? [])].sort())).toEqual([[1, 2]]);
  });

  it('matches the integer program over every loop on a kidney pool (MD-00001-00000015, chains, at most 4)', async () => {
    const runtime = await loadHighs();
    const fixture = (name: string) =>
      readFileSync(new URL(`./fixtures/kidney/${name}`, import.meta.url), 'utf8');
    const pool = parsePreflibKidney(fixture('MD-00001-00000015.wmd'), fixture('MD-00001-00000015.dat'));
    const { graph } = kidneyTradeGraph(pool, { chains: true });
    const loops = enumerateLoops(graph, 4);
    const model = new ModelBuilder();
    const byItem: number[][] = Array.from({ length: graph.items.length }, () => []);
    loops.forEach((loop) => {
      const col = model.column(0, true);
      for (const item of loop.items) byItem[item]?.push(col);
    });
    for (const list of byItem) if (list.length > 1) model.row(list, 0, 1);
    const values = model.solve(runtime, {
      objectives: [
        { coefficients: loops.map((loop) => -loop.real), priority: 2 },
        { coefficients: loops.map((loop) => loop.cost), priority: 1 },
      ],
    });
    const full = summary(
      loops,
      loops.flatMap((_, j) => ((values[j] ?? 0) > 0.5 ? [j] : [])),
    );
    expect(full.items).toBe(16);
    for (const firstSample of [50, 4000]) {
      const choice = chooseLoopsByBound(runtime, graph.items.length, loops, { firstSample });
      expect(choice && summary(loops, choice.chosen)).toEqual(full);
    }
  });
});
