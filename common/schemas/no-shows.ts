import { z } from 'zod';
import { NO_SHOW_ANSWERS, NO_SHOW_DECISIONS, NO_SHOW_NOTE_MAX_LENGTH } from '../no-show-rules';
import { textField } from './text';

// The plain values and rules live in no-show-rules.ts, free of zod, so pages load them
// without it (ADR 046); they are exported here too for the server.
export {
  CONFIRM_ATTENDANCE_HOURS,
  HAND_OVER_RECORD_MONTHS,
  NO_SHOW_ANSWER_HOURS,
  NO_SHOW_ANSWERS,
  NO_SHOW_DECISIONS,
  NO_SHOW_ERROR_CODES,
  NO_SHOW_NOTE_MAX_LENGTH,
  type NoShowAnswer,
  type NoShowDecision,
} from '../no-show-rules';

// Keeping your word (issue 30, ADR 079): "they didn't come" reports on an agreed hand-over plan
// whose window passed, the reported member's answer within 48 hours, a moderator's decision on a
// disputed one, the hand-over record ("Kept N of M hand-overs") and "Confirm you'll be there".

const versionField = z.number().int().min(1).max(2_147_483_647);

/** POST /api/barter-requests/:id/attendance/report: the plan version whose window passed. */
export const reportNoShowSchema = z.strictObject({ version: versionField });

/** POST /api/barter-requests/:id/attendance/answer: the reported member's answer, with an optional note. */
export const answerNoShowSchema = z.strictObject({
  answer: z.enum(NO_SHOW_ANSWERS, { error: 'Choose "I was there" or "We rescheduled"' }),
  note: textField('Note')
    .max(NO_SHOW_NOTE_MAX_LENGTH, `The note must be at most ${NO_SHOW_NOTE_MAX_LENGTH} characters`)
    .optional(),
});
export type AnswerNoShowInput = z.input<typeof answerNoShowSchema>;

/** POST /api/barter-requests/:id/attendance/confirm: "Confirm you'll be there" on the agreed plan's version. */
export const confirmAttendanceSchema = z.strictObject({ version: versionField });

/** POST /api/moderation/no-shows/:id/decision: a moderator's decision on a disputed report. */
export const decideNoShowSchema = z.strictObject({ decision: z.enum(NO_SHOW_DECISIONS) });

/** A report as one of the barter's members sees it: never who made it, only whether it was the viewer. */
const noShowReportViewSchema = z.object({
  id: z.number().int(),
  planVersion: z.number().int(),
  createdAt: z.iso.datetime(),
  /** Until when the reported member may answer. */
  answerBy: z.iso.datetime(),
  answer: z.enum(NO_SHOW_ANSWERS).nullable(),
  note: z.string().nullable(),
  answeredAt: z.iso.datetime().nullable(),
  decision: z.enum(NO_SHOW_DECISIONS).nullable(),
});
export type NoShowReportView = z.infer<typeof noShowReportViewSchema>;

/** GET /api/barter-requests/:id/attendance: what the barter page shows about keeping your word. */
export const attendanceSchema = z.object({
  /** The agreed plan version this is about (null: none agreed). */
  planVersion: z.number().int().nullable(),
  /** The viewer may report the other member now (the window passed, not reported yet, barter accepted). */
  canReport: z.boolean(),
  /** The viewer's own report on this barter's latest reported version, if any. */
  myReport: noShowReportViewSchema.nullable(),
  /** A report about the viewer ("Your trading partner reported..."), the latest. */
  aboutMe: noShowReportViewSchema.nullable(),
  /** "Confirm you'll be there": asked of members with a poor record, from 24 h before the window. */
  confirm: z.object({
    /** The viewer is asked now. */
    askMe: z.boolean(),
    myConfirmedAt: z.iso.datetime().nullable(),
    /** The other member is asked (has a poor record) for this plan. */
    otherAsked: z.boolean(),
    otherConfirmedAt: z.iso.datetime().nullable(),
  }),
});
export type Attendance = z.infer<typeof attendanceSchema>;

/** A disputed report in the moderators' queue (they see both members by name). */
export const disputedNoShowSchema = z.object({
  id: z.number().int(),
  barterRequestId: z.number().int(),
  windowEndsAt: z.iso.datetime(),
  createdAt: z.iso.datetime(),
  reporter: z.object({ id: z.string(), name: z.string() }).nullable(),
  reported: z.object({ id: z.string(), name: z.string() }).nullable(),
  answer: z.enum(NO_SHOW_ANSWERS),
  note: z.string().nullable(),
  answeredAt: z.iso.datetime(),
});
export type DisputedNoShow = z.infer<typeof disputedNoShowSchema>;
export const disputedNoShowListSchema = z.array(disputedNoShowSchema);

/** "Kept N of M hand-overs" over the last 12 months; hidden while `due` is 0. */
export const handOverRecordSchema = z.object({
  kept: z.number().int().nonnegative(),
  due: z.number().int().nonnegative(),
});
export type HandOverRecord = z.infer<typeof handOverRecordSchema>;

/**
 * A poor record (ADR 079): at least two missed hand-overs, or fewer than 80% kept out of three or
 * more. Such a member is asked to confirm a day before each agreed hand-over.
 */
export function isPoorRecord(record: HandOverRecord): boolean {
  const missed = record.due - record.kept;
  return missed >= 2 || (record.due >= 3 && record.kept < 0.8 * record.due);
}
