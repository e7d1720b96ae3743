// Keeping your word (issue 30, ADR 079): the plain values both sides share, without zod (ADR 046: a
// page loads them without the schemas; common/schemas/no-shows.ts builds on them).

/** The reported member may answer for this long after the report; unanswered after it, it counts as missed. */
export const NO_SHOW_ANSWER_HOURS = 48;
/** The record counts hand-overs of the last this many months. */
export const HAND_OVER_RECORD_MONTHS = 12;
/** "Confirm you'll be there" opens this long before an agreed window starts. */
export const CONFIRM_ATTENDANCE_HOURS = 24;
export const NO_SHOW_NOTE_MAX_LENGTH = 280;

export const NO_SHOW_ERROR_CODES = {
  /** 409: the agreed window has not ended yet. */
  windowOpen: 'NO_SHOW_WINDOW_OPEN',
  /** 409: there is no agreed plan whose window passed (none, only proposed, or rescheduled). */
  noPlan: 'NO_SHOW_NO_AGREED_PLAN',
  /** 409: this member already reported this plan version. */
  alreadyReported: 'NO_SHOW_ALREADY_REPORTED',
  /** 409: the report was answered already. */
  alreadyAnswered: 'NO_SHOW_ALREADY_ANSWERED',
  /** 409: the 48 hours to answer have passed. */
  answerClosed: 'NO_SHOW_ANSWER_CLOSED',
  /** 409: a moderator decides only a disputed (answered, undecided) report. */
  notDisputed: 'NO_SHOW_NOT_DISPUTED',
  /** 409: confirming attendance is open from 24 hours before an agreed window until it ends. */
  confirmClosed: 'ATTENDANCE_CONFIRM_CLOSED',
} as const;

export const NO_SHOW_ANSWERS = ['was_there', 'rescheduled'] as const;
export type NoShowAnswer = (typeof NO_SHOW_ANSWERS)[number];
export const NO_SHOW_DECISIONS = ['kept', 'missed', 'dismissed'] as const;
export type NoShowDecision = (typeof NO_SHOW_DECISIONS)[number];
