import { z } from 'zod';
import { memberRefSchema } from './barters';

/** How long the inbox's preview of a conversation's last message is, at most (then "…"). */
export const CONVERSATION_PREVIEW_LENGTH = 120;

/**
 * One conversation of the signed-in member's inbox (GET /api/messages/conversations, ADR 076): a
 * barter's negotiation, a trade circle's shared conversation, or a swap-day hand-over's.
 */
export const conversationSchema = z.object({
  /** The conversation (thread) id: the first request of the negotiation. */
  id: z.number().int(),
  kind: z.enum(['barter', 'circle', 'swapDay']),
  /** The member's own request of the conversation to open (the newest of the negotiation). */
  barterId: z.number().int(),
  circleId: z.number().int().nullable(),
  /** The swap day a hand-over belongs to. */
  swapDay: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** Everyone else in it, as barters name them: never an e-mail. */
  members: z.array(memberRefSchema),
  /** The newest message the member reads in it, its text trimmed to CONVERSATION_PREVIEW_LENGTH. */
  lastMessage: z.object({
    id: z.number().int(),
    fromMe: z.boolean(),
    /** The sender; null for a former member. */
    fromUserId: z.string().nullable(),
    preview: z.string(),
    createdAt: z.iso.datetime(),
  }),
  /** Messages to the member in it they have not read. */
  unread: z.number().int().nonnegative(),
});
export type Conversation = z.infer<typeof conversationSchema>;

export const conversationListSchema = z.array(conversationSchema);

/**
 * A message that came with a proposal or a counter of the negotiation (ADR 076): the conversation
 * shows them at their place, so a counter keeps what was said before it.
 */
export const proposalMessageSchema = z.object({
  /** The proposal or counter it came with. */
  barterId: z.number().int(),
  isCounter: z.boolean(),
  fromMe: z.boolean(),
  content: z.string(),
  createdAt: z.iso.datetime(),
});
export type ProposalMessage = z.infer<typeof proposalMessageSchema>;

export const proposalMessageListSchema = z.array(proposalMessageSchema);
