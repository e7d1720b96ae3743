import { eq, sql } from 'drizzle-orm';
import { BARTER_STATUS_LABELS } from '#common/barter-machine.ts';
import { BARTER_ERROR_CODES } from '#common/schemas/barters.ts';
import {
  HAND_OVER_PLAN_ERROR_CODES,
  type HandOverPlan,
  type RunningLateMinutes,
} from '#common/schemas/hand-over-plans.ts';
import type { NotificationKind } from '#common/schemas/notifications.ts';
import type { Db } from '../../db/client';
import { type HandOverPlanRow, handOverPlans } from '../../db/schema/hand-over-plans';
import type { BarterRequestRow } from '../../db/schema/trading';
import { users } from '../../db/schema/users';
import { conflict, HttpError } from '../../errors';
import { publishMemberEvents } from '../../events/publish';
import { notifyMember } from '../notifications';
import { liveSpot } from '../public-spots';
import { barterEvents, barterNotFound, otherMemberId } from './barters-service';
import { findRequestMembers } from './hand-over-codes-repository';
import { findRequestItems, lockRequest, threadIdOf } from './requests-repository';

// Planning the hand-over (issue 30, ADR 077): one current plan per accepted barter (a two-way
// barter, a circle's or a swap day's hand-over alike: all are barter requests). Every change locks
// the request first (FOR NO KEY UPDATE, as every barter action), so changes to one plan run one after
// another; each names the version it was made on, and a stale one is 409 HAND_OVER_PLAN_CHANGED.

type Member = { id: string };

const isMember = (row: Pick<BarterRequestRow, 'fromUserId' | 'toUserId'>, memberId: string) =>
  row.fromUserId === memberId || row.toUserId === memberId;

export function notAccepted(status: string): HttpError {
  const was = BARTER_STATUS_LABELS[status as keyof typeof BARTER_STATUS_LABELS]?.toLowerCase() ?? status;
  return conflict(
    `Hand-over plans are for accepted barters; this one is ${was}.`,
    BARTER_ERROR_CODES.transition,
  );
}

function changed(current: number | null): HttpError {
  return new HttpError(
    409,
    HAND_OVER_PLAN_ERROR_CODES.changed,
    'The hand-over plan changed meanwhile. Read it again and answer the new one.',
    { reason: current === null ? '' : String(current) },
  );
}

const wrongState = (message: string) => conflict(message, HAND_OVER_PLAN_ERROR_CODES.state);

/** A plan as the viewer sees it. */
export function presentPlan(row: HandOverPlanRow, viewerId: string): HandOverPlan {
  const side = (memberId: string | null) => (memberId === viewerId ? 'me' : 'other');
  return {
    version: row.version,
    state: row.agreedAt === null ? 'proposed' : 'agreed',
    proposedBy: side(row.proposedBy),
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    place: row.placeName,
    agreedAt: row.agreedAt?.toISOString() ?? null,
    late:
      row.lateMinutes !== null && row.lateAt !== null
        ? { by: side(row.lateBy), minutes: row.lateMinutes, at: row.lateAt.toISOString() }
        : null,
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function findPlan(db: Db, requestId: number): Promise<HandOverPlanRow | null> {
  const [row] = await db.select().from(handOverPlans).where(eq(handOverPlans.barterRequestId, requestId));
  return row ?? null;
}

/** The plan of a barter the member takes part in: 404 for others; null when not accepted or none yet. */
export async function getHandOverPlan(db: Db, member: Member, id: number): Promise<HandOverPlan | null> {
  const row = await findRequestMembers(db, id);
  if (!row || !isMember(row, member.id)) throw barterNotFound();
  if (row.status !== 'accepted') return null;
  const plan = await findPlan(db, id);
  return plan ? presentPlan(plan, member.id) : null;
}

/**
 * Run a change to a barter's plan in one transaction: the request locked, the member one of its two,
 * the barter accepted; `change` writes the plan and says whom to tell what. The other member's bell
 * entry and both members' 'barter' events go out in the same transaction.
 */
async function changePlan(
  db: Db,
  member: Member,
  id: number,
  change: (
    tx: Db,
    current: HandOverPlanRow | null,
    otherId: string | null,
  ) => Promise<{ row: HandOverPlanRow; kind: NotificationKind; count?: number }>,
): Promise<HandOverPlan> {
  return db.transaction(async (tx) => {
    const request = await lockRequest(tx, id);
    if (!request || !isMember(request, member.id)) throw barterNotFound();
    if (request.status !== 'accepted') throw notAccepted(request.status);
    const otherId = otherMemberId(request, member.id);
    const { row, kind, count } = await change(tx, await findPlan(tx, id), otherId);
    if (otherId) {
      // A hand_over_running_late entry carries the minutes in its count.
      await notifyMember(tx, { userId: otherId, kind, barterRequestId: id, actorId: member.id, count });
    }
    await publishMemberEvents(
      tx,
      barterEvents([
        { id, threadId: threadIdOf(request), fromUserId: request.fromUserId, toUserId: request.toUserId },
      ]),
    );
    return presentPlan(row, member.id);
  });
}

export interface PlanProposal {
  startsAt: Date;
  endsAt: Date;
  place: string;
  /** The version the member saw; null when they saw no plan. */
  replaces: number | null;
  /** A moderators' public spot (ADR 080): its name becomes the place. */
  spotId?: number | null;
}

/**
 * Propose a window and a place, or another one instead of the current plan (a suggestion in answer,
 * a change of mind, or a reschedule of an agreed plan): it becomes the current plan, proposed by the
 * member, waiting for the other's answer.
 */
export function proposeHandOverPlan(db: Db, member: Member, id: number, input: PlanProposal) {
  return changePlan(db, member, id, async (tx, current) => {
    if ((current?.version ?? null) !== input.replaces) throw changed(current?.version ?? null);
    // A chosen spot must still be on the list (400 unknown, 409 removed); the plan keeps its name.
    const spot = input.spotId ? await liveSpot(tx, input.spotId) : null;
    const now = new Date();
    const values = {
      proposedBy: member.id,
      startsAt: input.startsAt,
      endsAt: input.endsAt,
      placeName: spot?.name ?? input.place,
      spotId: spot?.id ?? null,
      agreedAt: null,
      lateBy: null,
      lateMinutes: null,
      lateAt: null,
      // A new plan (a reschedule too) is reminded again once agreed (ADR 078).
      remindedDayAt: null,
      remindedHourAt: null,
      updatedAt: now,
    };
    const [row] = await tx
      .insert(handOverPlans)
      .values({ barterRequestId: id, version: 1, ...values })
      .onConflictDoUpdate({
        target: handOverPlans.barterRequestId,
        set: { ...values, version: sql`${handOverPlans.version} + 1` },
      })
      .returning();
    if (!row) throw new Error(`hand-over plan of request ${id} not stored`);
    const kind: NotificationKind = current?.agreedAt ? 'hand_over_rescheduled' : 'hand_over_proposed';
    return { row, kind };
  });
}

/** The member who did not propose the current plan accepts it, naming its version. */
export function acceptHandOverPlan(db: Db, member: Member, id: number, version: number) {
  return changePlan(db, member, id, async (tx, current) => {
    if (!current) throw wrongState('There is no hand-over plan to accept yet.');
    if (current.version !== version) throw changed(current.version);
    if (current.agreedAt !== null) throw wrongState('This hand-over plan is already agreed.');
    if (current.proposedBy === member.id) {
      throw wrongState('You proposed this plan: the other member accepts it or suggests another.');
    }
    const [row] = await tx
      .update(handOverPlans)
      .set({ agreedAt: new Date(), updatedAt: new Date() })
      .where(eq(handOverPlans.barterRequestId, id))
      .returning();
    if (!row) throw new Error(`hand-over plan of request ${id} vanished`);
    return { row, kind: 'hand_over_agreed' };
  });
}

/** "I'm running late" on the agreed plan: the other member is told at once, with the minutes. */
export function runningLate(
  db: Db,
  member: Member,
  id: number,
  version: number,
  minutes: RunningLateMinutes,
) {
  return changePlan(db, member, id, async (tx, current) => {
    if (!current) throw wrongState('There is no hand-over plan yet.');
    if (current.version !== version) throw changed(current.version);
    if (current.agreedAt === null) throw wrongState('Only an agreed hand-over plan can be running late.');
    const now = new Date();
    const [row] = await tx
      .update(handOverPlans)
      .set({ lateBy: member.id, lateMinutes: minutes, lateAt: now, updatedAt: now })
      .where(eq(handOverPlans.barterRequestId, id))
      .returning();
    if (!row) throw new Error(`hand-over plan of request ${id} vanished`);
    return { row, kind: 'hand_over_running_late', count: minutes };
  });
}

/** What the calendar file needs: the agreed plan, the other member's first name, the items. */
export interface PlanForCalendar {
  id: number;
  plan: HandOverPlanRow;
  otherFirstName: string;
  give: string[];
  get: string[];
}

/** The agreed plan of an accepted barter, for its calendar file: 404 for others, 409 when not agreed. */
export async function planForCalendar(db: Db, member: Member, id: number): Promise<PlanForCalendar> {
  const request = await findRequestMembers(db, id);
  if (!request || !isMember(request, member.id)) throw barterNotFound();
  if (request.status !== 'accepted') throw notAccepted(request.status);
  const plan = await findPlan(db, id);
  if (!plan || plan.agreedAt === null) {
    throw wrongState('Only an agreed hand-over plan can be added to a calendar.');
  }
  const otherId = request.fromUserId === member.id ? request.toUserId : request.fromUserId;
  const [other] = otherId
    ? await db
        .select({ firstName: users.firstName, displayName: users.displayName })
        .from(users)
        .where(eq(users.id, otherId))
    : [];
  const mySide = request.fromUserId === member.id ? 'from' : 'to';
  const items = (await findRequestItems(db, [id])).get(id) ?? [];
  return {
    id,
    plan,
    otherFirstName: other?.firstName?.trim() || other?.displayName?.split(' ')[0] || 'your neighbor',
    give: items.filter((item) => item.side === mySide).map((item) => item.title),
    get: items.filter((item) => item.side !== mySide).map((item) => item.title),
  };
}
