import { z } from 'zod';
import { BARTER_STATUSES } from '../barter-machine';
import { memberRefSchema } from './barters';
import { listingIdParamsSchema } from './listings';
import { textField } from './text';

/**
 * Swap days (issue 16, ADR 030): a member organizes one (name, place, start, a deadline for want
 * lists); neighbors join, offer items and rank, for each of theirs, the items they would accept. At
 * the deadline (or when the organizer closes want lists early) the circle engine matches everyone at
 * once: the most items, then the most members, then the best-ranked choices, in loops of any length.
 * Every hand-over becomes an accepted barter.
 */

export const SWAP_DAY_NAME_MAX_LENGTH = 80;
export const SWAP_DAY_PLACE_MAX_LENGTH = 160;
/** A swap day starts at most this many days ahead. */
export const SWAP_DAY_MAX_DAYS_AHEAD = 365;
/** Members of one swap day (the organizer included). */
export const SWAP_DAY_MAX_MEMBERS = 100;
/** Items one member may offer at one swap day. */
export const SWAP_DAY_MAX_OFFERS_PER_MEMBER = 10;
/** Items one member may rank for one of their offers. */
export const SWAP_DAY_MAX_WANTS_PER_OFFER = 30;
/** Open swap days (not yet matched) one member may organize at a time. */
export const SWAP_DAY_MAX_OPEN_ORGANISED = 3;
/** Rows of each list of GET /api/swap-days. */
export const SWAP_DAY_LIST_LIMIT = 50;

/**
 * What a viewer sees of the swap day's state: 'closed' is open past its deadline until the sweep
 * hands it to the match job; 'matching' while the job runs (ADR 050); 'failed' when the match could
 * not be made (the organizer may try again).
 */
export const SWAP_DAY_STATUSES = ['open', 'closed', 'matching', 'solved', 'failed', 'cancelled'] as const;
export type SwapDayStatus = (typeof SWAP_DAY_STATUSES)[number];

export const SWAP_DAY_STATUS_LABELS: Record<SwapDayStatus, string> = {
  open: 'Open for want lists',
  closed: 'Matching',
  matching: 'Matching',
  solved: 'Matched',
  failed: 'Matching failed',
  cancelled: 'Canceled',
};

/**
 * Where a match stands while it runs (ADR 050): waiting for the job, gathering the offers and
 * rankings, solving, saving the hand-overs.
 */
export const SWAP_DAY_MATCH_STAGES = ['waiting', 'gathering', 'solving', 'saving'] as const;
export type SwapDayMatchStage = (typeof SWAP_DAY_MATCH_STAGES)[number];

/** Why a match failed: it ran past its time limit without any answer, or something else went wrong. */
export const SWAP_DAY_MATCH_FAILURES = ['time-limit', 'error'] as const;
export type SwapDayMatchFailure = (typeof SWAP_DAY_MATCH_FAILURES)[number];

/**
 * What the viewer may do now, decided by the server: join or leave (before the deadline; the
 * organizer stays), offer (offer and withdraw items, rank what they would accept), close (the
 * organizer: close want lists and match now) and cancel (the organizer, before matching).
 */
export const SWAP_DAY_ACTIONS = ['join', 'leave', 'offer', 'close', 'cancel'] as const;
export type SwapDayAction = (typeof SWAP_DAY_ACTIONS)[number];

/** Messages shown under the fields and returned by the server. */
export const SWAP_DAY_MESSAGES = {
  nameRequired: 'Name is required',
  nameTooLong: `Name must be at most ${SWAP_DAY_NAME_MAX_LENGTH} characters`,
  placeRequired: 'Place is required',
  placeTooLong: `Place must be at most ${SWAP_DAY_PLACE_MAX_LENGTH} characters`,
  startsAtRequired: 'Choose when the swap day starts',
  deadlineRequired: 'Choose when want lists close',
  invalidDateTime: 'Enter a valid date and time',
  deadlineBeforeStart: 'Want lists must close before the swap day starts',
  deadlineInPast: 'Want lists must close in the future',
  startsTooFar: `The swap day must start within ${SWAP_DAY_MAX_DAYS_AHEAD} days`,
  chooseItems: 'Choose at least one of your items to offer',
  tooManyItems: `Offer at most ${SWAP_DAY_MAX_OFFERS_PER_MEMBER} items`,
  eachOnce: 'Each item can be chosen once',
  tooManyWants: `Rank at most ${SWAP_DAY_MAX_WANTS_PER_OFFER} items`,
} as const;

/** Error codes of the swap-day endpoints (409 unless noted). */
export const SWAP_DAY_ERROR_CODES = {
  /** Want lists are closed (deadline passed), or it was matched or cancelled. */
  closed: 'SWAP_DAY_CLOSED',
  /** Offering or ranking without having joined. */
  notJoined: 'SWAP_DAY_NOT_JOINED',
  /** 400: not your item, not offered here, your own item ranked, an item of a member you blocked. */
  invalidItems: 'SWAP_DAY_INVALID_ITEMS',
  /** An item is hidden, deleted or reserved in an accepted barter. */
  itemUnavailable: 'SWAP_DAY_ITEM_UNAVAILABLE',
  /** Too many members, offers, or open swap days organized. */
  limit: 'SWAP_DAY_LIMIT',
  /** The organizer cannot leave (they cancel instead). */
  organiserStays: 'SWAP_DAY_ORGANISER_STAYS',
  /** 403: only the organizer closes want lists early or cancels. */
  organiserOnly: 'SWAP_DAY_ORGANISER_ONLY',
  /** 400: organizing needs a location (neighbors find swap days within their travel distance). */
  locationRequired: 'SWAP_DAY_LOCATION_REQUIRED',
  /** The pick-up sheet before matching. */
  notSolved: 'SWAP_DAY_NOT_SOLVED',
} as const;

const MS_PER_DAY = 24 * 60 * 60 * 1000;

/**
 * The rules between the two times, for the form (the browser's clock) and the server (its own):
 * want lists close in the future and before the start, which is within SWAP_DAY_MAX_DAYS_AHEAD.
 */
export function swapDayTimeIssues(
  startsAt: Date,
  deadline: Date,
  now: Date,
): Array<{ path: 'startsAt' | 'deadline'; message: string }> {
  const issues: Array<{ path: 'startsAt' | 'deadline'; message: string }> = [];
  if (deadline.getTime() <= now.getTime()) {
    issues.push({ path: 'deadline', message: SWAP_DAY_MESSAGES.deadlineInPast });
  } else if (deadline.getTime() >= startsAt.getTime()) {
    issues.push({ path: 'deadline', message: SWAP_DAY_MESSAGES.deadlineBeforeStart });
  }
  if (startsAt.getTime() > now.getTime() + SWAP_DAY_MAX_DAYS_AHEAD * MS_PER_DAY) {
    issues.push({ path: 'startsAt', message: SWAP_DAY_MESSAGES.startsTooFar });
  }
  return issues;
}

const nameField = textField('Name', { error: SWAP_DAY_MESSAGES.nameRequired })
  .min(1, SWAP_DAY_MESSAGES.nameRequired)
  .max(SWAP_DAY_NAME_MAX_LENGTH, SWAP_DAY_MESSAGES.nameTooLong);
const placeField = textField('Place', { error: SWAP_DAY_MESSAGES.placeRequired })
  .min(1, SWAP_DAY_MESSAGES.placeRequired)
  .max(SWAP_DAY_PLACE_MAX_LENGTH, SWAP_DAY_MESSAGES.placeTooLong);

/** An instant with its offset ("2030-05-01T10:00:00.000Z", "2030-05-01T12:00+02:00"). */
const instantField = (label: string, required: string) =>
  textField(label, { error: required })
    .min(1, required)
    .max(40, SWAP_DAY_MESSAGES.invalidDateTime)
    .pipe(z.iso.datetime({ offset: true, error: SWAP_DAY_MESSAGES.invalidDateTime }))
    .transform((value) => new Date(value))
    .refine((date) => !Number.isNaN(date.getTime()), SWAP_DAY_MESSAGES.invalidDateTime);

/** A local date and time as a datetime-local input holds it ("2030-05-01T10:00"): the browser's time zone. */
const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;
const localDateTimeField = (label: string, required: string) =>
  textField(label, { error: required })
    .min(1, required)
    .regex(LOCAL_DATE_TIME, SWAP_DAY_MESSAGES.invalidDateTime)
    .refine((value) => !Number.isNaN(new Date(value).getTime()), SWAP_DAY_MESSAGES.invalidDateTime);

/** The time rules, once both times read as dates (each field's own message comes first). */
function checkTimes(value: { startsAt: unknown; deadline: unknown }, ctx: z.RefinementCtx): void {
  const startsAt = value.startsAt instanceof Date ? value.startsAt : new Date(String(value.startsAt));
  const deadline = value.deadline instanceof Date ? value.deadline : new Date(String(value.deadline));
  if (Number.isNaN(startsAt.getTime()) || Number.isNaN(deadline.getTime())) return;
  for (const issue of swapDayTimeIssues(startsAt, deadline, new Date())) {
    ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
  }
}

/** Check the times even when another field fails, so the form shows every message at once. */
const timeCheckParams = {
  when: (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null,
};

/** POST /api/swap-days: checked with the server's clock. Unknown fields are refused. */
export const swapDayInputSchema = z
  .strictObject({
    name: nameField,
    place: placeField,
    startsAt: instantField('Starts', SWAP_DAY_MESSAGES.startsAtRequired),
    deadline: instantField('Want lists close', SWAP_DAY_MESSAGES.deadlineRequired),
  })
  .superRefine(checkTimes, timeCheckParams);
export type SwapDayInput = z.input<typeof swapDayInputSchema>;

/** The Organize a Swap Day form: the same fields and rules, the times in the browser's time zone. */
export const swapDayFormSchema = z
  .object({
    name: nameField,
    place: placeField,
    startsAt: localDateTimeField('Starts', SWAP_DAY_MESSAGES.startsAtRequired),
    deadline: localDateTimeField('Want lists close', SWAP_DAY_MESSAGES.deadlineRequired),
  })
  .superRefine(checkTimes, timeCheckParams);
export type SwapDayFormValues = z.input<typeof swapDayFormSchema>;

/** What the form sends: its local times as instants. */
export function swapDayInputFromForm(values: z.output<typeof swapDayFormSchema>): SwapDayInput {
  return {
    name: values.name,
    place: values.place,
    startsAt: new Date(values.startsAt).toISOString(),
    deadline: new Date(values.deadline).toISOString(),
  };
}

const itemIdField = z
  .number({ error: 'Item ids must be whole numbers' })
  .int('Item ids must be whole numbers')
  .positive('Item ids must be whole numbers')
  .max(2_147_483_647, 'Item ids must be whole numbers');

/** POST /api/swap-days/:id/offers: items of yours to bring (active, not reserved). */
export const swapDayOfferInputSchema = z.strictObject({
  itemIds: z
    .array(itemIdField, { error: SWAP_DAY_MESSAGES.chooseItems })
    .min(1, SWAP_DAY_MESSAGES.chooseItems)
    .max(SWAP_DAY_MAX_OFFERS_PER_MEMBER, SWAP_DAY_MESSAGES.tooManyItems)
    .refine((ids) => new Set(ids).size === ids.length, SWAP_DAY_MESSAGES.eachOnce),
});
export type SwapDayOfferInput = z.input<typeof swapDayOfferInputSchema>;

/**
 * PUT /api/swap-days/:id/offers/:itemId/wants: what you would accept for that offer, most wanted
 * first (rank 1, 2, ...); replaces the whole list. Empty: nothing (the item then trades with no one).
 */
export const swapDayWantsInputSchema = z.strictObject({
  wantedItemIds: z
    .array(itemIdField, { error: 'wantedItemIds must be a list of item ids' })
    .max(SWAP_DAY_MAX_WANTS_PER_OFFER, SWAP_DAY_MESSAGES.tooManyWants)
    .refine((ids) => new Set(ids).size === ids.length, SWAP_DAY_MESSAGES.eachOnce),
});
export type SwapDayWantsInput = z.input<typeof swapDayWantsInputSchema>;

/** `:id` and `:itemId` in swap-day paths. */
export const swapDayItemParamsSchema = z.strictObject({
  id: listingIdParamsSchema.shape.id,
  itemId: listingIdParamsSchema.shape.id,
});

/** An item offered at a swap day (or one of yours you could offer), and whether it can still trade. */
export const swapDayItemSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  category: z.string(),
  isService: z.boolean(),
  thumbnailUrl: z.string().nullable(),
  /** Active and not reserved by an accepted barter: it can still trade here. */
  available: z.boolean(),
});
export type SwapDayItem = z.infer<typeof swapDayItemSchema>;

/** An offer: the item, who brings it, and (your own offers only) what you would accept for it. */
export const swapDayOfferSchema = z.object({
  item: swapDayItemSchema,
  owner: memberRefSchema,
  mine: z.boolean(),
  /** Your ranking for your offer, most wanted first; empty for other members' offers. */
  wantedItemIds: z.array(z.number().int()),
});
export type SwapDayOffer = z.infer<typeof swapDayOfferSchema>;

/** One hand-over of the result from the viewer's seat, linking to its accepted barter. */
export const swapDayHandOverSchema = z.object({
  /** The item as it was when matched. */
  item: z.object({
    id: z.number().int().nullable(),
    title: z.string(),
    category: z.string(),
    isService: z.boolean(),
  }),
  /** The other member: who receives it (gives) or who gives it (gets). */
  member: memberRefSchema,
  /** The hand-over's barter (accepted when matched): confirm it, talk, rate. */
  barterId: z.number().int().nullable(),
  /** Its state now (accepted, completed, cancelled). */
  barterStatus: z.enum(BARTER_STATUSES).nullable(),
  /** Which loop of the swap day (1, 2, ...). */
  loop: z.number().int(),
});
export type SwapDayHandOver = z.infer<typeof swapDayHandOverSchema>;

/** A swap day in the lists. Never its position: a distance at most. */
export const swapDaySummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  place: z.string(),
  startsAt: z.iso.datetime(),
  deadline: z.iso.datetime(),
  status: z.enum(SWAP_DAY_STATUSES),
  organiser: memberRefSchema,
  isOrganiser: z.boolean(),
  joined: z.boolean(),
  memberCount: z.number().int().nonnegative(),
  /** Miles from the viewer to where it was organized (rounded to 0.1); null without locations. */
  distanceMiles: z.number().nullable(),
});
export type SwapDaySummary = z.infer<typeof swapDaySummarySchema>;

/** GET /api/swap-days: yours (organized or joined, newest first) and open ones near you (soonest first). */
export const swapDayListsSchema = z.object({
  mine: z.array(swapDaySummarySchema),
  nearby: z.array(swapDaySummarySchema),
});
export type SwapDayLists = z.infer<typeof swapDayListsSchema>;

/** A swap day as one member sees it. */
export const swapDaySchema = swapDaySummarySchema.extend({
  /** Who joined, the organizer first: "Ann R." and picture, never an e-mail or a position. */
  members: z.array(memberRefSchema),
  /** Every item offered (items of members you blocked, or who blocked you, left out). */
  offers: z.array(swapDayOfferSchema),
  /** Your active, unreserved items not offered yet, while you may offer (newest first). */
  offerableItems: z.array(swapDayItemSchema),
  allowedActions: z.array(z.enum(SWAP_DAY_ACTIONS)),
  /** While 'matching': how far the match has got; null otherwise. */
  matchStage: z.enum(SWAP_DAY_MATCH_STAGES).nullable(),
  /** When 'failed': why (the organizer may close want lists again to retry, or cancel); null otherwise. */
  matchFailure: z.enum(SWAP_DAY_MATCH_FAILURES).nullable(),
  /** Once matched. */
  result: z
    .object({
      itemsTraded: z.number().int().nonnegative(),
      membersTrading: z.number().int().nonnegative(),
      solvedAt: z.iso.datetime(),
      /** What you give, to whom; what you get, from whom. */
      gives: z.array(swapDayHandOverSchema),
      gets: z.array(swapDayHandOverSchema),
    })
    .nullable(),
});
export type SwapDay = z.infer<typeof swapDaySchema>;

/** One line of the pick-up sheet: the giver hands `item` to `receiver`. */
export const swapDaySheetLineSchema = z.object({
  receiver: memberRefSchema,
  item: swapDayHandOverSchema.shape.item,
  loop: z.number().int(),
});

/**
 * GET /api/swap-days/:id/sheet: every hand-over grouped by giver (the organizer), or only the
 * lines you give or receive (a member).
 */
export const swapDaySheetSchema = z.object({
  swapDay: swapDaySummarySchema,
  itemsTraded: z.number().int().nonnegative(),
  membersTrading: z.number().int().nonnegative(),
  /** True for the organizer's whole sheet, false for a member's own lines. */
  complete: z.boolean(),
  givers: z.array(z.object({ giver: memberRefSchema, lines: z.array(swapDaySheetLineSchema) })),
});
export type SwapDaySheet = z.infer<typeof swapDaySheetSchema>;
