import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PENDING_EXPIRY_DAYS } from '#common/barter-machine.ts';
import {
  barterListQuerySchema,
  barterListSchema,
  barterSchema,
  cancelBarterSchema,
  chatMessageListSchema,
  chatMessageSchema,
  messagesQuerySchema,
  proposalSchema,
  ratingInputSchema,
  sendMessageSchema,
} from '#common/schemas/barters.ts';
import { proposalMessageListSchema } from '#common/schemas/conversations.ts';
import { apiErrorSchema } from '#common/schemas/errors.ts';
import { listingIdParamsSchema, TOTAL_COUNT_HEADER } from '#common/schemas/listings.ts';
import { unreadCountsSchema } from '#common/schemas/notifications.ts';
import { memberRateLimit } from '../../plugins/member-rate-limit';
import {
  listMessages,
  listProposalMessages,
  markConversationRead,
  sendMessage,
} from './barter-messages-service';
import { presentBarter, presentChatMessage } from './barters-presenter';
import * as barters from './barters-service';
import { handOverCodeRoutes } from './hand-over-code-routes';
import { handOverPlanRoutes } from './hand-over-plan-routes';
import { noShowRoutes } from './no-show-routes';

const MESSAGE_WINDOW_MS = 10 * 60_000;

const ITEM_RULES =
  'offeredItemIds are your own items, requestedItemIds items of one other member (the recipient); ' +
  'all active and not reserved. 400 BARTER_INVALID_ITEMS: unknown ids, items of the wrong owner, ' +
  'your own item asked for, items of two members. 409 BARTER_ITEM_UNAVAILABLE: an item is inactive ' +
  'or reserved in an accepted barter. 409 BARTER_DUPLICATE: the same proposal is pending already. ' +
  'A message breaking the Terms: 400 CONTENT_NOT_ALLOWED.';
const TRANSITION =
  'Decided by the barter state machine (common/barter-machine.ts): an action it does not allow ' +
  'the caller now answers 409 BARTER_TRANSITION with the reason. A request the caller is not part ' +
  'of answers 404, like an unknown one.';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema };

/**
 * Barter requests and their conversations (issue 13): propose, list, read, the actions of the state
 * machine, and messages. Every answer is the viewer's own view of a request.
 */
export async function bartersRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const present = async (memberId: string, id: number) =>
    presentBarter(await barters.getBarter(app.db, { id: memberId }, id), memberId, new Date());

  routes.post(
    '/api/barter-requests',
    {
      config: memberRateLimit({
        name: 'barter-proposal',
        max: app.config.rateLimits.barterProposalsPerHour,
        what: 'new proposals',
      }),
      schema: {
        tags: ['barters'],
        summary: `Propose a barter; it stays pending for ${PENDING_EXPIRY_DAYS} days`,
        description: `${ITEM_RULES} More than BARTER_PROPOSAL_RATE_LIMIT an hour: 429 RATE_LIMITED.`,
        body: proposalSchema,
        response: { 201: barterSchema, ...errors, 429: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const id = await barters.propose(app.db, request.member, request.body);
      return reply.code(201).send(await present(request.member.id, id));
    },
  );

  routes.get(
    '/api/barter-requests',
    {
      schema: {
        tags: ['barters'],
        summary: 'One of the Barters lists, newest updated first, a page at a time',
        description:
          'box: incoming (pending, to you), outgoing (pending, from you), active (accepted), past ' +
          '(completed, declined, withdrawn, cancelled, expired; countered ones are left out: the ' +
          'counter stands for them). `limit` (default 50, at most 100) and `offset` page the list; ' +
          'X-Total-Count says how many there are in all.',
        querystring: barterListQuerySchema,
        response: { 200: barterListSchema, 400: apiErrorSchema, 401: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const now = new Date();
      const { box, limit, offset } = request.query;
      const page = await barters.listBarters(app.db, request.member, box, { limit, offset }, now);
      reply.header(TOTAL_COUNT_HEADER, String(page.total));
      return page.rows.map((view) => presentBarter(view, request.member.id, now));
    },
  );

  routes.get(
    '/api/barter-requests/:id',
    {
      schema: {
        tags: ['barters'],
        summary: 'A barter request you take part in, in any state',
        params: listingIdParamsSchema,
        response: { 200: barterSchema, 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => present(request.member.id, request.params.id),
  );

  const simpleActions = {
    accept: {
      summary: 'Accept a pending proposal (the recipient): its items are reserved for it',
      run: barters.accept,
    },
    decline: {
      summary: 'Decline a pending proposal (the recipient)',
      run: (db, member, id) => barters.close(db, member, id, 'decline'),
    },
    withdraw: {
      summary: 'Withdraw your pending proposal (the sender)',
      run: (db, member, id) => barters.close(db, member, id, 'withdraw'),
    },
    confirm: {
      summary: 'Confirm an accepted barter happened; the second confirmation completes it',
      run: barters.confirm,
    },
  } satisfies Record<
    string,
    { summary: string; run: (db: typeof app.db, member: { id: string }, id: number) => Promise<void> }
  >;

  for (const [action, { summary, run }] of Object.entries(simpleActions)) {
    routes.post(
      `/api/barter-requests/:id/${action}`,
      {
        schema: {
          tags: ['barters'],
          summary,
          description: `No body. ${TRANSITION}${action === 'accept' ? ' An item no longer free: 409 BARTER_ITEM_UNAVAILABLE.' : ''}`,
          params: listingIdParamsSchema,
          response: { 200: barterSchema, ...errors },
        },
      },
      async (request) => {
        await run(app.db, request.member, request.params.id);
        return present(request.member.id, request.params.id);
      },
    );
  }

  routes.post(
    '/api/barter-requests/:id/cancel',
    {
      schema: {
        tags: ['barters'],
        summary: 'Cancel an accepted barter, with a reason; its items are free again',
        description: `${TRANSITION} A reason breaking the Terms: 400 CONTENT_NOT_ALLOWED.`,
        params: listingIdParamsSchema,
        body: cancelBarterSchema,
        response: { 200: barterSchema, ...errors },
      },
    },
    async (request) => {
      await barters.cancel(app.db, request.member, request.params.id, request.body);
      return present(request.member.id, request.params.id);
    },
  );

  routes.post(
    '/api/barter-requests/:id/counter',
    {
      config: memberRateLimit({
        name: 'barter-counter',
        max: app.config.rateLimits.barterProposalsPerHour,
        what: 'counters',
      }),
      schema: {
        tags: ['barters'],
        summary: 'Counter a pending proposal (the recipient) with a new one in the same thread',
        description:
          'offeredItemIds are your own items, requestedItemIds the proposer’s; answers the new ' +
          `pending request and marks this one countered. ${ITEM_RULES} ${TRANSITION}`,
        params: listingIdParamsSchema,
        body: proposalSchema,
        response: { 201: barterSchema, ...errors, 429: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const id = await barters.counter(app.db, request.member, request.params.id, request.body);
      return reply.code(201).send(await present(request.member.id, id));
    },
  );

  routes.post(
    '/api/barter-requests/:id/rating',
    {
      schema: {
        tags: ['barters'],
        summary: 'Rate the other member of a completed barter, once',
        description: `${TRANSITION} A comment breaking the Terms: 400 CONTENT_NOT_ALLOWED.`,
        params: listingIdParamsSchema,
        body: ratingInputSchema,
        response: { 200: barterSchema, ...errors },
      },
    },
    async (request) => {
      await barters.rate(app.db, request.member, request.params.id, request.body);
      return present(request.member.id, request.params.id);
    },
  );

  routes.get(
    '/api/barter-requests/:id/messages',
    {
      schema: {
        tags: ['barters'],
        summary: 'The conversation of a barter’s thread: the newest messages, or those before `before`',
        description: 'Oldest first; `limit` (default 50, at most 100) messages.',
        params: listingIdParamsSchema,
        querystring: messagesQuerySchema,
        response: {
          200: chatMessageListSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          404: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const rows = await listMessages(app.db, request.member, request.params.id, request.query);
      return rows.map((row) => presentChatMessage(row, request.member.id));
    },
  );

  routes.get(
    '/api/barter-requests/:id/proposal-messages',
    {
      schema: {
        tags: ['barters'],
        summary: 'The messages sent with the proposal and each counter of the barter’s negotiation',
        description:
          'Oldest first (ADR 076): a counter continues the conversation, so the earlier ones stay in it.',
        params: listingIdParamsSchema,
        response: {
          200: proposalMessageListSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          404: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const rows = await listProposalMessages(app.db, request.member, request.params.id);
      return rows.map((row) => ({
        barterId: row.id,
        isCounter: row.counterOfId !== null,
        fromMe: row.fromUserId === request.member.id,
        content: row.message,
        createdAt: row.createdAt.toISOString(),
      }));
    },
  );

  routes.post(
    '/api/barter-requests/:id/messages',
    {
      config: memberRateLimit({
        name: 'barter-message',
        max: app.config.rateLimits.messagesPerTenMinutes,
        windowMs: MESSAGE_WINDOW_MS,
        what: 'messages',
      }),
      schema: {
        tags: ['barters'],
        summary: 'Send a message in a barter’s conversation',
        description:
          'Wording that breaks the Terms: 400 CONTENT_NOT_ALLOWED. More than MESSAGE_RATE_LIMIT in 10 ' +
          'minutes: 429 RATE_LIMITED.',
        params: listingIdParamsSchema,
        body: sendMessageSchema,
        response: { 201: chatMessageSchema, ...errors, 429: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const row = await sendMessage(app.db, request.member, request.params.id, request.body.content);
      return reply.code(201).send(presentChatMessage(row, request.member.id));
    },
  );

  routes.post(
    '/api/barter-requests/:id/messages/read',
    {
      schema: {
        tags: ['barters'],
        summary: 'Mark the conversation read; answers your unread counts',
        description: 'No body. Also marks your message notifications of this conversation read.',
        params: listingIdParamsSchema,
        response: { 200: unreadCountsSchema, 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => markConversationRead(app.db, request.member, request.params.id),
  );

  await handOverCodeRoutes(app);
  await handOverPlanRoutes(app);
  await noShowRoutes(app);
}
