import {
  CIRCLE_ERROR_CODES,
  CIRCLE_EXPIRY_MS,
  CIRCLE_STATUS_LABELS,
  type CircleBox,
} from '#common/schemas/circles.ts';
import type { NotificationKind } from '#common/schemas/notifications.ts';
import type { Db } from '../../db/client';
import type { CircleMemberRow } from '../../db/schema/trading';
import { conflict, notFound } from '../../errors';
import { memberEvent, type NewMemberEvent, publishMemberEvents } from '../../events/publish';
import { runInPool } from '../../workers/pool';
import { createHandOvers, type LoopStep } from '../barters';
import { freeToGive, lockItemsInIdOrder } from '../items';
import { notifyMember } from '../notifications';
import { loadEdgesAround } from './circle-edges';
import type { FoundCircle } from './circle-finder';
import { type Healed, healCircle } from './circle-healing';
import { weighEdges } from './circle-likelihood';
import {
  CircleGoneError,
  type CircleView,
  circleSteps,
  expireDueCircles,
  findCircleList,
  findCircleView,
  findGivers,
  findHiddenPairs,
  freeMembers,
  insertCircle,
  lockBrokenCircles,
  lockCircle,
  markAccepted,
  markCircleChanges,
  updateCircle,
} from './circles-repository';
import { itemsInGraph } from './items-in-graph';

type Member = { id: string };

export const circleNotFound = () => notFound('Circle not found.');
const transition = (message: string) => conflict(message, CIRCLE_ERROR_CODES.transition);
const unavailable = () =>
  conflict(
    'An item in this circle is no longer available, so the circle fell through. We will look for another.',
    CIRCLE_ERROR_CODES.itemUnavailable,
  );

const membersOfSteps = (steps: readonly Pick<CircleMemberRow, 'memberId'>[]) =>
  [...new Set(steps.map((step) => step.memberId))].filter((id): id is string => id !== null);

/** 'circle' events to every member of a circle (their pages read it again). */
const circleEvents = (circleId: number, memberIds: readonly string[]): NewMemberEvent[] =>
  memberIds.map((userId) => memberEvent(userId, 'circle', { circleId }));

async function notifyAll(
  tx: Db,
  memberIds: readonly string[],
  kind: NotificationKind,
  circleId: number,
  actorId: string | null,
  except: string | null = null,
): Promise<void> {
  for (const userId of memberIds) {
    if (userId !== except) await notifyMember(tx, { userId, kind, barterRequestId: null, circleId, actorId });
  }
}

// ------------------------------------------------------------------------------------------------
// Finding and proposing

export interface FinderRun {
  /** Hand-overs considered, circles found (fair or not), circles proposed. */
  edges: number;
  found: number;
  proposed: number[];
}

/** Members looked at per step of a full run (each step is one incremental run). */
export const FULL_RUN_BATCH = 25;
/** The pool's limit for one batch's enumeration and choice (a dense neighbourhood takes seconds). */
export const FIND_CIRCLES_TIMEOUT_MS = 120_000;

/**
 * Find circles and propose the best set (ADR 029). With `members`, the circles through them (the
 * incremental path, after their matches changed): read around them, enumerate, choose, propose.
 * Without, every member who offers something, a batch at a time through the same path, yielding
 * between batches (the hourly full run; members proposed in one batch are busy for the next).
 * Each chosen circle is proposed in its own transaction, after checking under the finder's lock
 * that its members are still free and its items still listed.
 */
export async function findAndPropose(
  db: Db,
  members: readonly string[] | null,
  now = new Date(),
): Promise<FinderRun> {
  if (members === null) {
    const total: FinderRun = { edges: 0, found: 0, proposed: [] };
    const everyone = await findGivers(db);
    for (let i = 0; i < everyone.length; i += FULL_RUN_BATCH) {
      const run = await findAndPropose(db, everyone.slice(i, i + FULL_RUN_BATCH), now);
      total.edges += run.edges;
      total.found += run.found;
      total.proposed.push(...run.proposed);
      await new Promise((resolve) => setImmediate(resolve));
    }
    return total;
  }
  if (members.length === 0) return { edges: 0, found: 0, proposed: [] };
  // Each hand-over weighed by how likely it is to happen (ADR 081): records, distance, waiting.
  const edges = await weighEdges(db, await loadEdgesAround(db, members, now), now);
  if (edges.length === 0) return { edges: 0, found: 0, proposed: [] };
  // Members of one circle talk together: none may hide from another (blocks, ADR 025). Read for
  // every member the edges name (a superset of those in circles), so the pure part runs in one go.
  const hidden = await findHiddenPairs(db, [...new Set(edges.flatMap((e) => [e.giverId, e.receiverId]))]);
  // Enumerating and choosing (HiGHS for large groups) runs in the worker pool (ADR 048).
  const { found, chosen } = await runInPool(
    'findCircles',
    { edges, through: [...members], hidden: [...hidden] },
    { timeoutMs: FIND_CIRCLES_TIMEOUT_MS },
  );
  const proposed: number[] = [];
  for (const circle of chosen) {
    const id = await proposeCircle(db, circle, now);
    if (id !== null) proposed.push(id);
  }
  return { edges: edges.length, found, proposed };
}

/** Propose one circle: stored, every member notified and their pages told. Null when it went stale. */
async function proposeCircle(db: Db, circle: FoundCircle, now: Date): Promise<number | null> {
  try {
    return await db.transaction(async (tx) => {
      const memberIds = circle.steps.map((step) => step.giverId);
      const free = await freeMembers(tx, memberIds, now);
      if (free.size !== memberIds.length) return null;
      const id = await insertCircle(tx, circle, new Date(now.getTime() + CIRCLE_EXPIRY_MS));
      await notifyAll(tx, memberIds, 'circle_proposed', id, null);
      await publishMemberEvents(tx, circleEvents(id, memberIds));
      return id;
    });
  } catch (error) {
    if (error instanceof CircleGoneError) return null;
    throw error;
  }
}

// ------------------------------------------------------------------------------------------------
// Reads

export function listCircles(
  db: Db,
  member: Member,
  box: CircleBox,
  page: { limit: number; offset: number },
  now: Date,
): Promise<CircleView[]> {
  return findCircleList(db, member.id, box, page, now);
}

export async function getCircle(db: Db, member: Member, id: number): Promise<CircleView> {
  const view = await findCircleView(db, member.id, id);
  if (!view) throw circleNotFound();
  return view;
}

// ------------------------------------------------------------------------------------------------
// Answers

interface Locked {
  steps: CircleMemberRow[];
  mine: CircleMemberRow;
  memberIds: string[];
  now: Date;
}

/**
 * Lock circle `id` for an answer of `member` and check it is still waiting for them; 404 for
 * anyone outside it, 409 once it is settled or they answered.
 */
async function lockForAnswer(
  tx: Db,
  member: Member,
  id: number,
  action: 'accept' | 'decline',
): Promise<Locked> {
  const row = await lockCircle(tx, id);
  const steps = row ? await circleSteps(tx, id) : [];
  const mine = steps.find((step) => step.memberId === member.id);
  if (!row || !mine) throw circleNotFound();
  const now = new Date();
  const past = action === 'accept' ? 'accepted' : 'declined';
  if (row.status === 'proposed' && row.expiresAt.getTime() <= now.getTime()) {
    throw transition(`This circle expired, so it can no longer be ${past}.`);
  }
  if (row.status !== 'proposed') {
    const label = CIRCLE_STATUS_LABELS[row.status as keyof typeof CIRCLE_STATUS_LABELS] ?? row.status;
    throw transition(`This circle was already ${label.toLowerCase()}, so it can no longer be ${past}.`);
  }
  if (action === 'accept' && mine.acceptedAt !== null)
    throw transition('You have already accepted this circle.');
  return { steps, mine, memberIds: membersOfSteps(steps), now };
}

/**
 * Accept a proposed circle. When the member is the last to accept, the circle becomes accepted
 * barters, one per hand-over, through the barter machinery (reserved items, one conversation for
 * the circle), and every member is told. An item no longer available then dissolves the circle
 * (every member told, the finder looks again) and answers 409.
 */
export async function acceptCircle(db: Db, member: Member, id: number): Promise<void> {
  const fellThrough = await db.transaction(async (tx) => {
    const { steps, memberIds, now } = await lockForAnswer(tx, member, id, 'accept');
    await markAccepted(tx, id, member.id, now);
    const waiting = steps.some((step) => step.memberId !== member.id && step.acceptedAt === null);
    if (waiting) {
      await publishMemberEvents(tx, circleEvents(id, memberIds));
      return false;
    }
    const loop = loopOf(steps);
    const items = loop
      ? await lockItemsInIdOrder(
          tx,
          loop.map((step) => step.itemId),
          'no key update',
        )
      : [];
    const free = loop?.every((step) => {
      const item = items.find((candidate) => candidate.id === step.itemId);
      return freeToGive(item, step.giverId);
    });
    if (!free || !loop) {
      await updateCircle(tx, id, { status: 'cancelled', closedAt: now });
      await notifyAll(tx, memberIds, 'circle_unavailable', id, null);
      await markCircleChanges(tx, memberIds);
      await publishMemberEvents(tx, circleEvents(id, memberIds));
      return true;
    }
    await createHandOvers(tx, id, loop, { sharedThread: true, now });
    await updateCircle(tx, id, { status: 'accepted', acceptedAt: now });
    await notifyAll(tx, memberIds, 'circle_accepted', id, member.id);
    // Free for other circles again, with their other items.
    await markCircleChanges(tx, memberIds);
    await publishMemberEvents(tx, circleEvents(id, memberIds));
    return false;
  });
  if (fellThrough) throw unavailable();
}

/** The hand-overs of a circle's steps in order; null when a member or item is gone. */
function loopOf(steps: readonly CircleMemberRow[]): LoopStep[] | null {
  const loop: LoopStep[] = [];
  for (const [i, step] of steps.entries()) {
    const next = steps[(i + 1) % steps.length];
    if (!step.memberId || !step.itemId || !next?.memberId) return null;
    loop.push({ giverId: step.memberId, receiverId: next.memberId, itemId: step.itemId });
  }
  return loop;
}

/**
 * Decline a proposed circle: it dissolves, the others are told, and in the same transaction the
 * members left are offered a circle that replaces it (ADR 081), else the finder looks again.
 */
export async function declineCircle(db: Db, member: Member, id: number): Promise<Healed | null> {
  return db.transaction(async (tx) => {
    const { steps, memberIds, now } = await lockForAnswer(tx, member, id, 'decline');
    await updateCircle(tx, id, { status: 'declined', closedById: member.id, closedAt: now });
    await notifyAll(tx, memberIds, 'circle_declined', id, member.id, member.id);
    const healed = await healCircle(tx, id, steps, new Set([member.id]), now);
    await markCircleChanges(tx, memberIds);
    await publishMemberEvents(tx, circleEvents(id, memberIds));
    if (healed) await announceHealed(tx, healed);
    return healed;
  });
}

/**
 * A member missed a hand-over of accepted circle `circleId` (a no-show settled as missed, ADR 081):
 * barters have cancelled its open hand-overs and released their items (`released`). The circle
 * closes ('cancelled', closed by the member who missed), and in the same transaction those left are
 * offered a circle in its place (`healCircle`, as after a decline): the released items are put back
 * in the match graph first, since the graph left them out while they were reserved. Hand-overs that
 * can still happen stay in the circle offered, and a member whose two hand-overs are unchanged keeps
 * their acceptance; when it is accepted, its hand-overs are barters again (their items reserved anew).
 */
export async function healMissedCircle(
  tx: Db,
  circleId: number,
  missingId: string,
  released: readonly number[],
  now: Date,
): Promise<Healed | null> {
  const row = await lockCircle(tx, circleId);
  if (row?.status !== 'accepted') return null;
  const steps = await circleSteps(tx, circleId);
  const memberIds = membersOfSteps(steps);
  await updateCircle(tx, circleId, { status: 'cancelled', closedById: missingId, closedAt: now });
  await itemsInGraph().relist(tx, released);
  const healed = await healCircle(tx, circleId, steps, new Set([missingId]), now);
  await markCircleChanges(tx, memberIds);
  await publishMemberEvents(tx, circleEvents(circleId, memberIds));
  if (healed) await announceHealed(tx, healed);
  return healed;
}

/**
 * Tell the members of a healed circle (ADR 081): each gets 'circle_proposed' for the new circle
 * (which names the one it replaces) and a 'circle' event, as for any proposal.
 */
async function announceHealed(tx: Db, healed: Healed): Promise<void> {
  const memberIds = healed.joined ? [...healed.stayed, healed.joined] : healed.stayed;
  await notifyAll(tx, memberIds, 'circle_proposed', healed.circleId, null);
  await publishMemberEvents(tx, circleEvents(healed.circleId, memberIds));
}

// ------------------------------------------------------------------------------------------------
// Expiry and broken circles

/**
 * Expire every proposed circle due at `now`, batch by batch: every member told, the finder asked
 * to look at them again. How many expired.
 */
export async function expireDueCircleProposals(db: Db, now = new Date(), batch = 200): Promise<number> {
  let total = 0;
  for (;;) {
    const expired = await db.transaction(async (tx) => {
      const rows = await expireDueCircles(tx, now, batch);
      for (const circle of rows) {
        await notifyAll(tx, circle.memberIds, 'circle_expired', circle.id, null);
        // Those who let it expire unanswered leave; the others are offered a replacement (ADR 081).
        const steps = await circleSteps(tx, circle.id);
        const silent = steps.flatMap((step) =>
          step.memberId && step.acceptedAt === null ? [step.memberId] : [],
        );
        const healed = await healCircle(tx, circle.id, steps, new Set(silent), now);
        await markCircleChanges(tx, circle.memberIds);
        await publishMemberEvents(tx, circleEvents(circle.id, circle.memberIds));
        if (healed) await announceHealed(tx, healed);
      }
      return rows.length;
    });
    total += expired;
    if (expired < batch) return total;
  }
}

/**
 * Dissolve the live proposed circles of these members in which an item can no longer change hands
 * (hidden, deleted, reserved in a barter, given to someone else): every member told, the finder
 * asked to look again. How many dissolved.
 */
export async function dissolveBrokenCircles(
  db: Db,
  memberIds: readonly string[],
  now = new Date(),
): Promise<number> {
  if (memberIds.length === 0) return 0;
  return db.transaction(async (tx) => {
    const broken = await lockBrokenCircles(tx, memberIds, now);
    for (const circle of broken) {
      await updateCircle(tx, circle.id, { status: 'cancelled', closedAt: now });
      await notifyAll(tx, circle.memberIds, 'circle_unavailable', circle.id, null);
      await markCircleChanges(tx, circle.memberIds);
      await publishMemberEvents(tx, circleEvents(circle.id, circle.memberIds));
    }
    return broken.length;
  });
}
