import { z } from 'zod';
import { memberRefSchema } from './barters';
import { ownListQuerySchema } from './listings';

/**
 * Trade circles (issue 16, ADR 029): 2 to 4 neighbours, each giving one item to the next. A circle
 * is proposed to its members; when every one accepts, each hand-over becomes an accepted barter.
 *
 *   proposed --all accept--> accepted --every hand-over completed--> completed
 *      |--one declines--> declined        '--a hand-over cancelled--> cancelled
 *      '--3 days pass--> expired
 */
export const CIRCLE_STATUSES = [
  'proposed',
  'accepted',
  'completed',
  'declined',
  'expired',
  'cancelled',
] as const;
export type CircleStatus = (typeof CIRCLE_STATUSES)[number];

export const CIRCLE_ACTIONS = ['accept', 'decline'] as const;
export type CircleAction = (typeof CIRCLE_ACTIONS)[number];

/** A proposed circle dissolves unless everyone accepted within this many days. */
export const CIRCLE_EXPIRY_DAYS = 3;
export const CIRCLE_EXPIRY_MS = CIRCLE_EXPIRY_DAYS * 24 * 60 * 60 * 1000;

/**
 * Fewest and most members of a circle the finder proposes. Never two (issue 30, ADR 074): two members
 * who each want what the other has are a barter suggestion (Barter Match's "They want your ..."), not
 * a circle of two offered beside the proposal they make. A swap day's loops may still be pairs.
 */
export const CIRCLE_MIN_MEMBERS = 3;
export const CIRCLE_MAX_MEMBERS = 4;

export const CIRCLE_BOXES = ['proposed', 'past'] as const;
export type CircleBox = (typeof CIRCLE_BOXES)[number];

/** Error codes of the circle endpoints (409). */
export const CIRCLE_ERROR_CODES = {
  /** The circle is no longer proposed (accepted, declined, expired) or the member acted already. */
  transition: 'CIRCLE_TRANSITION',
  /** An item of the circle was hidden, deleted or reserved in another barter. */
  itemUnavailable: 'CIRCLE_ITEM_UNAVAILABLE',
} as const;

export const CIRCLE_STATUS_LABELS: Record<CircleStatus, string> = {
  proposed: 'Waiting for everyone',
  accepted: 'Accepted',
  completed: 'Completed',
  declined: 'Declined',
  expired: 'Expired',
  cancelled: 'Canceled',
};

/** An item given in a circle, as proposed. */
export const circleItemSchema = z.object({
  /** Null once the item was deleted. */
  id: z.number().int().nullable(),
  title: z.string(),
  category: z.string(),
  isService: z.boolean(),
  thumbnailUrl: z.string().nullable(),
  estimatedValue: z.number().nullable(),
});
export type CircleItem = z.infer<typeof circleItemSchema>;

/** One member of a circle and what they give to the next one. */
export const circleStepSchema = z.object({
  member: memberRefSchema,
  me: z.boolean(),
  gives: circleItemSchema,
  accepted: z.boolean(),
});
export type CircleStep = z.infer<typeof circleStepSchema>;

/** A circle as one of its members sees it. */
export const circleSchema = z.object({
  id: z.number().int(),
  status: z.enum(CIRCLE_STATUSES),
  /** Its members in order: each gives to the next, the last to the first. */
  steps: z.array(circleStepSchema),
  /** What the viewer gives, to whom; what they get, from whom. */
  give: z.object({ item: circleItemSchema, to: memberRefSchema }),
  get: z.object({ item: circleItemSchema, from: memberRefSchema }),
  /** When a proposed circle dissolves. */
  expiresAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  /** What the viewer may do now. */
  allowedActions: z.array(z.enum(CIRCLE_ACTIONS)),
  /** Once accepted: the viewer's two hand-overs (barter ids) and the circle's conversation. */
  giveBarterId: z.number().int().nullable(),
  getBarterId: z.number().int().nullable(),
  threadId: z.number().int().nullable(),
  /** Who declined (a member reference), when it was declined. */
  closedBy: memberRefSchema.nullable(),
  /** The swap day whose loop this is, if any. */
  swapDayId: z.number().int().nullable(),
  /**
   * The circle this one replaces (issue 30, ADR 081): a member declined it or let it expire, and the
   * members left were offered this one, with someone new in their place or fewer members.
   */
  replacesId: z.number().int().nullable(),
});
export type Circle = z.infer<typeof circleSchema>;
export const circleListSchema = z.array(circleSchema);

/** GET /api/circles: the viewer's circles waiting for answers, or past ones. */
export const circleListQuerySchema = ownListQuerySchema.extend({
  box: z.enum(CIRCLE_BOXES, { error: `box must be one of ${CIRCLE_BOXES.join(', ')}` }).default('proposed'),
});

/**
 * The circle in one sentence from the viewer's seat: "You give your drill to Ann R.; you get a
 * tent from Raj K." (a circle of two: "…; you get a tent from Ann R.").
 */
export function circleSentence(circle: Pick<Circle, 'give' | 'get'>): string {
  return `You give your ${circle.give.item.title} to ${circle.give.to.displayName}; you get ${circle.get.item.title} from ${circle.get.from.displayName}.`;
}

/**
 * The whole loop in words, from the viewer: "You give Cordless drill to Ben T., Ben T. gives
 * Camping tent to Cat T., Cat T. gives Acoustic guitar to you".
 */
export function circlePath(circle: Pick<Circle, 'steps'>): string {
  const start = Math.max(
    0,
    circle.steps.findIndex((step) => step.me),
  );
  const steps = [...circle.steps.slice(start), ...circle.steps.slice(0, start)];
  const names = steps.map((step) => (step.me ? 'You' : step.member.displayName));
  return steps
    .map((step, index) => {
      const to = names[(index + 1) % names.length] ?? '';
      return `${names[index]} ${step.me ? 'give' : 'gives'} ${step.gives.title} to ${to === 'You' ? 'you' : to}`;
    })
    .join(', ');
}
