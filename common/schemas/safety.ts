import { z } from 'zod';
import { REPORT_NOTE_MAX } from '../constants';
import { textField } from './text';

/** Reasons a member may report something, from the Terms (ADR 025), with the words shown. */
export const REPORT_REASON_LABELS = {
  dating: 'Dating or personal ads',
  explicit: 'Explicit material',
  'drugs-alcohol': 'Drugs or alcohol',
  'contact-details': 'Sharing contact information',
  scam: 'Scam or fraud',
  other: 'Something else',
} as const;
export type ReportReason = keyof typeof REPORT_REASON_LABELS;
export const REPORT_REASON_VALUES = Object.keys(REPORT_REASON_LABELS) as [ReportReason, ...ReportReason[]];

/** What a member can report. */
export const REPORTABLE = ['item', 'member', 'message', 'rating'] as const;
export type Reportable = (typeof REPORTABLE)[number];

export const MODERATION_REASON_MAX = 500;

/** 403 and 409 codes of reports, blocks and moderation. */
export const SAFETY_ERROR_CODES = {
  reportExists: 'REPORT_EXISTS',
  memberBlocked: 'MEMBER_BLOCKED',
  accountSuspended: 'ACCOUNT_SUSPENDED',
  accountBanned: 'ACCOUNT_BANNED',
  notModerator: 'NOT_MODERATOR',
  removedByModerator: 'REMOVED_BY_MODERATOR',
  /** An appeal from a member who is not suspended (only a running suspension can be appealed). */
  notSuspended: 'NOT_SUSPENDED',
} as const;

/** POST /api/reports. */
export const reportSchema = z.strictObject({
  targetKind: z.enum(REPORTABLE, { error: `targetKind must be one of ${REPORTABLE.join(', ')}` }),
  targetId: textField('targetId').min(1).max(64),
  reason: z.enum(REPORT_REASON_VALUES, { error: 'Please choose a reason.' }),
  note: textField('Note', { multiline: true })
    .max(REPORT_NOTE_MAX, `Please keep the note under ${REPORT_NOTE_MAX} characters.`)
    .optional(),
});
export type ReportInput = z.infer<typeof reportSchema>;

/** POST /api/account/appeal: a suspended member's words to the moderators. */
export const appealSchema = z.strictObject({
  text: textField('Appeal', { multiline: true })
    .min(1, 'Please tell the moderators why.')
    .max(REPORT_NOTE_MAX, `Please keep it under ${REPORT_NOTE_MAX} characters.`),
});

/** What a moderator can do with a report. */
/** `lift` ends the owner's suspension or ban (an appeal upheld). */
export const MODERATOR_ACTIONS = ['dismiss', 'remove', 'warn', 'suspend', 'ban', 'lift'] as const;
export type ModeratorAction = (typeof MODERATOR_ACTIONS)[number];
export const SUSPENSION_DAYS_MAX = 365;

/** POST /api/moderation/reports/:id/resolve. */
export const resolveReportSchema = z
  .strictObject({
    action: z.enum(MODERATOR_ACTIONS),
    reason: textField('Reason', { multiline: true })
      .min(1, 'Please say why: it goes in the audit log.')
      .max(MODERATION_REASON_MAX),
    days: z.coerce.number().int().min(1).max(SUSPENSION_DAYS_MAX).optional(),
  })
  .refine((value) => value.action !== 'suspend' || value.days !== undefined, {
    message: 'How many days?',
    path: ['days'],
  });
export type ResolveReportInput = z.infer<typeof resolveReportSchema>;

/** One reported thing with its open reports, as the moderation screen shows it. */
export const moderationCaseSchema = z.object({
  /** The oldest open report's id: act on the case through it. */
  reportId: z.number().int(),
  targetKind: z.enum([...REPORTABLE, 'appeal']),
  targetId: z.string(),
  /** Whose content it is, by name, and their standing. */
  owner: z.object({
    id: z.string().nullable(),
    name: z.string(),
    suspendedUntil: z.string().nullable(),
    banned: z.boolean(),
  }),
  /** The reported thing in context: a listing's title and description, a message, a rating's comment. */
  title: z.string().nullable(),
  text: z.string().nullable(),
  imageUrl: z.string().nullable(),
  removed: z.boolean(),
  reports: z.array(
    z.object({
      id: z.number().int(),
      reason: z.enum(REPORT_REASON_VALUES),
      note: z.string().nullable(),
      reporterName: z.string(),
      createdAt: z.string(),
    }),
  ),
});
export type ModerationCase = z.infer<typeof moderationCaseSchema>;

/** An entry of the audit log. */
export const auditEntrySchema = z.object({
  id: z.number().int(),
  action: z.string(),
  moderatorName: z.string(),
  targetKind: z.string().nullable(),
  targetId: z.string().nullable(),
  targetName: z.string().nullable(),
  reason: z.string(),
  days: z.number().int().nullable(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** GET /api/account/blocks. */
export const blockedMemberSchema = z.object({ id: z.string(), name: z.string(), blockedAt: z.string() });
export type BlockedMember = z.infer<typeof blockedMemberSchema>;

/** GET /api/moderation/refusals: wording the automatic moderation refused lately. */
export const refusalSchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  reason: z.string(),
  excerpt: z.string(),
  memberId: z.string().nullable(),
  memberName: z.string(),
  createdAt: z.string(),
});
export type Refusal = z.infer<typeof refusalSchema>;
