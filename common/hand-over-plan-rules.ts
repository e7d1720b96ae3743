// Planning the hand-over (issue 30, ADR 077): the rules and words both sides share, without zod
// (ADR 046: a page loads them without the schemas; common/schemas/hand-over-plans.ts builds on them).

/** The window must start within this many days. */
export const HAND_OVER_PLAN_MAX_DAYS_AHEAD = 60;
/** Shortest and longest window, in minutes. */
export const HAND_OVER_PLAN_MIN_MINUTES = 15;
export const HAND_OVER_PLAN_MAX_MINUTES = 12 * 60;
export const HAND_OVER_PLACE_MAX_LENGTH = 200;
/** What "I'm running late" offers. */
export const RUNNING_LATE_MINUTES = [5, 10, 15, 30] as const;
export type RunningLateMinutes = (typeof RUNNING_LATE_MINUTES)[number];

export const HAND_OVER_PLAN_ERROR_CODES = {
  /** 409: the plan changed since the page read it (the answer's `details.reason` is the current version). */
  changed: 'HAND_OVER_PLAN_CHANGED',
  /** 409: the action does not fit the plan's state (accepting your own proposal, late on a plan not agreed). */
  state: 'HAND_OVER_PLAN_STATE',
} as const;

export const HAND_OVER_PLAN_MESSAGES = {
  startRequired: 'Choose when the hand-over window starts',
  endRequired: 'Choose when the hand-over window ends',
  invalidDateTime: 'Enter a valid date and time',
  startInPast: 'The hand-over must start in the future',
  startTooFar: `The hand-over must start within ${HAND_OVER_PLAN_MAX_DAYS_AHEAD} days`,
  tooShort: `The window must be at least ${HAND_OVER_PLAN_MIN_MINUTES} minutes long`,
  tooLong: `The window must be at most ${HAND_OVER_PLAN_MAX_MINUTES / 60} hours long`,
  placeRequired: 'Say where you will meet',
  placeTooLong: `The place must be at most ${HAND_OVER_PLACE_MAX_LENGTH} characters`,
  lateMinutes: `Choose ${RUNNING_LATE_MINUTES.join(', ')} minutes`,
} as const;

const MS_PER_MINUTE = 60_000;

/** The window's rules against `now`: in the future, soon enough, neither too short nor too long. */
export function handOverWindowIssues(
  startsAt: Date,
  endsAt: Date,
  now: Date,
): Array<{ path: 'startsAt' | 'endsAt'; message: string }> {
  const issues: Array<{ path: 'startsAt' | 'endsAt'; message: string }> = [];
  if (startsAt.getTime() <= now.getTime()) {
    issues.push({ path: 'startsAt', message: HAND_OVER_PLAN_MESSAGES.startInPast });
  } else if (startsAt.getTime() > now.getTime() + HAND_OVER_PLAN_MAX_DAYS_AHEAD * 24 * 60 * MS_PER_MINUTE) {
    issues.push({ path: 'startsAt', message: HAND_OVER_PLAN_MESSAGES.startTooFar });
  }
  const minutes = (endsAt.getTime() - startsAt.getTime()) / MS_PER_MINUTE;
  if (minutes < HAND_OVER_PLAN_MIN_MINUTES) {
    issues.push({ path: 'endsAt', message: HAND_OVER_PLAN_MESSAGES.tooShort });
  } else if (minutes > HAND_OVER_PLAN_MAX_MINUTES) {
    issues.push({ path: 'endsAt', message: HAND_OVER_PLAN_MESSAGES.tooLong });
  }
  return issues;
}

/** The calendar file's path for a barter's agreed plan. */
export const handOverPlanIcsPath = (id: number) => `/api/barter-requests/${id}/hand-over-plan.ics`;
