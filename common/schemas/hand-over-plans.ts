import { z } from 'zod';
import {
  HAND_OVER_PLACE_MAX_LENGTH,
  HAND_OVER_PLAN_MESSAGES,
  handOverWindowIssues,
  RUNNING_LATE_MINUTES,
  type RunningLateMinutes,
} from '../hand-over-plan-rules';
import { textField } from './text';

// The plain values and rules live in hand-over-plan-rules.ts, free of zod, so pages load them
// without it (ADR 046); they are exported here too for the server.
export {
  HAND_OVER_PLACE_MAX_LENGTH,
  HAND_OVER_PLAN_ERROR_CODES,
  HAND_OVER_PLAN_MAX_DAYS_AHEAD,
  HAND_OVER_PLAN_MAX_MINUTES,
  HAND_OVER_PLAN_MESSAGES,
  HAND_OVER_PLAN_MIN_MINUTES,
  handOverPlanIcsPath,
  handOverWindowIssues,
  RUNNING_LATE_MINUTES,
  type RunningLateMinutes,
} from '../hand-over-plan-rules';

// Planning the hand-over (issue 30, ADR 077): one current plan per accepted barter, a time window
// and a place that one member proposes and the other accepts (or answers with another).

const MS_PER_MINUTE = 60_000;

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
