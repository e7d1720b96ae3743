import { afterAll, describe, expect, it } from 'vitest';
import { closeWorkerPool, runInPool } from '../../workers/pool';
import {
  type CircleEdge,
  chooseCircles,
  circleCost,
  EXHAUSTIVE_LIMIT,
  enumerateCircles,
  type FoundCircle,
  isUnfair,
  memberGraph,
} from './circle-finder';
import { seededRandom } from './engine/random-graphs';

let nextItem = 1;
/** "giver gives an item to receiver", with a score and value. */
const edge = (giverId: string, receiverId: string, extra: Partial<CircleEdge> = {}): CircleEdge => ({
  giverId,
  receiverId,
  itemId: nextItem++,
  wantId: 1,
  score: 80,
  value: null,
  ...extra,
});

/** Each circle as its members in order, starting from the smallest, sorted: comparable sets. */
const shapes = (circles: FoundCircle[]) =>
  circles
    .map((circle) => {
      const ids = circle.steps.map((step) => step.giverId);
      const start = ids.indexOf([...ids].sort()[0] as string);
      return [...ids.slice(start), ...ids.slice(0, start)].join('>');
    })
    .sort();

describe('enumerateCircles', () => {
  const graph = memberGraph([
    edge('a', 'b'),
    edge('b', 'a'),
    edge('b', 'c'),
    edge('c', 'a'),
    edge('c', 'd'),
    edge('d', 'a'),
    // A loop of five: longer than any circle.
    edge('e', 'f'),
    edge('f', 'g'),
    edge('g', 'h'),
    edge('h', 'i'),
    edge('i', 'e'),
  ]);

  it('finds every circle of 3 to 4 members once, none longer, and never a pair (ADR 074)', () => {
    // a and b want each other's things: a barter suggestion, not a circle of two.
    expect(shapes(enumerateCircles(graph))).toEqual(['a>b>c', 'a>b>c>d']);
    expect(shapes(enumerateCircles(graph, { minSize: 2 }))).toEqual(['a>b', 'a>b>c', 'a>b>c>d']);
  });

  it('finds only the circles through the members asked about, each once', () => {
    expect(shapes(enumerateCircles(graph, { through: new Set(['d']) }))).toEqual(['a>b>c>d']);
    expect(shapes(enumerateCircles(graph, { through: new Set(['a']) }))).toEqual(['a>b>c', 'a>b>c>d']);
    expect(shapes(enumerateCircles(graph, { through: new Set(['c', 'd']) }))).toEqual(['a>b>c', 'a>b>c>d']);
    expect(shapes(enumerateCircles(graph, { through: new Set(['e']) }))).toEqual([]);
  });

  it('respects a smaller cap', () => {
    expect(shapes(enumerateCircles(graph, { maxSize: 3 }))).toEqual(['a>b>c']);
    expect(shapes(enumerateCircles(graph, { maxSize: 2 }))).toEqual([]);
    expect(shapes(enumerateCircles(graph, { minSize: 2, maxSize: 2 }))).toEqual(['a>b']);
  });

  it('keeps the best-scored item between two members', () => {
    const two = memberGraph([
      edge('a', 'b', { score: 40 }),
      edge('a', 'b', { score: 90, itemId: 500 }),
      edge('b', 'a'),
    ]);
    const [circle] = enumerateCircles(two, { minSize: 2 });
    expect(circle?.steps.find((step) => step.giverId === 'a')?.itemId).toBe(500);
  });
});

describe('fairness and cost', () => {
  const circleOf = (values: Array<number | null>) => ({
    steps: values.map((value, i) => edge(`m${i}`, `m${(i + 1) % values.length}`, { value })),
  });

  it('calls a circle unfair when someone gives more than twice what they get, and $25 more', () => {
    // m1 gives 400 and gets m0's 20.
    expect(isUnfair(circleOf([20, 400, 30]))).toBe(true);
    expect(isUnfair(circleOf([40, 35, 50]))).toBe(false);
    // Twice as much but only $10 apart: small things are fine.
    expect(isUnfair(circleOf([5, 15, 8]))).toBe(false);
    // Unknown values are never unfair.
    expect(isUnfair(circleOf([null, 400, 20]))).toBe(false);
  });

  it('costs less when values are closer', () => {
    expect(circleCost(circleOf([40, 42, 41]))).toBeLessThan(circleCost(circleOf([40, 70, 30])));
  });
});

describe('chooseCircles', () => {
  const circle = (...ids: string[]) => ({
    steps: ids.map((id, i) => edge(id, ids[(i + 1) % ids.length] as string)),
  });

  it('trades the most members, even with more, smaller circles', async () => {
    const chosen = await chooseCircles([circle('a', 'b', 'c'), circle('a', 'd'), circle('c', 'e')]);
    expect(shapes(chosen)).toEqual(['a>d', 'c>e']);
  });

  it('prefers two pairs to one circle of four over the same members', async () => {
    const chosen = await chooseCircles([circle('a', 'b', 'c', 'd'), circle('a', 'b'), circle('c', 'd')]);
    expect(shapes(chosen)).toEqual(['a>b', 'c>d']);
  });

  it('then prefers closer values', async () => {
    const close = {
      steps: ['a', 'b', 'c'].map((id, i, ids) => edge(id, ids[(i + 1) % 3] as string, { value: 40 + i })),
    };
    const far = {
      steps: ['a', 'c', 'b'].map((id, i, ids) =>
        edge(id, ids[(i + 1) % 3] as string, { value: [40, 60, 30][i] as number }),
      ),
    };
    expect(await chooseCircles([far, close])).toEqual([close]);
  });

  it('takes the best one of many circles through one member', async () => {
    const through = Array.from({ length: EXHAUSTIVE_LIMIT + 5 }, (_, i) => circle('me', `x${i}`));
    const big = circle('me', 'y1', 'y2', 'y3');
    const chosen = await chooseCircles([...through, big]);
    expect(chosen).toEqual([big]);
  });

  it('never proposes an unfair circle', async () => {
    const unfair = {
      steps: ['a', 'b'].map((id, i, ids) =>
        edge(id, ids[(i + 1) % 2] as string, { value: [10, 500][i] as number }),
      ),
    };
    expect(await chooseCircles([unfair])).toEqual([]);
  });

  it('solves large groups of overlapping circles with the integer program, as well as by hand', async () => {
    // Fourteen circles all through one member, plus pairs among the others: more than the
    // exhaustive limit, so HiGHS decides; the best takes the hub in one circle of three and every
    // other pair: 29 members.
    const spokes = Array.from({ length: EXHAUSTIVE_LIMIT + 2 }, (_, i) => circle('hub', `s${i}`, `t${i}`));
    const pairs = Array.from({ length: EXHAUSTIVE_LIMIT + 2 }, (_, i) => circle(`s${i}`, `t${i}`));
    const chosen = await chooseCircles([...spokes, ...pairs]);
    expect(chosen).toHaveLength(EXHAUSTIVE_LIMIT + 2);
    expect(chosen.reduce((sum, c) => sum + c.steps.length, 0)).toBe(2 * (EXHAUSTIVE_LIMIT + 2) + 1);
    expect(chosen.filter((c) => c.steps.length === 3)).toHaveLength(1);
  });

  it('matches brute force on random neighbourhoods', async () => {
    const random = seededRandom(7);
    for (let round = 0; round < 25; round++) {
      const names = Array.from({ length: 8 }, (_, i) => `n${i}`);
      const edges: CircleEdge[] = [];
      for (const a of names) for (const b of names) if (a !== b && random() < 0.3) edges.push(edge(a, b));
      const found = enumerateCircles(memberGraph(edges));
      const chosen = await chooseCircles(found);
      // Disjoint.
      const used = chosen.flatMap((c) => c.steps.map((s) => s.giverId));
      expect(new Set(used).size).toBe(used.length);
      // As many members as the best disjoint subset.
      let best = 0;
      const pick = (index: number, taken: Set<string>, members: number) => {
        best = Math.max(best, members);
        for (let i = index; i < found.length; i++) {
          const ids = (found[i] as FoundCircle).steps.map((s) => s.giverId);
          if (ids.some((id) => taken.has(id))) continue;
          pick(i + 1, new Set([...taken, ...ids]), members + ids.length);
        }
      };
      pick(0, new Set(), 0);
      expect(used.length, `round ${round}`).toBe(best);
    }
  });
});

describe('the finder in the worker pool (issue 27, ADR 048)', () => {
  afterAll(() => closeWorkerPool());

  it('finds and chooses what this thread does, on random neighbourhoods, and leaves out hidden pairs', async () => {
    let seed = 11;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 10; round++) {
      const names = Array.from({ length: 9 }, (_, i) => `n${i}`);
      const edges: CircleEdge[] = [];
      for (const a of names)
        for (const b of names)
          if (a !== b && random() < 0.35) edges.push(edge(a, b, { value: Math.floor(random() * 60) }));
      const through = names.slice(0, 4);
      const found = enumerateCircles(memberGraph(edges), { through: new Set(through) });
      const here = await chooseCircles(found);
      const pooled = await runInPool('findCircles', { edges, through, hidden: [] });
      expect(pooled, `round ${round}`).toEqual({ found: found.length, chosen: here });
    }
    // n0 blocked n1: no circle with both of them. (n1 and n2, who want each other's things, are no
    // circle of two either.)
    const edges = [
      edge('n0', 'n1'),
      edge('n1', 'n2'),
      edge('n2', 'n0'),
      edge('n2', 'n1'),
      edge('n2', 'n3'),
      edge('n3', 'n1'),
    ];
    const pooled = await runInPool('findCircles', {
      edges,
      through: ['n0', 'n1'],
      hidden: ['n0|n1', 'n1|n0'],
    });
    expect(pooled.found).toBe(2);
    expect(shapes(pooled.chosen)).toEqual(['n1>n2>n3']);
  });
});
