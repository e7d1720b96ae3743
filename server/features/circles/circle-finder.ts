import { CIRCLE_MAX_MEMBERS } from '../../../common/schemas/circles';
import { loadHighs, ModelBuilder } from './engine/solver';

/**
 * The circle finder's pure part (ADR 029): from hand-overs members could make (giver's item that
 * the receiver wants, within both travel distances), find circles of 2 to 4 members, drop unfair
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
 * and get are (a log ratio; 0.25 when a value is unknown), plus how weak each match is.
 */
export function circleCost(circle: FoundCircle): number {
  let cost = 0;
  for (const { gives, gets } of exchanges(circle)) {
    cost += gives === null || gets === null ? 0.25 : Math.abs(Math.log((gives + 1) / (gets + 1)));
  }
  for (const step of circle.steps) cost += (100 - Math.max(0, Math.min(100, step.score))) / 200;
  return cost;
}

/**
 * Every simple circle of 2..`maxSize` members in the graph, each once. With `through`, only circles
 * with at least one of those members (rooted at the first of them in sort order, so each once).
 */
export function enumerateCircles(
  graph: MemberGraph,
  options: { through?: ReadonlySet<string>; maxSize?: number } = {},
): FoundCircle[] {
  const maxSize = options.maxSize ?? CIRCLE_MAX_MEMBERS;
  const found: FoundCircle[] = [];
  const through = options.through;
  const roots = [...(through ?? graph.keys())].sort();
  const rank = new Map(roots.map((id, i) => [id, i]));
  const path: CircleEdge[] = [];
  const onPath = new Set<string>();
  // A node may follow root r when it is not a root ranked before r (that circle was found from there).
  const allowed = (id: string, rootRank: number) => {
    const r = rank.get(id);
    if (through) return r === undefined || r > rootRank;
    return r !== undefined && r > rootRank;
  };
  const visit = (root: string, rootRank: number, at: string) => {
    for (const [to, edge] of graph.get(at) ?? []) {
      if (to === root) {
        if (path.length + 1 >= 2) found.push({ steps: [...path, edge] });
        continue;
      }
      if (onPath.has(to) || path.length + 1 >= maxSize || !allowed(to, rootRank)) continue;
      onPath.add(to);
      path.push(edge);
      visit(root, rootRank, to);
      path.pop();
      onPath.delete(to);
    }
  };
  roots.forEach((root, rootRank) => {
    onPath.add(root);
    visit(root, rootRank, root);
    onPath.delete(root);
  });
  return found;
}

/**
 * The best set of circles sharing no member (and so no item), lexicographically: most members,
 * then most circles (shorter ones), then lowest cost. Exact (an integer program in HiGHS).
 */
export async function chooseCircles(circles: readonly FoundCircle[]): Promise<FoundCircle[]> {
  const fair = circles.filter((circle) => !isUnfair(circle));
  if (fair.length === 0) return [];
  const model = new ModelBuilder();
  const byMember = new Map<string, number[]>();
  const cols = fair.map((circle) => {
    const col = model.column(0, true);
    for (const step of circle.steps) {
      const list = byMember.get(step.giverId) ?? [];
      list.push(col);
      byMember.set(step.giverId, list);
    }
    return col;
  });
  for (const list of byMember.values()) if (list.length > 1) model.row(list, 0, 1);
  const values = model.solve(await loadHighs(), {
    objectives: [
      { coefficients: fair.map((circle) => -circle.steps.length), priority: 3 },
      { coefficients: fair.map(() => -1), priority: 2 },
      { coefficients: fair.map(circleCost), priority: 1 },
    ],
  });
  return fair.filter((_, i) => (values[cols[i] as number] ?? 0) > 0.5);
}
