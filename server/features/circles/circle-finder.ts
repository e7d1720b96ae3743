import { CIRCLE_MAX_MEMBERS, CIRCLE_MIN_MEMBERS } from '#common/schemas/circles.ts';
import { ModelBuilder } from './engine/model-builder';
import { loadHighs } from './engine/solver';

/**
 * The circle finder's pure part (ADR 029): from hand-overs members could make (giver's item that
 * the receiver wants, within both travel distances), find circles of 3 to 4 members, drop unfair
 * ones, and choose a set that uses no member twice, maximising members who trade, then the number of
 * circles (so shorter ones), then closeness of values and the quality of the matches.
 */

/** "`giverId` could give `itemId` to `receiverId`, who wants it (want `wantId`, Barter Match score)". */
export interface CircleEdge {
  giverId: string;
  receiverId: string;
  itemId: number;
  wantId: number;
  score: number;
  /** The item's estimated value, when its owner gave one. */
  value: number | null;
  /** Miles between the two (the match graph's coarse distance), when read. */
  miles?: number | null;
  /** How likely the hand-over happens (0..1, ADR 081: the giver's record, the way), when weighed. */
  likelihood?: number;
  /** How many days the receiver's want has waited, when weighed. */
  waitingDays?: number;
}

/** A circle in order: each step's receiver gives the next step (the last one's the first's giver). */
export interface FoundCircle {
  steps: CircleEdge[];
}

/** One member gives more than twice what they get, and at least this much more, by the values given. */
export const UNFAIR_RATIO = 2;
export const UNFAIR_GAP = 25;

/** Best hand-over from each giver to each receiver: the highest score, then the lowest item id. */
export type MemberGraph = Map<string, Map<string, CircleEdge>>;

export function memberGraph(edges: Iterable<CircleEdge>): MemberGraph {
  const graph: MemberGraph = new Map();
  for (const edge of edges) {
    if (edge.giverId === edge.receiverId) continue;
    let out = graph.get(edge.giverId);
    if (!out) {
      out = new Map();
      graph.set(edge.giverId, out);
    }
    const best = out.get(edge.receiverId);
    if (!best || edge.score > best.score || (edge.score === best.score && edge.itemId < best.itemId)) {
      out.set(edge.receiverId, edge);
    }
  }
  return graph;
}

/** What each member gives and gets in a circle, by position (member i gets step i-1's item). */
function exchanges(circle: FoundCircle): Array<{ gives: number | null; gets: number | null }> {
  const n = circle.steps.length;
  return circle.steps.map((step, i) => ({
    gives: step.value,
    gets: circle.steps[(i + n - 1) % n]?.value ?? null,
  }));
}

/** Someone gives something worth far more than they get (both values known). */
export function isUnfair(circle: FoundCircle): boolean {
  return exchanges(circle).some(({ gives, gets }) => {
    if (gives === null || gets === null) return false;
    return gives > gets * UNFAIR_RATIO && gives - gets >= UNFAIR_GAP;
  });
}

/**
 * How far the circle is from ideal (lower is better): per member, how far apart the values they give
 * and get are (a log ratio; 0.25 when a value is unknown), plus how weak each match is, plus how
 * unlikely it is to complete when its hand-overs were weighed (ADR 081: -ln of each hand-over's
 * likelihood, less a little for how long each receiver has waited).
 */
export function circleCost(circle: FoundCircle): number {
  let cost = 0;
  for (const { gives, gets } of exchanges(circle)) {
    cost += gives === null || gets === null ? 0.25 : Math.abs(Math.log((gives + 1) / (gets + 1)));
  }
  for (const step of circle.steps) cost += (100 - Math.max(0, Math.min(100, step.score))) / 200;
  return cost + likelihoodCost(circle.steps);
}

/** Waiting counts up to this many days; a want waiting that long takes WAITING_WEIGHT off the cost. */
export const WAITING_DAYS_CAP = 60;
export const WAITING_WEIGHT = 0.2;

/** The part of a circle's cost that weighs likelihood and waiting, from its edges (0 when unweighed). */
export function likelihoodCost(steps: readonly CircleEdge[]): number {
  let cost = 0;
  for (const step of steps) {
    if (step.likelihood !== undefined) cost += -Math.log(Math.max(1e-6, step.likelihood));
    if (step.waitingDays !== undefined) {
      cost -= (WAITING_WEIGHT * Math.min(WAITING_DAYS_CAP, Math.max(0, step.waitingDays))) / WAITING_DAYS_CAP;
    }
  }
  return cost;
}

/**
 * Every simple circle of `minSize`..`maxSize` members in the graph (3 to 4 unless told: a pair is a
 * barter suggestion, never a circle, ADR 074), each once. With `through`, only circles
 * with at least one of those members (rooted at the first of them in sort order, so each once).
 * Members are numbered and each root's in-neighbours marked, so closing a circle is an array read
 * and the last member of a path is only ever one who gives back to the root.
 */
export function enumerateCircles(
  graph: MemberGraph,
  options: { through?: ReadonlySet<string>; minSize?: number; maxSize?: number } = {},
): FoundCircle[] {
  const minSize = Math.max(2, options.minSize ?? CIRCLE_MIN_MEMBERS);
  const maxSize = options.maxSize ?? CIRCLE_MAX_MEMBERS;
  const through = options.through;
  // Number every member: roots first (in sort order), then the rest.
  const roots = [...(through ?? graph.keys())].sort();
  const index = new Map<string, number>(roots.map((id, i) => [id, i]));
  for (const [giver, out] of graph) {
    for (const id of [giver, ...out.keys()]) if (!index.has(id)) index.set(id, index.size);
  }
  const n = index.size;
  const outs: Array<Array<{ to: number; edge: CircleEdge }>> = Array.from({ length: n }, () => []);
  const ins: Array<Array<{ from: number; edge: CircleEdge }>> = Array.from({ length: n }, () => []);
  for (const [giver, out] of graph) {
    const g = index.get(giver) as number;
    for (const [receiver, edge] of out) {
      const r = index.get(receiver) as number;
      outs[g]?.push({ to: r, edge });
      ins[r]?.push({ from: g, edge });
    }
  }
  // A member may follow root r when they are not a root numbered before r (found from there);
  // without `through`, every member is a root, so only members numbered after r.
  const rootCount = roots.length;
  const allowed = (member: number, root: number) =>
    through ? member >= rootCount || member > root : member > root;
  const backTo: Array<CircleEdge | undefined> = new Array(n);
  const onPath = new Uint8Array(n);
  const path: CircleEdge[] = [];
  const found: FoundCircle[] = [];
  const visit = (root: number, at: number, members: number) => {
    const closing = backTo[at];
    if (closing && members >= minSize) found.push({ steps: [...path, closing] });
    if (members >= maxSize) return;
    const last = members + 1 === maxSize;
    for (const { to, edge } of outs[at] ?? []) {
      if (onPath[to] || !allowed(to, root) || (last && !backTo[to])) continue;
      onPath[to] = 1;
      path.push(edge);
      visit(root, to, members + 1);
      path.pop();
      onPath[to] = 0;
    }
  };
  for (let root = 0; root < rootCount; root++) {
    const incoming = ins[root] ?? [];
    for (const { from, edge } of incoming) if (allowed(from, root)) backTo[from] = edge;
    onPath[root] = 1;
    visit(root, root, 1);
    onPath[root] = 0;
    for (const { from } of incoming) backTo[from] = undefined;
  }
  return found;
}

/** Circles per group of overlapping ones solved by trying every choice; larger groups go to HiGHS. */
export const EXHAUSTIVE_LIMIT = 12;
/** Larger groups than this get the best found in time (a run's choice takes one pool thread, ADR 048). */
export const EXACT_LIMIT = 400;
/** How long HiGHS may improve on the greedy choice for such a group. */
export const LARGE_GROUP_SECONDS = 1;

/**
 * The best set of circles sharing no member (and so no item), lexicographically: most members,
 * then most circles (shorter ones), then lowest cost. Circles that share no member with any other
 * are simply chosen; each group of overlapping ones is solved alone: the best one when they all
 * share a member (the common case after one member's change), by trying every choice when
 * small (no solver start-up), by an exact integer program in
 * HiGHS up to EXACT_LIMIT circles, and beyond that (a dense neighbourhood) by HiGHS starting from
 * the greedy choice for LARGE_GROUP_SECONDS, keeping the best found (never worse than greedy).
 */
export async function chooseCircles(circles: readonly FoundCircle[]): Promise<FoundCircle[]> {
  const fair = circles.filter((circle) => !isUnfair(circle));
  const chosen: FoundCircle[] = [];
  for (const group of overlappingGroups(fair)) {
    if (group.length === 1) chosen.push(...group);
    else if (shareOneMember(group)) chosen.push(bestSingle(group));
    else if (group.length <= EXHAUSTIVE_LIMIT) chosen.push(...chooseExhaustively(group));
    else if (group.length <= EXACT_LIMIT) chosen.push(...(await chooseWithSolver(group)));
    else chosen.push(...(await chooseLargeGroup(group)));
  }
  return chosen;
}

const membersOf = (circle: FoundCircle) => circle.steps.map((step) => step.giverId);

/** Every circle of the group has one member in common (so at most one can be chosen). */
function shareOneMember(group: readonly FoundCircle[]): boolean {
  const [first, ...rest] = group;
  if (!first) return false;
  return membersOf(first).some((id) => rest.every((circle) => membersOf(circle).includes(id)));
}

/** The best one circle: the most members, then the lowest cost. */
function bestSingle(group: readonly FoundCircle[]): FoundCircle {
  let best = group[0] as FoundCircle;
  let bestCost = circleCost(best);
  for (const circle of group.slice(1)) {
    const cost = circleCost(circle);
    if (
      better(
        { members: circle.steps.length, circles: 1, cost },
        { members: best.steps.length, circles: 1, cost: bestCost },
      )
    ) {
      best = circle;
      bestCost = cost;
    }
  }
  return best;
}

/** Circles in groups: two circles sharing a member are in one group (union-find over members). */
function overlappingGroups(circles: readonly FoundCircle[]): FoundCircle[][] {
  const parent = new Map<string, string>();
  const find = (id: string): string => {
    let root = id;
    while (parent.get(root) !== undefined && parent.get(root) !== root) root = parent.get(root) as string;
    parent.set(id, root);
    return root;
  };
  for (const circle of circles) {
    const [first, ...rest] = membersOf(circle);
    if (first === undefined) continue;
    if (!parent.has(first)) parent.set(first, first);
    for (const id of rest) {
      if (!parent.has(id)) parent.set(id, id);
      parent.set(find(id), find(first));
    }
  }
  const groups = new Map<string, FoundCircle[]>();
  for (const circle of circles) {
    const root = find(membersOf(circle)[0] as string);
    const group = groups.get(root) ?? [];
    group.push(circle);
    groups.set(root, group);
  }
  return [...groups.values()];
}

/** Is a better than b: more members, then more circles, then lower cost. */
const better = (a: { members: number; circles: number; cost: number }, b: typeof a) =>
  a.members !== b.members
    ? a.members > b.members
    : a.circles !== b.circles
      ? a.circles > b.circles
      : a.cost < b.cost - 1e-9;

function chooseExhaustively(group: readonly FoundCircle[]): FoundCircle[] {
  const costs = group.map(circleCost);
  let best = { members: 0, circles: 0, cost: 0, picked: [] as number[] };
  const visit = (index: number, used: Set<string>, picked: number[], members: number, cost: number) => {
    if (index === group.length) {
      const candidate = { members, circles: picked.length, cost, picked };
      if (better(candidate, best)) best = { ...candidate, picked: [...picked] };
      return;
    }
    visit(index + 1, used, picked, members, cost);
    const ids = membersOf(group[index] as FoundCircle);
    if (ids.some((id) => used.has(id))) return;
    for (const id of ids) used.add(id);
    picked.push(index);
    visit(index + 1, used, picked, members + ids.length, cost + (costs[index] as number));
    picked.pop();
    for (const id of ids) used.delete(id);
  };
  visit(0, new Set(), [], 0, 0);
  return best.picked.map((index) => group[index] as FoundCircle);
}

async function chooseWithSolver(group: readonly FoundCircle[]): Promise<FoundCircle[]> {
  const model = new ModelBuilder();
  const byMember = new Map<string, number[]>();
  const cols = group.map((circle) => {
    const col = model.column(0, true);
    for (const id of membersOf(circle)) {
      const list = byMember.get(id) ?? [];
      list.push(col);
      byMember.set(id, list);
    }
    return col;
  });
  for (const list of byMember.values()) if (list.length > 1) model.row(list, 0, 1);
  const values = model.solve(await loadHighs(), {
    objectives: [
      { coefficients: group.map((circle) => -circle.steps.length), priority: 3 },
      { coefficients: group.map(() => -1), priority: 2 },
      { coefficients: group.map(circleCost), priority: 1 },
    ],
  });
  return group.filter((_, i) => (values[cols[i] as number] ?? 0) > 0.5);
}

/** Largest circles first, then the cheapest, each taken when its members are still free. */
function chooseGreedily(group: readonly FoundCircle[]): Set<number> {
  const costs = group.map(circleCost);
  const order = group
    .map((_, i) => i)
    .sort(
      (a, b) =>
        (group[b] as FoundCircle).steps.length - (group[a] as FoundCircle).steps.length ||
        (costs[a] as number) - (costs[b] as number),
    );
  const used = new Set<string>();
  const picked = new Set<number>();
  for (const i of order) {
    const ids = membersOf(group[i] as FoundCircle);
    if (ids.some((id) => used.has(id))) continue;
    for (const id of ids) used.add(id);
    picked.add(i);
  }
  return picked;
}

async function chooseLargeGroup(group: readonly FoundCircle[]): Promise<FoundCircle[]> {
  const greedy = chooseGreedily(group);
  const model = new ModelBuilder();
  const byMember = new Map<string, number[]>();
  for (const [i, circle] of group.entries()) {
    model.column(0, true);
    for (const id of membersOf(circle)) {
      const list = byMember.get(id) ?? [];
      list.push(i);
      byMember.set(id, list);
    }
  }
  for (const list of byMember.values()) if (list.length > 1) model.row(list, 0, 1);
  // One objective: members first by far; more circles and lower cost only break ties among them.
  const values = model.solve(await loadHighs(), {
    objectives: [
      {
        coefficients: group.map(
          (circle) => -circle.steps.length * 1000 - 1 + Math.min(circleCost(circle), 50) / 100,
        ),
        priority: 1,
      },
    ],
    timeLimitSeconds: LARGE_GROUP_SECONDS,
    incumbentOnTimeLimit: true,
    start: group.map((_, i) => (greedy.has(i) ? 1 : 0)),
  });
  const solved = group.filter((_, i) => (values[i] ?? 0) > 0.5);
  const members = (circles: readonly FoundCircle[]) => circles.reduce((sum, c) => sum + c.steps.length, 0);
  const greedyChoice = group.filter((_, i) => greedy.has(i));
  return members(solved) >= members(greedyChoice) ? solved : greedyChoice;
}
