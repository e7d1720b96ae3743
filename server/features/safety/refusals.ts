import { desc, eq, gt, lt, sql } from 'drizzle-orm';
import { ERROR_CODES } from '#common/error-codes.ts';
import { memberDisplayName } from '#common/member-name.ts';
import type { Db } from '../../db/client';
import { moderationRefusals, type REFUSAL_KINDS } from '../../db/schema/safety';
import { users } from '../../db/schema/users';
import { HttpError } from '../../errors';
import { moderateTextWith } from '../../moderation/moderation';

export type RefusalKind = (typeof REFUSAL_KINDS)[number];

/** Refusals are kept this long for the moderators. */
export const REFUSALS_KEPT_DAYS = 30;
const EXCERPT_MAX = 300;

/**
 * Kinds of text written in a barter's conversation, where members arrange the trade: contact details
 * are allowed there (Terms section 4, ADR 062); everything else the Terms forbid is still refused.
 */
const CONVERSATION_KINDS: ReadonlySet<RefusalKind> = new Set(['message']);

/**
 * The Terms check of server/moderation (400 CONTENT_NOT_ALLOWED with its message and `reason`), and a
 * refusal is recorded for the moderators' screen (ADR 025): who, what kind of text, why, and its start.
 */
export async function assertAppropriateFor(
  db: Db,
  memberId: string,
  kind: RefusalKind,
  ...texts: Array<string | null | undefined>
): Promise<void> {
  const result = moderateTextWith({ allowContactDetails: CONVERSATION_KINDS.has(kind) }, ...texts);
  if (result.allowed) return;
  await recordRefusal(db, memberId, kind, result.reason, texts.filter(Boolean).join(' / '));
  throw new HttpError(400, ERROR_CODES.contentNotAllowed, result.message, { reason: result.reason });
}

/**
 * assertAppropriateFor over named fields (a listing's title and description): the refusal also names
 * the field that broke the Terms (`field`), so the form shows it there.
 */
export async function assertAppropriateFields(
  db: Db,
  memberId: string,
  kind: RefusalKind,
  fields: Record<string, string | null | undefined>,
): Promise<void> {
  const names = Object.keys(fields);
  const texts = Object.values(fields);
  const result = moderateTextWith({ allowContactDetails: CONVERSATION_KINDS.has(kind) }, ...texts);
  if (result.allowed) return;
  await recordRefusal(db, memberId, kind, result.reason, texts.filter(Boolean).join(' / '));
  const field = result.index === undefined ? undefined : names[result.index];
  throw new HttpError(400, ERROR_CODES.contentNotAllowed, result.message, { reason: result.reason, field });
}

/**
 * Keep an automatic refusal for the moderators' screen. Recorded or not (a failed write is not the
 * member's problem), the member's answer is the same, so this never throws.
 */
export async function recordRefusal(
  db: Db,
  memberId: string,
  kind: RefusalKind,
  reason: string,
  excerpt: string,
): Promise<void> {
  await db
    .insert(moderationRefusals)
    .values({ memberId, kind, reason, excerpt: excerpt.slice(0, EXCERPT_MAX) })
    .catch(() => undefined);
}

/** Forget refusals older than REFUSALS_KEPT_DAYS (the periodic sweep); how many went. */
export async function forgetOldRefusals(db: Db): Promise<number> {
  const gone = await db
    .delete(moderationRefusals)
    .where(lt(moderationRefusals.createdAt, sql`now() - make_interval(days => ${REFUSALS_KEPT_DAYS})`))
    .returning({ id: moderationRefusals.id });
  return gone.length;
}

/** The refusals of the last `days` days, newest first (at most 200). */
export async function recentRefusals(db: Db, days = 7) {
  const rows = await db
    .select({
      id: moderationRefusals.id,
      kind: moderationRefusals.kind,
      reason: moderationRefusals.reason,
      excerpt: moderationRefusals.excerpt,
      createdAt: moderationRefusals.createdAt,
      memberId: moderationRefusals.memberId,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(moderationRefusals)
    .leftJoin(users, eq(users.id, moderationRefusals.memberId))
    .where(gt(moderationRefusals.createdAt, sql`now() - make_interval(days => ${days})`))
    .orderBy(desc(moderationRefusals.createdAt), desc(moderationRefusals.id))
    .limit(200);
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    reason: row.reason,
    excerpt: row.excerpt,
    memberId: row.memberId,
    memberName: row.firstName
      ? [row.firstName, row.lastName].filter(Boolean).join(' ')
      : memberDisplayName(null, null),
    createdAt: row.createdAt.toISOString(),
  }));
}
