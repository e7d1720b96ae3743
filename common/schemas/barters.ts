import { z } from 'zod';
import { BARTER_ACTIONS, BARTER_BOXES, BARTER_MAX_ITEMS_PER_SIDE, BARTER_STATUSES } from '../barter-machine';
import { MESSAGES_MAX_PAGE_SIZE, MESSAGES_PAGE_SIZE } from '../constants';
import { ownListQuerySchema } from './listings';
import { wholeNumberParam } from './numbers';
import { textField } from './text';

/** Longest proposal message, message in a conversation, cancel reason and rating comment. */
export const BARTER_MESSAGE_MAX_LENGTH = 1000;
export const CHAT_MESSAGE_MAX_LENGTH = 2000;
export const CANCEL_REASON_MAX_LENGTH = 500;
export const RATING_COMMENT_MAX_LENGTH = 500;

export const BARTER_MESSAGES = {
  chooseOffered: 'Choose at least one of your items to offer',
  chooseRequested: 'Choose at least one of their items',
  tooManyItems: `At most ${BARTER_MAX_ITEMS_PER_SIDE} items on each side`,
  reasonRequired: 'Please say why you are canceling',
  messageRequired: 'Message cannot be empty',
  starsRequired: 'Choose from 1 to 5 stars',
} as const;

/** Error codes of the barter endpoints (409 unless noted). */
export const BARTER_ERROR_CODES = {
  /** The action is not allowed in the request's state or for the viewer's side. */
  transition: 'BARTER_TRANSITION',
  /** An item is gone, inactive or reserved by another accepted barter. */
  itemUnavailable: 'BARTER_ITEM_UNAVAILABLE',
  /** 400: items of the wrong owner, your own item asked for, items of two members. */
  invalidItems: 'BARTER_INVALID_ITEMS',
  /** The same pending proposal exists already. */
  duplicate: 'BARTER_DUPLICATE',
} as const;

const itemIdsField = (required: string) =>
  z
    .array(z.number({ error: required }).int().positive().max(2_147_483_647), { error: required })
    .min(1, required)
    .max(BARTER_MAX_ITEMS_PER_SIDE, BARTER_MESSAGES.tooManyItems)
    .refine((ids) => new Set(ids).size === ids.length, 'Each item can be chosen once');

const optionalMessageField = textField('Message', { multiline: true })
  .max(BARTER_MESSAGE_MAX_LENGTH, `Message must be at most ${BARTER_MESSAGE_MAX_LENGTH} characters`)
  .optional()
  .transform((value) => (value ? value : undefined));

/**
 * POST /api/barter-requests and POST /api/barter-requests/:id/counter: the proposer's items they
 * offer, the other member's items they ask for (all of one member), and an optional message.
 */
export const proposalSchema = z.strictObject({
  offeredItemIds: itemIdsField(BARTER_MESSAGES.chooseOffered),
  requestedItemIds: itemIdsField(BARTER_MESSAGES.chooseRequested),
  message: optionalMessageField,
});
export type ProposalInput = z.input<typeof proposalSchema>;

/** POST /api/barter-requests/:id/cancel. */
export const cancelBarterSchema = z.strictObject({
  reason: textField('Reason', { multiline: true, error: BARTER_MESSAGES.reasonRequired })
    .min(1, BARTER_MESSAGES.reasonRequired)
    .max(CANCEL_REASON_MAX_LENGTH, `Reason must be at most ${CANCEL_REASON_MAX_LENGTH} characters`),
});

/** POST /api/barter-requests/:id/rating: 1-5 stars and an optional comment (moderated). */
export const ratingInputSchema = z.strictObject({
  stars: z
    .number({ error: BARTER_MESSAGES.starsRequired })
    .int(BARTER_MESSAGES.starsRequired)
    .min(1, BARTER_MESSAGES.starsRequired)
    .max(5, BARTER_MESSAGES.starsRequired),
  comment: textField('Comment', { multiline: true })
    .max(RATING_COMMENT_MAX_LENGTH, `Comment must be at most ${RATING_COMMENT_MAX_LENGTH} characters`)
    .optional()
    .transform((value) => (value ? value : undefined)),
});
export type RatingInput = z.input<typeof ratingInputSchema>;

/** POST /api/barter-requests/:id/messages. */
export const sendMessageSchema = z.strictObject({
  content: textField('Message', { multiline: true, error: BARTER_MESSAGES.messageRequired })
    .min(1, BARTER_MESSAGES.messageRequired)
    .max(CHAT_MESSAGE_MAX_LENGTH, `Message must be at most ${CHAT_MESSAGE_MAX_LENGTH} characters`),
});

/** GET /api/barter-requests: one of the Barters screen's lists, offset paging, newest first. */
export const barterListQuerySchema = ownListQuerySchema.extend({
  box: z.enum(BARTER_BOXES, { error: `box must be one of ${BARTER_BOXES.join(', ')}` }),
});

/** GET /api/barter-requests/:id/messages: the newest page, or the page before message `before`. */
export const messagesQuerySchema = z.object({
  limit: wholeNumberParam('limit', 1, MESSAGES_MAX_PAGE_SIZE).default(MESSAGES_PAGE_SIZE),
  before: wholeNumberParam('before', 1, 2_147_483_647).optional(),
});

/**
 * Another member as barters, notifications and member pages show them: first name and last initial
 * ("Ann R."), picture. Never an e-mail or a position. `id` null when the account was deleted
 * (displayName 'User').
 */
export const memberRefSchema = z.object({
  id: z.string().nullable(),
  displayName: z.string(),
  profileImageUrl: z.string().nullable(),
});
export type MemberRef = z.infer<typeof memberRefSchema>;

/** An item of a proposal, as it was proposed, and whether it can still change hands. */
export const barterItemSchema = z.object({
  /** Null when the item was deleted since. */
  id: z.number().int().nullable(),
  title: z.string(),
  category: z.string(),
  isService: z.boolean(),
  thumbnailUrl: z.string().nullable(),
  /** Exists, is active, and is not reserved by another accepted barter. */
  available: z.boolean(),
});
export type BarterItem = z.infer<typeof barterItemSchema>;

/** A barter request as one of its two members sees it (lists and page alike). */
export const barterSchema = z.object({
  id: z.number().int(),
  /** The conversation's id: the first request of the negotiation. */
  threadId: z.number().int(),
  status: z.enum(BARTER_STATUSES),
  role: z.enum(['sender', 'recipient']),
  /** The other member. */
  otherMember: memberRefSchema,
  /** What the sender gives. */
  offeredItems: z.array(barterItemSchema),
  /** What the sender asks for (the recipient gives). */
  requestedItems: z.array(barterItemSchema),
  message: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  /** When a pending request expires; null once it is no longer pending. */
  expiresAt: z.iso.datetime().nullable(),
  /** Messages to the viewer in this conversation they have not read. */
  unreadMessages: z.number().int().nonnegative(),
  /** What the viewer may do now (common/barter-machine.ts); the web shows exactly these. */
  allowedActions: z.array(z.enum(BARTER_ACTIONS)),
  /** The request this one counters, and the counter that answered this one. */
  counterOfId: z.number().int().nullable(),
  counteredById: z.number().int().nullable(),
  /** Completion confirmations of an accepted barter. */
  confirmedByMe: z.boolean(),
  confirmedByOther: z.boolean(),
  /** Who closed it (declined, withdrew, cancelled) and the cancel reason. */
  closedBy: z.enum(['me', 'them']).nullable(),
  closeReason: z.string().nullable(),
  /** The ratings exchanged after completion. */
  myRating: z.object({ stars: z.number().int(), comment: z.string().nullable() }).nullable(),
  /** The other member's rating, once revealed (issue 30, ADR 074: revealed together); null before. */
  theirRating: z.object({ stars: z.number().int(), comment: z.string().nullable() }).nullable(),
  /** The viewer rated and the other member does not see it yet: until they rate, or this moment. */
  myRatingHiddenUntil: z.iso.datetime().nullable(),
  /** The other member rated and the viewer does not see it yet: until the viewer rates, or this moment. */
  theirRatingHiddenUntil: z.iso.datetime().nullable(),
  /**
   * A hand-over of a trade circle or swap-day loop (issue 16): the sender gives the one offered
   * item to the recipient, nothing comes back in this barter (it comes from another member).
   */
  circleId: z.number().int().nullable(),
  /** The swap day whose hand-over this is, by its name (issue 30: labelled as the day's), or null. */
  swapDay: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});
export type Barter = z.infer<typeof barterSchema>;

export const barterListSchema = z.array(barterSchema);

/** A message of a conversation. */
export const chatMessageSchema = z.object({
  id: z.number().int(),
  /** The conversation (thread) id. */
  barterRequestId: z.number().int(),
  /** Null once the sender deleted their account (the message stays, without a name). */
  fromUserId: z.string().nullable(),
  fromMe: z.boolean(),
  content: z.string(),
  isRead: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const chatMessageListSchema = z.array(chatMessageSchema);
