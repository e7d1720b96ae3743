import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { closeWorkerPool } from '#server/workers/pool.ts';
import type { TradeGraph } from './graph';
import { bestDisjointLoops, randomTradeGraph, seededRandom } from './random-graphs';
import { solveTradesOffThread } from './solve-off-thread';
import { enumerateLoops, solveTrades as solveHere, TooManyLoopsError } from './solver';
import { parseTradelist, TradelistError } from './tradelist';

// Every solver test runs twice: on this thread, and through the worker pool (issue 27, ADR 048),
// which must give the same answers; the published trades below run through the pool.
const solvers = [
  ['on this thread', solveHere],
  ['in the worker pool', solveTradesOffThread],
] as const;
afterAll(() => closeWorkerPool());

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const names = (graph: TradeGraph, loops: number[][]) =>
  loops.map((loop) => loop.map((item) => graph.items[item]?.name).join('>'));

describe('the TradeMaximizer want-list format', () => {
  it('reads options, official names, user names, colons, ranks and per-user dummies', () => {
    const { graph, options, unknownWants } = parseTradelist(`
#! ALLOW-DUMMIES REQUIRE-COLONS REQUIRE-USERNAMES
# a comment
!BEGIN-OFFICIAL-NAMES
A1 ==> "Catan" (from ann)
B1 ==> "Azul" (from bob)
C1 ==> "Wingspan" (from cat)
!END-OFFICIAL-NAMES
(ann) A1 : B1 ; %mine
(ann) %mine : C1
(bob) B1: A1 NOPE
(bob) %mine : A1
(cat) C1 : A1 B1
`);
    expect(options).toEqual(['ALLOW-DUMMIES', 'REQUIRE-COLONS', 'REQUIRE-USERNAMES']);
    expect(graph.items.map((item) => [item.name, item.owner, item.dummy])).toEqual([
      ['A1', 'ann', false],
      ['%mine', 'ann', true],
      ['B1', 'bob', false],
      ['%mine', 'bob', true],
      ['C1', 'cat', false],
    ]);
    // Ann's %mine is hers, Bob's is his; `;` is a bigger step down (rank 1, then 1 + 9).
    expect(graph.wants).toEqual([
      { from: 0, to: 2, cost: 1 },
      { from: 0, to: 1, cost: 10 },
      { from: 1, to: 4, cost: 1 },
      { from: 2, to: 0, cost: 1 },
      { from: 3, to: 0, cost: 1 },
      { from: 4, to: 0, cost: 1 },
      { from: 4, to: 2, cost: 2 },
    ]);
    expect(unknownWants).toBe(1);
  });

  it('says which line is wrong', () => {
    for (const [text, line, message] of [
      ['#! REQUIRE-COLONS\n(a) A B', 2, /colon/],
      ['#! REQUIRE-USERNAMES\nA : B', 2, /user name/],
      ['(a) A : B\n(b) A : C', 2, /two want lists/],
      ['(a A : B', 1, /\)/],
      ['!BEGIN-OFFICIAL-NAMES\nA', 2, /never end/],
      ['!FROBNICATE', 1, /unknown directive/],
    ] as const) {
      const error = (() => {
        try {
          parseTradelist(text);
        } catch (caught) {
          return caught;
        }
      })();
      expect(error, text).toBeInstanceOf(TradelistError);
      expect((error as TradelistError).line, text).toBe(line);
      expect((error as Error).message, text).toMatch(message);
    }
  });
});

describe.each(solvers)('the solver (%s)', (_, solveTrades) => {
  const triangle = parseTradelist(`
(a) A : B C
(b) B : A C
(c) C : A
(d) D : A
`).graph;

  it('trades the most items with loops of any length, else the best loops within a cap', async () => {
    const free = await solveTrades(triangle);
    expect(free).toMatchObject({ itemsTraded: 3, membersTrading: 3 });
    expect(names(triangle, free.loops)).toEqual(['A>B>C']);
    const pairs = await solveTrades(triangle, { maxCycle: 2 });
    expect(names(triangle, pairs.loops)).toEqual(['A>B']);
    expect((await solveTrades(triangle, { maxCycle: 3 })).itemsTraded).toBe(3);
  });

  it('prefers cheaper wants among solutions trading as many items', async () => {
    // A and B could swap for each other (their first choices) or each go around with C and D.
    const graph = parseTradelist(`
(a) A : B C
(b) B : A D
(c) C : D A
(d) D : C B
`).graph;
    const solution = await solveTrades(graph);
    expect(solution.itemsTraded).toBe(4);
    expect(solution.cost).toBe(4);
    expect(names(graph, solution.loops).sort()).toEqual(['A>B', 'C>D']);
  });

  it('never counts dummies as traded items, and lets them chain', async () => {
    const graph = parseTradelist(`
(ann) A : %x
(ann) %x : B
(bob) B : A
`).graph;
    const solution = await solveTrades(graph);
    expect(solution).toMatchObject({ itemsTraded: 2, membersTrading: 2 });
    expect(solution.loops[0]).toHaveLength(3);
  });

  it('gives the exact optimum for caps 2, 3 and 4 (checked by brute force on random graphs)', async () => {
    const random = seededRandom(7);
    for (let round = 0; round < 25; round++) {
      const n = 5 + Math.floor(random() * 5);
      const graph = randomTradeGraph(random, { items: n, density: 0.3, maxCost: 5 });
      for (const cap of [2, 3, 4]) {
        const loops = enumerateLoops(graph, cap);
        // Brute force: the largest total length of pairwise disjoint loops.
        const best = bestDisjointLoops(loops).items;
        const solution = await solveTrades(graph, { maxCycle: cap });
        expect(solution.itemsTraded, `round ${round} cap ${cap}`).toBe(best);
        for (const loop of solution.loops) expect(loop.length).toBeLessThanOrEqual(cap);
        const used = solution.loops.flat();
        expect(new Set(used).size).toBe(used.length);
      }
    }
  });

  describe("items, then members (a swap day's order)", () => {
    // Ann and Ben bring two things each. Either Ann and Ben swap both pairs and Cal and Dee swap
    // (6 items among 4 members), or all five go around one loop (5 items, 5 members): Eve's only way in.
    const moreItems = parseTradelist(`
(ann) A1 : B2 B1
(ann) A2 : B1
(ben) B1 : A2 C1
(ben) B2 : A1
(cal) C1 : D1
(dee) D1 : C1 E1
(eve) E1 : A1
`).graph;
    // Five items either way: Ann and Ben swap, Ann, Ben and Cal go around (3 members, every member's
    // first choice, cost 5), or all five go around one loop (5 members, two second choices, cost 7).
    const tie = parseTradelist(`
(ann) A1 : B2 B1
(ann) A2 : B1
(ben) B1 : C1
(ben) B2 : A1
(cal) C1 : A2 D1
(dee) D1 : E1
(eve) E1 : A1
`).graph;
    const sorted = (graph: TradeGraph, loops: number[][]) =>
      names(graph, loops)
        .map((loop) => loop.split('>').sort().join(' '))
        .sort();

    it('more items beat more members: items-users trades what items does, users differs', async () => {
      const items = await solveTrades(moreItems, { metric: 'items' });
      const itemsUsers = await solveTrades(moreItems, { metric: 'items-users' });
      const users = await solveTrades(moreItems, { metric: 'users' });
      expect(items).toMatchObject({ itemsTraded: 6, membersTrading: 4 });
      expect(itemsUsers).toMatchObject({ itemsTraded: 6, membersTrading: 4 });
      expect(sorted(moreItems, itemsUsers.loops)).toEqual(['A1 B2', 'A2 B1', 'C1 D1']);
      expect(users).toMatchObject({ itemsTraded: 5, membersTrading: 5 });
      expect(sorted(moreItems, users.loops)).toEqual(['A1 B1 C1 D1 E1']);
    });

    it('among as many items, the most members, even at a higher preference cost', async () => {
      const items = await solveTrades(tie, { metric: 'items' });
      expect(items).toMatchObject({ itemsTraded: 5, membersTrading: 3, cost: 5 });
      expect(sorted(tie, items.loops)).toEqual(['A1 B2', 'A2 B1 C1']);
      const itemsUsers = await solveTrades(tie, { metric: 'items-users' });
      expect(itemsUsers).toMatchObject({ itemsTraded: 5, membersTrading: 5, cost: 7 });
      expect(sorted(tie, itemsUsers.loops)).toEqual(['A1 B1 C1 D1 E1']);
      // With a cap the five-loop is out of reach: the best within it.
      const capped = await solveTrades(tie, { metric: 'items-users', maxCycle: 3 });
      expect(capped).toMatchObject({ itemsTraded: 5, membersTrading: 3 });
      const cappedMore = await solveTrades(moreItems, { metric: 'items-users', maxCycle: 5 });
      expect(cappedMore).toMatchObject({ itemsTraded: 6, membersTrading: 4 });
    });

    it('then the cheapest preferences among as many items and members', async () => {
      // Two ways to trade all four items among the same two members: first choices win.
      const graph = parseTradelist(`
(ann) A1 : B1 B2
(ann) A2 : B2 B1
(ben) B1 : A1 A2
(ben) B2 : A2 A1
`).graph;
      const solution = await solveTrades(graph, { metric: 'items-users' });
      expect(solution).toMatchObject({ itemsTraded: 4, membersTrading: 2, cost: 4 });
      expect(sorted(graph, solution.loops)).toEqual(['A1 B1', 'A2 B2']);
    });
  });

  it('refuses a cap whose loops are too many to enumerate, instead of running out of memory', () => {
    const n = 30;
    const graph: TradeGraph = {
      items: Array.from({ length: n }, (_, i) => ({ name: `I${i}`, owner: `u${i}`, dummy: false })),
      wants: [],
    };
    for (let from = 0; from < n; from++)
      for (let to = 0; to < n; to++) if (from !== to) graph.wants.push({ from, to, cost: 1 });
    expect(() => enumerateLoops(graph, 4, 10_000)).toThrow(TooManyLoopsError);
  });
});

/**
 * Real math trades from BoardGameGeek's Online Want List Generator, as published with
 * TradeMaximizer's results in gioannidis/mathtrader (mathtrader/solver/solver_olwlg_test.cc,
 * GPL-3.0 test data; files under ./fixtures/olwlg-*.txt): TradeMaximizer traded 10 items in
 * Norway (June 2021), 105 in Greece (July 2021), 166 in Canada (summer 2021) and 638 in the UK
 * (June 2021). mathtrader's CP-SAT solver, maximising users first, found 101 items among 49 users
 * in Greece.
 */
// The published trades are large (seconds each): through the worker pool, the path the server takes.
describe('published BoardGameGeek math trades (in the worker pool)', () => {
  const solveTrades = solveTradesOffThread;
  it.each([
    ['olwlg-286103.txt', 10],
    ['olwlg-286928.txt', 105],
    ['olwlg-286870.txt', 166],
    ['olwlg-286149.txt', 638],
  ])(
    '%s: as many items as TradeMaximizer traded (%i)',
    async (file, items) => {
      const solution = await solveTrades(parseTradelist(fixture(file)).graph);
      expect(solution.itemsTraded).toBe(items);
    },
    60_000,
  );

  it('Greece with items, then members: TradeMaximizer’s 105 items, and 46 members trading (it had 43)', async () => {
    const solution = await solveTrades(parseTradelist(fixture('olwlg-286928.txt')).graph, {
      metric: 'items-users',
    });
    expect(solution).toMatchObject({ itemsTraded: 105, membersTrading: 46 });
  }, 60_000);

  it('Greece with members first: 49 members, 101 items (as mathtrader found)', async () => {
    const solution = await solveTrades(parseTradelist(fixture('olwlg-286928.txt')).graph, {
      metric: 'users',
    });
    expect(solution).toMatchObject({ membersTrading: 49, itemsTraded: 101 });
  }, 60_000);
});
