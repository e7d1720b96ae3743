import { z } from 'zod';
import { textField } from './text';

// Planning the hand-over (issue 30, ADR 077): one current plan per accepted barter, a time window
// and a place that one member proposes and the other accepts (or answers with another).

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

/**
 * An instant with its offset ("2030-05-01T10:00:00.000Z"): the browser sends its local time so.
 * Kept to the minute (seconds dropped), as a calendar shows it.
 */
const instantField = (label: string, required: string) =>
  textField(label, { error: required })
    .min(1, required)
    .max(40, HAND_OVER_PLAN_MESSAGES.invalidDateTime)
    .pipe(z.iso.datetime({ offset: true, error: HAND_OVER_PLAN_MESSAGES.invalidDateTime }))
    .transform((value) => new Date(Math.floor(new Date(value).getTime() / MS_PER_MINUTE) * MS_PER_MINUTE))
    .refine((date) => !Number.isNaN(date.getTime()), HAND_OVER_PLAN_MESSAGES.invalidDateTime);

const versionField = z.number().int().min(1).max(2_147_483_647);

/**
 * PUT /api/barter-requests/:id/hand-over-plan: propose a window and a place, or another one instead
 * of the current plan. `replaces` names the version the member saw (null: they saw no plan), so two
 * proposals at once, or one made over a plan that changed meanwhile, is 409 rather than lost.
 */
export const proposeHandOverPlanSchema = z
  .strictObject({
    startsAt: instantField('Start', HAND_OVER_PLAN_MESSAGES.startRequired),
    endsAt: instantField('End', HAND_OVER_PLAN_MESSAGES.endRequired),
    place: textField('Place', { error: HAND_OVER_PLAN_MESSAGES.placeRequired })
      .min(1, HAND_OVER_PLAN_MESSAGES.placeRequired)
      .max(HAND_OVER_PLACE_MAX_LENGTH, HAND_OVER_PLAN_MESSAGES.placeTooLong),
    replaces: versionField.nullable(),
    /** A moderators' public spot chosen from the list (ADR 080): its name becomes the place. */
    spotId: z.number().int().min(1).max(2_147_483_647).nullable().optional(),
  })
  .superRefine((value, ctx) => {
    // Each field's own message comes first: the window is checked once both read as dates.
    if (!(value.startsAt instanceof Date) || !(value.endsAt instanceof Date)) return;
    for (const issue of handOverWindowIssues(value.startsAt, value.endsAt, new Date())) {
      ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
    }
  });
export type ProposeHandOverPlanInput = z.input<typeof proposeHandOverPlanSchema>;

/** POST .../hand-over-plan/accept: the version the member accepts (a stale one is 409). */
export const acceptHandOverPlanSchema = z.strictObject({ version: versionField });

/** POST .../hand-over-plan/late: "I'm running late", on the agreed plan the member saw. */
export const runningLateSchema = z.strictObject({
  version: versionField,
  minutes: z
    .number({ error: HAND_OVER_PLAN_MESSAGES.lateMinutes })
    .int(HAND_OVER_PLAN_MESSAGES.lateMinutes)
    .refine(
      (minutes): minutes is RunningLateMinutes =>
        (RUNNING_LATE_MINUTES as readonly number[]).includes(minutes),
      HAND_OVER_PLAN_MESSAGES.lateMinutes,
    ),
});

/** A barter's current hand-over plan, as either member sees it. */
export const handOverPlanSchema = z.object({
  version: z.number().int(),
  /** proposed: waiting for the member who did not propose it; agreed: both said yes. */
  state: z.enum(['proposed', 'agreed']),
  /** Who proposed the current window and place, seen from the viewer. */
  proposedBy: z.enum(['me', 'other']),
  startsAt: z.iso.datetime(),
  endsAt: z.iso.datetime(),
  place: z.string(),
  agreedAt: z.iso.datetime().nullable(),
  /** The latest "I'm running late" on this plan, if any. */
  late: z.object({ by: z.enum(['me', 'other']), minutes: z.number().int(), at: z.iso.datetime() }).nullable(),
  updatedAt: z.iso.datetime(),
});
export type HandOverPlan = z.infer<typeof handOverPlanSchema>;

/** The calendar file's path for a barter's agreed plan. */
export const handOverPlanIcsPath = (id: number) => `/api/barter-requests/${id}/hand-over-plan.ics`;
