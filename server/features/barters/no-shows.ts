import { and, desc, eq, sql } from 'drizzle-orm';
import { BARTER_STATUS_LABELS } from '#common/barter-machine.ts';
import { BARTER_ERROR_CODES } from '#common/schemas/barters.ts';
import { HAND_OVER_PLAN_ERROR_CODES } from '#common/schemas/hand-over-plans.ts';
import {
  type Attendance,
  CONFIRM_ATTENDANCE_HOURS,
  type DisputedNoShow,
  type HandOverRecord,
  isPoorRecord,
  NO_SHOW_ANSWER_HOURS,
  NO_SHOW_ERROR_CODES,
  type NoShowAnswer,
  type NoShowDecision,
  type NoShowReportView,
} from '#common/schemas/no-shows.ts';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/rows';
import { type HandOverPlanRow, handOverPlans } from '../../db/schema/hand-over-plans';
import { handOverAttendance, type NoShowReportRow, noShowReports } from '../../db/schema/no-shows';
import { type BarterRequestRow, barterRequests } from '../../db/schema/trading';
import type { UserRow } from '../../db/schema/users';
import { conflict, forbidden, HttpError, notFound } from '../../errors';
import { publishMemberEvents } from '../../events/publish';
import type { PeriodicJob } from '../../jobs/jobs-plugin';
import { notifyMember } from '../notifications';
import { recordModerationAction } from '../safety';
import { handOverRecordColumns } from '../trades';
import { barterEvents, barterNotFound, membersOf, otherMemberId } from './barters-service';
import { handOverCircles } from './hand-over-circles';
import { findRequestMembers } from './hand-over-codes-repository';
import { isSwapDayLoop, lockOpenCircleLegs } from './hand-over-legs-repository';
import {
  findPendingUsingItems,
  lockRequest,
  releaseItems,
  threadIdOf,
  updateRequest,
} from './requests-repository';

// Keeping your word (issue 30, ADR 079): "they didn't come" after an agreed plan's window passed,
// the reported member's answer within 48 hours, the moderators' decision on disputed reports, and
// "Confirm you'll be there" for members with a poor record. Every change locks the barter request
// first (FOR NO KEY UPDATE, as every barter action), so a report and a completion by code, or two
// reports, run one after the other.

type Member = { id: string };
const HOUR = 3_600_000;

const isMember = (row: Pick<BarterRequestRow, 'fromUserId' | 'toUserId'>, memberId: string) =>
  row.fromUserId === memberId || row.toUserId === memberId;

function notAccepted(status: string): HttpError {
  const was = BARTER_STATUS_LABELS[status as keyof typeof BARTER_STATUS_LABELS]?.toLowerCase() ?? status;
  return conflict(
    `Only an accepted barter's hand-over can be reported; this one is ${was}.`,
    BARTER_ERROR_CODES.transition,
  );
}

const answerBy = (row: NoShowReportRow) => new Date(row.createdAt.getTime() + NO_SHOW_ANSWER_HOURS * HOUR);

/** A report as a member of the barter sees it: never who made it. */
function presentReport(row: NoShowReportRow): NoShowReportView {
  return {
    id: row.id,
    planVersion: row.planVersion,
    createdAt: row.createdAt.toISOString(),
    answerBy: answerBy(row).toISOString(),
    answer: row.answer,
    note: row.answerNote,
    answeredAt: row.answeredAt?.toISOString() ?? null,
    decision: row.decision,
  };
}

async function findPlan(db: Db, id: number): Promise<HandOverPlanRow | null> {
  const [row] = await db.select().from(handOverPlans).where(eq(handOverPlans.barterRequestId, id));
  return row ?? null;
}

/** Members' hand-over records ("Kept N of M"), by id: one statement each (a barter's two members). */
export async function handOverRecordsOf(
  db: Db,
  userIds: ReadonlyArray<string | null>,
  now = new Date(),
): Promise<Map<string, HandOverRecord>> {
  const records = new Map<string, HandOverRecord>();
  const ids = [...new Set(userIds.filter((id): id is string => id !== null))];
  for (const id of ids) {
    const record = handOverRecordColumns(sql`${id}::uuid`, now);
    const [row] = await queryRows<{ kept: number; due: number }>(
      db,
      sql`SELECT ${record.kept} AS kept, ${record.due} AS due`,
    );
    records.set(id, { kept: Number(row?.kept ?? 0), due: Number(row?.due ?? 0) });
  }
  return records;
}

/** When "Confirm you'll be there" is open for an agreed plan: from 24 hours before until the window ends. */
function confirmOpen(plan: HandOverPlanRow | null, now: Date): plan is HandOverPlanRow {
  return (
    plan !== null &&
    plan.agreedAt !== null &&
    now.getTime() >= plan.startsAt.getTime() - CONFIRM_ATTENDANCE_HOURS * HOUR &&
    now.getTime() < plan.endsAt.getTime()
  );
}

/** What the barter page shows about keeping your word; 404 for anyone but the barter's two members. */
export async function getAttendance(db: Db, member: Member, id: number): Promise<Attendance> {
  const request = await findRequestMembers(db, id);
  if (!request || !isMember(request, member.id)) throw barterNotFound();
  const now = new Date();
  const otherId = request.fromUserId === member.id ? request.toUserId : request.fromUserId;
  const [plan, reports] = await Promise.all([
    findPlan(db, id),
    db
      .select()
      .from(noShowReports)
      .where(eq(noShowReports.barterRequestId, id))
      .orderBy(desc(noShowReports.id)),
  ]);
  const agreed = plan?.agreedAt ? plan : null;
  const myReport = reports.find((row) => row.reporterId === member.id) ?? null;
  const aboutMe = reports.find((row) => row.reportedId === member.id) ?? null;
  const canReport =
    request.status === 'accepted' &&
    agreed !== null &&
    agreed.endsAt.getTime() <= now.getTime() &&
    !reports.some((row) => row.reporterId === member.id && row.planVersion === agreed.version);

  let confirm: Attendance['confirm'] = {
    askMe: false,
    myConfirmedAt: null,
    otherAsked: false,
    otherConfirmedAt: null,
  };
  if (request.status === 'accepted' && confirmOpen(agreed, now)) {
    const [records, confirmations] = await Promise.all([
      handOverRecordsOf(db, [member.id, otherId], now),
      db
        .select()
        .from(handOverAttendance)
        .where(
          and(eq(handOverAttendance.barterRequestId, id), eq(handOverAttendance.planVersion, agreed.version)),
        ),
    ]);
    const poor = (userId: string | null) => {
      const record = userId ? records.get(userId) : undefined;
      return record !== undefined && isPoorRecord(record);
    };
    const confirmedAt = (userId: string | null) =>
      confirmations.find((row) => row.memberId === userId)?.confirmedAt.toISOString() ?? null;
    confirm = {
      askMe: poor(member.id),
      myConfirmedAt: confirmedAt(member.id),
      otherAsked: poor(otherId),
      otherConfirmedAt: confirmedAt(otherId),
    };
  }
  return {
    planVersion: agreed?.version ?? null,
    canReport,
    myReport: myReport ? presentReport(myReport) : null,
    aboutMe: aboutMe ? presentReport(aboutMe) : null,
    confirm,
  };
}

/** Both members' pages follow live: a 'barter' event each, in the change's transaction. */
async function tellPages(tx: Db, request: BarterRequestRow): Promise<void> {
  await publishMemberEvents(
    tx,
    barterEvents([
      {
        id: request.id,
        threadId: threadIdOf(request),
        fromUserId: request.fromUserId,
        toUserId: request.toUserId,
      },
    ]),
  );
}

/**
 * "They didn't come": the member reports that the other did not come to the agreed plan's window
 * (`version`), once the window has ended and while the barter is still accepted (not completed).
 * The other member's bell says "Your trading partner reported..." (no actor: the entry names nobody).
 */
export async function reportNoShow(db: Db, member: Member, id: number, version: number): Promise<Attendance> {
  await db.transaction(async (tx) => {
    const request = await lockRequest(tx, id);
    if (!request || !isMember(request, member.id)) throw barterNotFound();
    if (request.status !== 'accepted') throw notAccepted(request.status);
    const plan = await findPlan(tx, id);
    if (!plan || plan.agreedAt === null) {
      throw conflict('There is no agreed hand-over plan to report on.', NO_SHOW_ERROR_CODES.noPlan);
    }
    if (plan.version !== version) {
      throw new HttpError(
        409,
        HAND_OVER_PLAN_ERROR_CODES.changed,
        'The hand-over plan changed meanwhile. Read it again.',
        { reason: String(plan.version) },
      );
    }
    if (Date.now() < plan.endsAt.getTime()) {
      throw conflict(
        'The hand-over window has not ended yet: you can report once it has passed.',
        NO_SHOW_ERROR_CODES.windowOpen,
      );
    }
    const reportedId = otherMemberId(request, member.id);
    const [row] = await tx
      .insert(noShowReports)
      .values({
        barterRequestId: id,
        planVersion: plan.version,
        windowEndsAt: plan.endsAt,
        reporterId: member.id,
        reportedId,
        createdAt: new Date(),
      })
      .onConflictDoNothing()
      .returning({ id: noShowReports.id });
    if (!row) {
      throw conflict('You already reported this hand-over.', NO_SHOW_ERROR_CODES.alreadyReported);
    }
    if (reportedId) {
      await notifyMember(tx, {
        userId: reportedId,
        kind: 'no_show_reported',
        barterRequestId: id,
        actorId: null,
      });
    }
    await tellPages(tx, request);
  });
  return getAttendance(db, member, id);
}

/**
 * The reported member answers "I was there" or "We rescheduled" (with an optional note) within 48
 * hours of the report; the report is then disputed and waits for a moderator.
 */
export async function answerNoShow(
  db: Db,
  member: Member,
  id: number,
  input: { answer: NoShowAnswer; note?: string | undefined },
): Promise<Attendance> {
  await db.transaction(async (tx) => {
    const request = await lockRequest(tx, id);
    if (!request || !isMember(request, member.id)) throw barterNotFound();
    const [report] = await tx
      .select()
      .from(noShowReports)
      .where(and(eq(noShowReports.barterRequestId, id), eq(noShowReports.reportedId, member.id)))
      .orderBy(desc(noShowReports.id))
      .limit(1);
    if (!report) throw notFound('Nobody reported this hand-over.');
    if (report.answer !== null) {
      throw conflict('You already answered this report.', NO_SHOW_ERROR_CODES.alreadyAnswered);
    }
    if (Date.now() > answerBy(report).getTime()) {
      throw conflict(
        `Reports can be answered within ${NO_SHOW_ANSWER_HOURS} hours; this one can no longer be answered.`,
        NO_SHOW_ERROR_CODES.answerClosed,
      );
    }
    const note = input.note?.trim() ? input.note.trim() : null;
    await tx
      .update(noShowReports)
      .set({ answer: input.answer, answerNote: note, answeredAt: new Date() })
      .where(eq(noShowReports.id, report.id));
    if (report.reporterId) {
      await notifyMember(tx, {
        userId: report.reporterId,
        kind: 'no_show_answered',
        barterRequestId: id,
        actorId: member.id,
      });
    }
    await tellPages(tx, request);
  });
  return getAttendance(db, member, id);
}

/** "Confirm you'll be there" on the agreed plan (`version`), from 24 hours before its window until it ends. */
export async function confirmAttendance(
  db: Db,
  member: Member,
  id: number,
  version: number,
): Promise<Attendance> {
  await db.transaction(async (tx) => {
    const request = await lockRequest(tx, id);
    if (!request || !isMember(request, member.id)) throw barterNotFound();
    if (request.status !== 'accepted') throw notAccepted(request.status);
    const plan = await findPlan(tx, id);
    if (plan && plan.version !== version) {
      throw new HttpError(
        409,
        HAND_OVER_PLAN_ERROR_CODES.changed,
        'The hand-over plan changed meanwhile. Read it again.',
        { reason: String(plan.version) },
      );
    }
    if (!confirmOpen(plan, new Date())) {
      throw conflict(
        `You can confirm from ${CONFIRM_ATTENDANCE_HOURS} hours before an agreed hand-over until its window ends.`,
        NO_SHOW_ERROR_CODES.confirmClosed,
      );
    }
    await tx
      .insert(handOverAttendance)
      .values({
        barterRequestId: id,
        memberId: member.id,
        planVersion: plan.version,
        confirmedAt: new Date(),
      })
      .onConflictDoNothing();
    await tellPages(tx, request);
  });
  return getAttendance(db, member, id);
}

/** Disputed reports (answered, not decided), oldest answer first: the moderators' queue. */
export async function disputedNoShows(db: Db, limit = 100): Promise<DisputedNoShow[]> {
  const rows = await queryRows<{
    id: number;
    barter_request_id: number;
    window_ends_at: Date | string;
    created_at: Date | string;
    answered_at: Date | string;
    answer: NoShowAnswer;
    answer_note: string | null;
    reporter_id: string | null;
    reporter_name: string | null;
    reported_id: string | null;
    reported_name: string | null;
  }>(
    db,
    sql`SELECT r.id, r.barter_request_id, r.window_ends_at, r.created_at, r.answered_at, r.answer, r.answer_note,
        r.reporter_id::text AS reporter_id,
        coalesce(a.display_name, a.first_name || ' ' || left(coalesce(a.last_name, ''), 1) || '.') AS reporter_name,
        r.reported_id::text AS reported_id,
        coalesce(b.display_name, b.first_name || ' ' || left(coalesce(b.last_name, ''), 1) || '.') AS reported_name
      FROM no_show_reports r
      LEFT JOIN users a ON a.id = r.reporter_id
      LEFT JOIN users b ON b.id = r.reported_id
      WHERE r.answer IS NOT NULL AND r.decision IS NULL
      ORDER BY r.answered_at, r.id
      LIMIT ${limit}::int`,
  );
  const iso = (value: Date | string) => new Date(value).toISOString();
  const ref = (userId: string | null, name: string | null) =>
    userId ? { id: userId, name: name?.trim() || 'Member' } : null;
  return rows.map((row) => ({
    id: Number(row.id),
    barterRequestId: Number(row.barter_request_id),
    windowEndsAt: iso(row.window_ends_at),
    createdAt: iso(row.created_at),
    answeredAt: iso(row.answered_at),
    answer: row.answer,
    note: row.answer_note,
    reporter: ref(row.reporter_id, row.reporter_name),
    reported: ref(row.reported_id, row.reported_name),
  }));
}

/**
 * A moderator decides a disputed report: 'kept' (counts for the reported member), 'missed' (against
 * them) or 'dismissed' (counts nothing). Not a report they are part of.
 */
export async function decideNoShow(
  db: Db,
  moderator: Pick<UserRow, 'id'>,
  reportId: number,
  decision: NoShowDecision,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [report] = await tx
      .select()
      .from(noShowReports)
      .where(eq(noShowReports.id, reportId))
      .for('update');
    if (!report) throw notFound('No such report.');
    if (report.reporterId === moderator.id || report.reportedId === moderator.id) {
      throw forbidden('Another moderator must decide a report you are part of.');
    }
    if (report.answer === null || report.decision !== null) {
      throw conflict(
        'Only a disputed report waiting for a decision can be decided.',
        NO_SHOW_ERROR_CODES.notDisputed,
      );
    }
    const now = new Date();
    await tx
      .update(noShowReports)
      .set({ decision, decidedBy: moderator.id, decidedAt: now })
      .where(eq(noShowReports.id, reportId));
    // Settled as missed: a circle's hand-over heals its circle at once (ADR 081).
    if (decision === 'missed') await settleMissed(tx, report, now);
    // Kept in the audit log like every moderator action: who decided, about whom, what.
    await recordModerationAction(tx, {
      moderatorId: moderator.id,
      action: `no_show_${decision}`,
      targetKind: 'no_show',
      targetId: String(report.id),
      targetUserId: report.reportedId,
      reason: `No-show report on barter ${report.barterRequestId}: ${decision}`,
    });
  });
}

// ------------------------------------------------------------------------------------------------
// Settling a missed hand-over of a circle (ADR 081)

/**
 * Settle `report` as missed, in `tx` with the report row locked by the caller (FOR UPDATE), once
 * (`healed_at`): the reported member did not answer within 48 hours, or a moderator decided 'missed'.
 * On a hand-over of an accepted trade circle, the member who did not come leaves the circle: every
 * open hand-over of the circle is cancelled and its items released, as when a member cancels one (a
 * circle's hand-over cannot happen alone; completed ones stay completed), their members told; then
 * the circle closes and those left are offered a circle in its place, with a replacement or fewer
 * members, in this same transaction (circles' `missed`: what can still happen stays in it, and a
 * member whose two hand-overs are unchanged keeps their acceptance). Nothing else for a two-way
 * barter or a swap day's loop, nor once the hand-over completed or was cancelled meanwhile. Whether
 * a circle was settled.
 */
export async function settleMissed(tx: Db, report: NoShowReportRow, now: Date): Promise<boolean> {
  if (report.healedAt !== null) return false;
  await tx.update(noShowReports).set({ healedAt: now }).where(eq(noShowReports.id, report.id));
  const missing = report.reportedId;
  const [target] = await tx
    .select({ circleId: barterRequests.circleId })
    .from(barterRequests)
    .where(eq(barterRequests.id, report.barterRequestId));
  const circleId = target?.circleId ?? null;
  if (circleId === null || !missing || (await isSwapDayLoop(tx, circleId))) return false;
  // Every open hand-over of the circle locked in id order: two settles of one circle (the job's and a
  // moderator's, on two reports) wait for each other rather than lock each other's hand-overs.
  const legs = await lockOpenCircleLegs(tx, circleId, -1);
  const request = legs.find((leg) => leg.id === report.barterRequestId);
  // Completed by code, or cancelled (with its circle, or by an earlier settle): nothing to heal.
  if (!request) return false;
  const released: number[] = [];
  for (const leg of legs) {
    released.push(...(await releaseItems(tx, leg.id)));
    // Closed by nobody: the page says a member of the circle missed a hand-over.
    await updateRequest(tx, leg.id, { status: 'cancelled', closedById: null });
  }
  for (const leg of legs) {
    for (const userId of new Set([leg.fromUserId, leg.toUserId])) {
      if (userId)
        await notifyMember(tx, { userId, kind: 'barter_cancelled', barterRequestId: leg.id, actorId: null });
    }
  }
  await handOverCircles().missed(tx, circleId, missing, released, now);
  const freed = await findPendingUsingItems(tx, released, request.id, now);
  await publishMemberEvents(tx, barterEvents([...legs.map(membersOf), ...freed]));
  return true;
}

/** Reports settled per transaction; a backlog is worked off batch by batch. */
export const NO_SHOW_SETTLE_BATCH = 50;

/**
 * Settle every report left unanswered for 48 hours on an accepted circle's hand-over (`settleMissed`),
 * a batch per transaction: the rows are claimed FOR UPDATE SKIP LOCKED (a moderator's decision or
 * another process holding one is left to it) and marked `healed_at`, so none heals twice. Safe beside
 * other processes running it. How many circles were settled.
 */
export async function settleDueNoShows(
  db: Db,
  now = new Date(),
  batch = NO_SHOW_SETTLE_BATCH,
): Promise<number> {
  let total = 0;
  for (;;) {
    const claimed = await db.transaction(async (tx) => {
      const due = new Date(now.getTime() - NO_SHOW_ANSWER_HOURS * HOUR);
      const rows = await tx
        .select()
        .from(noShowReports)
        .where(
          and(
            sql`${noShowReports.answer} IS NULL`,
            sql`${noShowReports.decision} IS NULL`,
            sql`${noShowReports.healedAt} IS NULL`,
            sql`${noShowReports.createdAt} <= ${due.toISOString()}::timestamptz`,
          ),
        )
        .orderBy(noShowReports.createdAt, noShowReports.id)
        .limit(batch)
        .for('update', { skipLocked: true });
      for (const report of rows) {
        if (await settleMissed(tx, report, now)) total += 1;
      }
      return rows.length;
    });
    if (claimed < batch) return total;
  }
}

/** The minute sweep that notices reports left unanswered for 48 hours (ADR 081). */
export const noShowSettleJob: PeriodicJob = {
  name: 'no-show-settle',
  seconds: (config) => config.barterExpirySweepSeconds,
  run: async (app) => {
    const settled = await settleDueNoShows(app.db);
    if (settled > 0) app.log.info({ settled }, 'settled missed hand-overs of circles');
  },
};
