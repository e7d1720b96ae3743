import { CIRCLE_EXPIRY_MS, CIRCLE_MIN_MEMBERS } from '#common/schemas/circles.ts';
import type { Db } from '../../db/client';
import type { CircleMemberRow } from '../../db/schema/trading';
import { loadHealingEdges } from './circle-edges';
import {
  type CircleEdge,
  circleCost,
  enumerateCircles,
  type FoundCircle,
  isUnfair,
  memberGraph,
} from './circle-finder';
import { weighEdges } from './circle-likelihood';
import { CircleGoneError, findHiddenPairs, freeMembers, insertCircle } from './circles-repository';

/**
 * Circles that heal (issue 30, ADR 081). When members leave a proposed circle (one declines, or the
 * three days pass with some not answering), the members left are offered, in the same transaction, a
 * circle that replaces it: the same loop with a replacement for the one missing member (someone near
 * who wants what the previous member gives and has what the next one wants), or else a shorter
 * circle of at least CIRCLE_MIN_MEMBERS among those left. Hand-overs that still can happen stay, and
 * so does the acceptance of a member whose two hand-overs (what they give to whom, what they get
 * from whom) are unchanged. Those who left are never in the replacement. A few indexed reads and a
 * loop over the previous member's neighbours: no worker thread needed (bench: docs/performance.md).
 */

export interface Healed {
  circleId: number;
  /** 'replacement': one new member in the missing one's place; 'shorter': fewer members. */
  kind: 'replacement' | 'shorter';
  /** Members of the new circle who were in the old one, and the one who joins (if any). */
  stayed: string[];
  joined: string | null;
}

const handOverKey = (giverId: string, itemId: number, receiverId: string) =>
  `${giverId}|${itemId}|${receiverId}`;

/**
 * Heal circle `circleId` (already closed in `tx`) whose `steps` are in order, after the members in
 * `leaving` left. The circle proposed in its place, or null when none can be found (then it simply
 * stays dissolved).
 */
export async function healCircle(
  tx: Db,
  circleId: number,
  steps: readonly CircleMemberRow[],
  leaving: ReadonlySet<string>,
  now: Date,
): Promise<Healed | null> {
  const n = steps.length;
  const gone = (step: CircleMemberRow | undefined) =>
    !step?.memberId || !step.itemId || leaving.has(step.memberId);
  const left = steps.filter((step) => !gone(step)).map((step) => step.memberId as string);
  if (left.length < 2) return null;
  const missing = steps.flatMap((step, i) => (gone(step) ? [i] : []));
  const at = missing.length === 1 ? (missing[0] as number) : null;
  const previous = at === null ? undefined : steps[(at + n - 1) % n];
  const next = at === null ? undefined : steps[(at + 1) % n];
  const gap =
    previous?.memberId && next?.memberId ? { previous: previous.memberId, next: next.memberId } : null;
  const oldMembers = new Set(steps.flatMap((step) => (step.memberId ? [step.memberId] : [])));
  for (const id of leaving) oldMembers.add(id);

  const edges = await weighEdges(tx, await loadHealingEdges(tx, left, gap, now), now);
  // The hand-overs of the old circle that can still happen (still in the graph, members still free).
  const byHandOver = new Map(
    edges.map((edge) => [handOverKey(edge.giverId, edge.itemId, edge.receiverId), edge]),
  );
  const kept = (i: number): CircleEdge | undefined => {
    const step = steps[i];
    const receiver = steps[(i + 1) % n];
    if (!step?.memberId || !step.itemId || !receiver?.memberId) return undefined;
    return byHandOver.get(handOverKey(step.memberId, step.itemId, receiver.memberId));
  };

  // Candidates: with a replacement first (as many members as before), else shorter ones.
  const candidates: FoundCircle[] = [];
  if (at !== null && gap && previous?.itemId) {
    const loop: Array<CircleEdge | undefined> = steps.map((_, i) =>
      i === at || i === (at + n - 1) % n ? undefined : kept(i),
    );
    if (loop.every((edge, i) => edge || i === at || i === (at + n - 1) % n)) {
      const gets = edges.filter(
        (edge) =>
          edge.giverId === gap.previous &&
          edge.itemId === previous.itemId &&
          !oldMembers.has(edge.receiverId),
      );
      const bestGiving = new Map<string, CircleEdge>();
      for (const edge of edges) {
        if (edge.receiverId !== gap.next || oldMembers.has(edge.giverId)) continue;
        const best = bestGiving.get(edge.giverId);
        if (!best || edge.score > best.score || (edge.score === best.score && edge.itemId < best.itemId)) {
          bestGiving.set(edge.giverId, edge);
        }
      }
      for (const toReplacement of gets) {
        const fromReplacement = bestGiving.get(toReplacement.receiverId);
        if (!fromReplacement) continue;
        const circle = loop.map((edge, i) =>
          i === at ? fromReplacement : i === (at + n - 1) % n ? toReplacement : edge,
        ) as CircleEdge[];
        candidates.push({ steps: circle });
      }
    }
  }
  if (left.length >= CIRCLE_MIN_MEMBERS) {
    const inLeft = new Set(left);
    const among = edges.filter((edge) => inLeft.has(edge.giverId) && inLeft.has(edge.receiverId));
    const graph = memberGraph(among);
    // Where the old hand-over between two members still can happen, it is the one kept.
    for (let i = 0; i < n; i++) {
      const edge = kept(i);
      if (edge) graph.get(edge.giverId)?.set(edge.receiverId, edge);
    }
    const shorter = enumerateCircles(graph, { minSize: CIRCLE_MIN_MEMBERS, maxSize: left.length }).filter(
      (circle) => circle.steps.every((step) => inLeft.has(step.giverId)),
    );
    candidates.push(...shorter);
  }
  if (candidates.length === 0) return null;

  // Fair ones whose members do not hide from each other and are free now (under the finder's lock,
  // so two heals or a heal and the finder never offer one member two circles).
  const everyone = [...new Set(candidates.flatMap((circle) => circle.steps.map((step) => step.giverId)))];
  const free = await freeMembers(tx, everyone, now);
  const hidden = await findHiddenPairs(tx, everyone);
  const fit = candidates.filter((circle) => {
    const ids = circle.steps.map((step) => step.giverId);
    if (!ids.every((id) => free.has(id)) || isUnfair(circle)) return false;
    return ids.every((a, i) => ids.every((b, j) => i === j || !hidden.has(`${a}|${b}`)));
  });
  // The most members, then the most likely (circleCost weighs each hand-over's likelihood).
  const ranked = fit
    .map((circle) => ({ circle, cost: circleCost(circle) }))
    .sort((a, b) => b.circle.steps.length - a.circle.steps.length || a.cost - b.cost);
  for (const { circle } of ranked) {
    const healed = await offer(tx, circleId, steps, circle, oldMembers, now);
    if (healed) return healed;
  }
  return null;
}

/** Store the healed circle (a savepoint: an item gone meanwhile leaves nothing behind). */
async function offer(
  tx: Db,
  circleId: number,
  steps: readonly CircleMemberRow[],
  circle: FoundCircle,
  oldMembers: ReadonlySet<string>,
  now: Date,
): Promise<Healed | null> {
  // A member's acceptance stays when what they give to whom and what they get from whom are unchanged.
  const n = steps.length;
  const oldGive = new Map<string, string>();
  const oldGet = new Map<string, string>();
  for (const [i, step] of steps.entries()) {
    const receiver = steps[(i + 1) % n];
    if (!step.memberId || !step.itemId || !receiver?.memberId) continue;
    oldGive.set(step.memberId, `${step.itemId}|${receiver.memberId}`);
    oldGet.set(receiver.memberId, `${step.memberId}|${step.itemId}`);
  }
  const accepted = new Map<string, Date>();
  const m = circle.steps.length;
  for (const [i, step] of circle.steps.entries()) {
    const before = circle.steps[(i + m - 1) % m] as CircleEdge;
    const row = steps.find((s) => s.memberId === step.giverId);
    if (
      row?.acceptedAt &&
      oldGive.get(step.giverId) === `${step.itemId}|${step.receiverId}` &&
      oldGet.get(step.giverId) === `${before.giverId}|${before.itemId}`
    ) {
      accepted.set(step.giverId, row.acceptedAt);
    }
  }
  try {
    const id = await tx.transaction((savepoint) =>
      insertCircle(savepoint, circle, new Date(now.getTime() + CIRCLE_EXPIRY_MS), {
        replaces: circleId,
        accepted,
      }),
    );
    const members = circle.steps.map((step) => step.giverId);
    const joined = members.find((member) => !oldMembers.has(member)) ?? null;
    return {
      circleId: id,
      kind: joined ? 'replacement' : 'shorter',
      stayed: members.filter((member) => oldMembers.has(member)),
      joined,
    };
  } catch (error) {
    if (error instanceof CircleGoneError) return null;
    throw error;
  }
}
