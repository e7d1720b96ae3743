import { and, desc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { memberDisplayName } from '#common/member-name.ts';
import {
  type AuditEntry,
  type ModerationCase,
  type ReportInput,
  type ResolveReportInput,
  SAFETY_ERROR_CODES,
} from '#common/schemas/safety.ts';
import type { Db } from '../../db/client';
import { moderationActions, reports } from '../../db/schema/safety';
import { barterRequests, items, messages, ratings } from '../../db/schema/trading';
import { type UserRow, users } from '../../db/schema/users';
import { badRequest, conflict, forbidden, isUniqueViolation, notFound } from '../../errors';
import { forgetCachedUser } from '../../plugins/session-cache';
import { endSessions, updateUserRow } from '../auth';
import { isMemberId } from '../member-refs';
import { notifyMember } from '../notifications';
import { releaseHeldItem } from './photo-screening';

/** Who the moderators see as the reporter of the photo screening's reports. */
export const SCREENING_REPORTER = 'Automatic photo screening';

type App = Pick<FastifyInstance, 'db' | 'mailer' | 'config' | 'log' | 'eventHub'>;
type ReportKind = ReportInput['targetKind'] | 'appeal';

/** A listing, message or rating id as stored in `reports.target_id`; null for anything else. */
const numericTarget = (id: string): number | null => (/^\d{1,9}$/.test(id) ? Number(id) : null);

const reportExists = () =>
  conflict('You already reported this. A moderator will look at it soon.', SAFETY_ERROR_CODES.reportExists);
const noSuchTarget = () => notFound('There is nothing to report there.');

/** Whose content the target is; 404 when it does not exist or the reporter cannot see it. */
async function ownerOfTarget(
  db: Db,
  reporterId: string,
  kind: ReportInput['targetKind'],
  id: string,
): Promise<string> {
  const numeric = numericTarget(id);
  if (kind === 'member') {
    if (!isMemberId(id)) throw noSuchTarget();
    const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, id));
    if (!row) throw noSuchTarget();
    return row.id;
  }
  if (numeric === null) throw noSuchTarget();
  if (kind === 'item') {
    const [row] = await db
      .select({ userId: items.userId, isActive: items.isActive })
      .from(items)
      .where(eq(items.id, numeric));
    if (!row || (!row.isActive && row.userId !== reporterId)) throw noSuchTarget();
    return row.userId;
  }
  if (kind === 'message') {
    // Only the two members of the conversation have seen it.
    const [row] = await db
      .select({ from: messages.fromUserId, to: messages.toUserId })
      .from(messages)
      .where(eq(messages.id, numeric));
    if (!row?.from || (row.from !== reporterId && row.to !== reporterId)) throw noSuchTarget();
    return row.from;
  }
  const [row] = await db.select({ raterId: ratings.raterId }).from(ratings).where(eq(ratings.id, numeric));
  if (!row?.raterId) throw noSuchTarget();
  return row.raterId;
}

/** File a report (one open report per reporter and target: 409 REPORT_EXISTS). */
export async function fileReport(db: Db, reporter: UserRow, input: ReportInput): Promise<{ id: number }> {
  const targetUserId = await ownerOfTarget(db, reporter.id, input.targetKind, input.targetId);
  if (targetUserId === reporter.id) throw badRequest("You can't report yourself or your own content.");
  try {
    const [row] = await db
      .insert(reports)
      .values({
        reporterId: reporter.id,
        targetKind: input.targetKind,
        targetId: input.targetId,
        targetUserId,
        reason: input.reason,
        note: input.note || null,
      })
      .returning({ id: reports.id });
    if (!row) throw new Error('insert into reports returned no row');
    return row;
  } catch (error) {
    if (isUniqueViolation(error, 'reports_open_unique')) throw reportExists();
    throw error;
  }
}

const appealPending = () =>
  conflict('Your appeal is with the moderators already.', SAFETY_ERROR_CODES.reportExists);

/**
 * A suspended member's appeal: a case of its own in the moderators' queue. Only a member whose
 * suspension is running may appeal (403 NOT_SUSPENDED otherwise: a warning restricts nothing, and a
 * banned member cannot sign in), and once per suspension (409 REPORT_EXISTS while it waits or after
 * a moderator decided it). A suspension is told apart by its audit entry; a new one may be appealed.
 */
export async function fileAppeal(db: Db, member: UserRow, text: string): Promise<void> {
  const now = new Date();
  if (!member.suspendedUntil || member.suspendedUntil <= now || member.bannedAt) {
    throw forbidden(
      'Only a suspended account can appeal, and yours is not suspended.',
      SAFETY_ERROR_CODES.notSuspended,
    );
  }
  const [earlier] = await db
    .select({ status: reports.status })
    .from(reports)
    .where(
      and(
        eq(reports.reporterId, member.id),
        eq(reports.targetKind, 'appeal'),
        eq(reports.targetId, member.id),
        sql`${reports.createdAt} >= (SELECT max(${moderationActions.createdAt}) FROM ${moderationActions}
          WHERE ${moderationActions.action} = 'suspend' AND ${moderationActions.targetUserId} = ${member.id})`,
      ),
    )
    .orderBy(desc(reports.createdAt))
    .limit(1);
  if (earlier?.status === 'open') throw appealPending();
  if (earlier) {
    throw conflict(
      'You appealed this suspension already and a moderator decided it.',
      SAFETY_ERROR_CODES.reportExists,
    );
  }
  try {
    await db.insert(reports).values({
      reporterId: member.id,
      targetKind: 'appeal',
      targetId: member.id,
      targetUserId: member.id,
      reason: 'other',
      note: text,
    });
  } catch (error) {
    // Two appeals sent at once: the open-report index keeps one.
    if (isUniqueViolation(error, 'reports_open_unique')) throw appealPending();
    throw error;
  }
}

/** 403 NOT_MODERATOR unless the member is a moderator. */
export function assertModerator(member: UserRow): void {
  if (member.role !== 'moderator')
    throw forbidden('Only moderators can do that.', SAFETY_ERROR_CODES.notModerator);
}

/** The reported things with their open reports, oldest first (at most `limit` cases). */
export async function openCases(db: Db, limit = 100): Promise<ModerationCase[]> {
  const reporter = sql`reporter`;
  const rows = await db
    .select({
      id: reports.id,
      targetKind: reports.targetKind,
      targetId: reports.targetId,
      targetUserId: reports.targetUserId,
      reason: reports.reason,
      note: reports.note,
      createdAt: reports.createdAt,
      reporterId: reports.reporterId,
      reporterFirst: sql<string | null>`${reporter}.first_name`,
      reporterLast: sql<string | null>`${reporter}.last_name`,
      reporterName: sql<string | null>`${reporter}.display_name`,
    })
    .from(reports)
    .leftJoin(sql`users reporter`, sql`${reporter}.id = ${reports.reporterId}`)
    .where(eq(reports.status, 'open'))
    .orderBy(reports.createdAt, reports.id)
    .limit(limit * 10);
  const byTarget = new Map<string, typeof rows>();
  for (const row of rows) {
    const key = `${row.targetKind}:${row.targetId}`;
    const group = byTarget.get(key);
    if (group) group.push(row);
    else byTarget.set(key, [row]);
  }
  const groups = [...byTarget.values()]
    .slice(0, limit)
    .flatMap((group) => (group[0] ? [{ first: group[0], group }] : []));
  // The owners and reported things of every case, one statement per table (no read per case).
  const idsOf = (kind: ReportKind) =>
    groups.flatMap(({ first }) => {
      const id = first.targetKind === kind ? numericTarget(first.targetId) : null;
      return id === null ? [] : [id];
    });
  const ownerIds = [
    ...new Set(groups.flatMap(({ first }) => (first.targetUserId ? [first.targetUserId] : []))),
  ];
  const [owners, itemRows, messageRows, ratingRows] = await Promise.all([
    ownerIds.length ? db.select().from(users).where(inArray(users.id, ownerIds)) : [],
    idsOf('item').length
      ? db
          .select()
          .from(items)
          .where(inArray(items.id, idsOf('item')))
      : [],
    idsOf('message').length
      ? db
          .select()
          .from(messages)
          .where(inArray(messages.id, idsOf('message')))
      : [],
    idsOf('rating').length
      ? db
          .select()
          .from(ratings)
          .where(inArray(ratings.id, idsOf('rating')))
      : [],
  ]);
  const found = {
    owners: new Map(owners.map((row) => [row.id, row])),
    items: new Map(itemRows.map((row) => [String(row.id), row])),
    messages: new Map(messageRows.map((row) => [String(row.id), row])),
    ratings: new Map(ratingRows.map((row) => [String(row.id), row])),
  };
  return groups.map(({ first, group }) => ({
    reportId: first.id,
    targetKind: first.targetKind,
    targetId: first.targetId,
    owner: ownerSummary(first.targetUserId ? found.owners.get(first.targetUserId) : undefined),
    ...targetContext(found, first.targetKind, first.targetId),
    reports: group.map((row) => ({
      id: row.id,
      reason: row.reason,
      note: row.note,
      // No reporter: the automatic photo screening (ADR 027); a reporter's account going takes their reports.
      reporterName: row.reporterId
        ? (row.reporterName ?? memberDisplayName(row.reporterFirst, row.reporterLast))
        : SCREENING_REPORTER,
      createdAt: row.createdAt.toISOString(),
    })),
  }));
}

function ownerSummary(row: UserRow | undefined): ModerationCase['owner'] {
  if (!row) return { id: null, name: 'Former member', suspendedUntil: null, banned: false };
  return {
    id: row.id,
    // Moderators see the whole name: they act on the account.
    name: [row.firstName, row.lastName].filter(Boolean).join(' ') || 'Member',
    suspendedUntil:
      row.suspendedUntil && row.suspendedUntil > new Date() ? row.suspendedUntil.toISOString() : null,
    banned: row.bannedAt !== null,
  };
}

/** The reported thing as the moderator needs to judge it, from the rows read for all cases. */
function targetContext(
  found: {
    items: Map<string, typeof items.$inferSelect>;
    messages: Map<string, typeof messages.$inferSelect>;
    ratings: Map<string, typeof ratings.$inferSelect>;
  },
  kind: ReportKind,
  id: string,
): Pick<ModerationCase, 'title' | 'text' | 'imageUrl' | 'removed'> {
  const none = { title: null, text: null, imageUrl: null, removed: false };
  if (kind === 'item') {
    const row = found.items.get(id);
    if (!row) return { ...none, title: 'Deleted listing', removed: true };
    return {
      title: row.title,
      text: row.description,
      imageUrl: row.thumbnailUrl ?? row.imageUrl,
      removed: row.moderation === 'removed',
    };
  }
  if (kind === 'message') {
    const row = found.messages.get(id);
    return row ? { ...none, title: 'Message', text: row.content, removed: row.removedAt !== null } : none;
  }
  if (kind === 'rating') {
    const row = found.ratings.get(id);
    return row
      ? { ...none, title: `Rating: ${row.stars} stars`, text: row.comment, removed: row.removedAt !== null }
      : none;
  }
  if (kind === 'appeal') return { ...none, title: 'Appeal against a suspension' };
  return { ...none, title: 'Member' };
}

/** Hide a member's listings while they are suspended or banned (shown again when a suspension ends). */
async function hideListings(db: Db, userId: string): Promise<void> {
  await db
    .update(items)
    .set({ isActive: false, moderation: 'suspended' })
    .where(and(eq(items.userId, userId), eq(items.isActive, true), isNull(items.moderation)));
}

async function showListings(db: Db, userId: string): Promise<void> {
  await db
    .update(items)
    .set({ isActive: true, moderation: null })
    // A listing traded meanwhile (its accepted barter completed) stays out (issue 30).
    .where(and(eq(items.userId, userId), eq(items.moderation, 'suspended'), isNull(items.tradedAt)));
}

/** Make the reported content disappear everywhere at once. */
async function removeContent(db: Db, kind: ReportKind, id: string): Promise<void> {
  const numeric = numericTarget(id);
  if (numeric === null) throw badRequest('Only a listing, a message or a rating can be removed.');
  if (kind === 'item') {
    await db.update(items).set({ isActive: false, moderation: 'removed' }).where(eq(items.id, numeric));
  } else if (kind === 'message') {
    // A message to a circle is stored once per recipient (ADR 029): the original and its copies go.
    const copyOf = sql`(SELECT coalesce(m.copy_of_id, m.id) FROM messages m WHERE m.id = ${numeric}::int)`;
    await db
      .update(messages)
      .set({ removedAt: new Date() })
      .where(sql`${messages.id} = ${copyOf} OR ${messages.copyOfId} = ${copyOf}`);
  } else if (kind === 'rating') {
    await db.update(ratings).set({ removedAt: new Date() }).where(eq(ratings.id, numeric));
  } else {
    throw badRequest('Only a listing, a message or a rating can be removed.');
  }
}

/**
 * Act on a report (and every open report on the same target): dismiss, remove the content, warn,
 * suspend for N days or ban its owner (over a listing, message or rating, those two remove it as
 * well). Kept in the audit log with who, what and why.
 */
export async function resolveReport(
  app: App,
  moderator: UserRow,
  reportId: number,
  input: ResolveReportInput,
): Promise<void> {
  assertModerator(moderator);
  const [report] = await app.db.select().from(reports).where(eq(reports.id, reportId));
  if (report?.status !== 'open') throw notFound('This report is not open any more.');
  const owner = report.targetUserId;
  if (input.action !== 'dismiss' && input.action !== 'remove' && !owner) {
    throw badRequest('That account is gone.');
  }
  if (owner === moderator.id && input.action !== 'dismiss') {
    throw badRequest('Another moderator must act on reports about you.');
  }
  await app.db.transaction(async (tx) => {
    // Suspending or banning over a listing, message or rating removes it too.
    const removable =
      report.targetKind === 'item' || report.targetKind === 'message' || report.targetKind === 'rating';
    const removes =
      input.action === 'remove' || ((input.action === 'suspend' || input.action === 'ban') && removable);
    if (removes) {
      await removeContent(tx, report.targetKind, report.targetId);
    }
    if (input.action === 'warn' && owner) {
      await notifyMember(tx, {
        userId: owner,
        kind: 'moderation_warning',
        barterRequestId: null,
        actorId: null,
      });
    }
    if (input.action === 'suspend' && owner) {
      const until = new Date(Date.now() + (input.days ?? 1) * 24 * 60 * 60_000);
      await updateUserRow(tx, owner, { suspendedUntil: until });
      await hideListings(tx, owner);
      // Their proposals stop waiting on them.
      await tx
        .update(barterRequests)
        .set({ status: 'withdrawn', updatedAt: new Date() })
        .where(and(eq(barterRequests.status, 'pending'), eq(barterRequests.fromUserId, owner)));
    }
    if (input.action === 'ban' && owner) {
      await updateUserRow(tx, owner, { bannedAt: new Date() });
      await hideListings(tx, owner);
    }
    if (input.action === 'lift' && owner) {
      await updateUserRow(tx, owner, { suspendedUntil: null, bannedAt: null });
      await showListings(tx, owner);
    }
    // A listing held for its photo (ADR 027) shows again unless this removed it.
    if (report.targetKind === 'item' && !removes) {
      const itemId = numericTarget(report.targetId);
      if (itemId !== null) await releaseHeldItem(tx, itemId);
    }
    const status = input.action === 'dismiss' ? 'dismissed' : 'actioned';
    await tx
      .update(reports)
      .set({ status, resolvedAt: new Date(), resolvedBy: moderator.id })
      .where(
        and(
          eq(reports.status, 'open'),
          eq(reports.targetKind, report.targetKind),
          eq(reports.targetId, report.targetId),
        ),
      );
    await tx.insert(moderationActions).values({
      moderatorId: moderator.id,
      action: input.action,
      reportId: report.id,
      targetKind: report.targetKind,
      targetId: report.targetId,
      targetUserId: owner,
      reason: input.reason,
      days: input.action === 'suspend' ? (input.days ?? null) : null,
    });
  });
  // A banned member's sessions end now, everywhere in this process.
  if (input.action === 'ban' && owner) await endSessions(app, owner);
}

/** Lift suspensions whose time is over: their listings show again. Returns how many. */
export async function liftEndedSuspensions(db: Db, now = new Date()): Promise<number> {
  const ended = await db
    .update(users)
    .set({ suspendedUntil: null })
    .where(and(lte(users.suspendedUntil, now), isNull(users.bannedAt)))
    .returning({ id: users.id });
  for (const { id } of ended) {
    forgetCachedUser(id);
    await showListings(db, id);
  }
  return ended.length;
}

/** Grant or revoke the moderator role by e-mail (npm run admin), kept in the audit log. */
export async function setModerator(db: Db, email: string, grant: boolean): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ role: grant ? 'moderator' : 'member' })
    .where(eq(users.email, email.trim().toLowerCase()))
    .returning();
  if (!row) throw notFound(`No account uses ${email}.`);
  forgetCachedUser(row.id);
  await db.insert(moderationActions).values({
    moderatorId: null,
    action: grant ? 'grant' : 'revoke',
    targetKind: 'member',
    targetId: row.id,
    targetUserId: row.id,
    reason: 'npm run admin',
  });
  return row;
}

/**
 * Keep a moderator's action taken elsewhere (a no-show decision, ADR 079) in the audit log, in the
 * caller's transaction.
 */
export async function recordModerationAction(
  db: Db,
  entry: Pick<
    typeof moderationActions.$inferInsert,
    'moderatorId' | 'action' | 'targetKind' | 'targetId' | 'targetUserId' | 'reason'
  >,
): Promise<void> {
  await db.insert(moderationActions).values(entry);
}

/** The audit log, newest first. */
export async function auditLog(db: Db, limit = 200): Promise<AuditEntry[]> {
  const rows = await db
    .select({
      id: moderationActions.id,
      action: moderationActions.action,
      targetKind: moderationActions.targetKind,
      targetId: moderationActions.targetId,
      targetUserId: moderationActions.targetUserId,
      moderatorId: moderationActions.moderatorId,
      reason: moderationActions.reason,
      days: moderationActions.days,
      createdAt: moderationActions.createdAt,
    })
    .from(moderationActions)
    .orderBy(desc(moderationActions.createdAt), desc(moderationActions.id))
    .limit(limit);
  const ids = [
    ...new Set(rows.flatMap((row) => [row.moderatorId, row.targetUserId]).filter((id): id is string => !!id)),
  ];
  const people = ids.length ? await db.select().from(users).where(inArray(users.id, ids)) : [];
  const names = new Map(
    people.map((person) => [person.id, [person.firstName, person.lastName].filter(Boolean).join(' ')]),
  );
  const nameOf = (id: string | null) => (id ? (names.get(id) ?? null) : null);
  return rows.map((row) => ({
    id: row.id,
    action: row.action,
    moderatorName: row.moderatorId ? (nameOf(row.moderatorId) ?? 'Former moderator') : 'Command line',
    targetKind: row.targetKind,
    targetId: row.targetId,
    targetName: nameOf(row.targetUserId),
    reason: row.reason,
    days: row.days,
    createdAt: row.createdAt.toISOString(),
  }));
}
