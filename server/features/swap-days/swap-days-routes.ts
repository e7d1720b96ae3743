import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '#common/schemas/errors.ts';
import { listingIdParamsSchema } from '#common/schemas/listings.ts';
import {
  SWAP_DAY_MAX_MEMBERS,
  SWAP_DAY_MAX_OFFERS_PER_MEMBER,
  SWAP_DAY_MAX_OPEN_ORGANISED,
  SWAP_DAY_MAX_WANTS_PER_OFFER,
  swapDayInputSchema,
  swapDayItemParamsSchema,
  swapDayListsSchema,
  swapDayOfferInputSchema,
  swapDaySchema,
  swapDaySheetSchema,
  swapDayWantsInputSchema,
} from '#common/schemas/swap-days.ts';
import { askForMatch } from './swap-day-match';
import * as swapDays from './swap-days-service';

const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  403: apiErrorSchema,
  404: apiErrorSchema,
  409: apiErrorSchema,
};

const VISIBILITY =
  'A swap day is seen by its organizer, its members and members within their travel distance of ' +
  'where it was organized (no block either way); to anyone else it answers 404, like an unknown id.';
const OPEN =
  'Only while want lists are open (before the deadline, not matched or cancelled): otherwise 409 ' +
  'SWAP_DAY_CLOSED. Without having joined: 409 SWAP_DAY_NOT_JOINED.';

/**
 * Swap days (issue 16, ADR 030): organize, list, read, join and leave, offer and withdraw items,
 * rank what you would accept, close want lists and match (the organizer), cancel, and the pick-up
 * sheet. Every answer is the viewer's own view.
 */
export async function swapDaysRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const view = (member: swapDays.SwapDayViewer, id: number) => swapDays.getSwapDay(app.db, member, id);

  routes.get(
    '/api/swap-days',
    {
      schema: {
        tags: ['swap days'],
        summary: 'Your swap days (organized or joined) and open ones near you',
        description: `Each list at most 50. Near: want lists still open, within your travel distance of where it was organized, soonest first; none without a location.`,
        response: { 200: swapDayListsSchema, 401: apiErrorSchema },
      },
    },
    async (request) => swapDays.listSwapDays(app.db, request.member),
  );

  routes.post(
    '/api/swap-days',
    {
      schema: {
        tags: ['swap days'],
        summary: 'Organize a swap day; you are its first member',
        description:
          'startsAt and deadline are instants with an offset; want lists close (deadline) in the future ' +
          `and before the start, which is within a year. Needs your location (400 SWAP_DAY_LOCATION_REQUIRED). ` +
          `At most ${SWAP_DAY_MAX_OPEN_ORGANISED} not yet matched at a time (409 SWAP_DAY_LIMIT). ` +
          'Wording breaking the Terms: 400 CONTENT_NOT_ALLOWED.',
        body: swapDayInputSchema,
        response: { 201: swapDaySchema, ...errors },
      },
    },
    async (request, reply) => {
      const id = await swapDays.createSwapDay(app.db, request.member, request.body);
      return reply.code(201).send(await view(request.member, id));
    },
  );

  routes.get(
    '/api/swap-days/:id',
    {
      schema: {
        tags: ['swap days'],
        summary: 'A swap day as you see it: members, offers, your rankings, what you may do, the result',
        description: VISIBILITY,
        params: listingIdParamsSchema,
        response: { 200: swapDaySchema, ...errors },
      },
    },
    async (request) => view(request.member, request.params.id),
  );

  const simple = {
    join: {
      summary: 'Join a swap day (before the deadline)',
      description: `${VISIBILITY} Closed: 409 SWAP_DAY_CLOSED; ${SWAP_DAY_MAX_MEMBERS} members already: 409 SWAP_DAY_LIMIT.`,
      run: swapDays.join,
    },
    leave: {
      summary: 'Leave a swap day (before the deadline): your offers and rankings go with you',
      description: `${VISIBILITY} The organizer cannot leave: 409 SWAP_DAY_ORGANISER_STAYS.`,
      run: swapDays.leave,
    },
    cancel: {
      summary: 'Cancel a swap day (the organizer, before it is matched)',
      description: `${VISIBILITY} Another member: 403 SWAP_DAY_ORGANISER_ONLY. Matched already: 409 SWAP_DAY_CLOSED.`,
      run: swapDays.cancel,
    },
  } satisfies Record<
    string,
    {
      summary: string;
      description: string;
      run: (db: typeof app.db, member: swapDays.SwapDayViewer, id: number) => Promise<void>;
    }
  >;
  for (const [action, { summary, description, run }] of Object.entries(simple)) {
    routes.post(
      `/api/swap-days/:id/${action}`,
      {
        schema: {
          tags: ['swap days'],
          summary,
          description: `No body. ${description}`,
          params: listingIdParamsSchema,
          response: { 200: swapDaySchema, ...errors },
        },
      },
      async (request) => {
        await run(app.db, request.member, request.params.id);
        return view(request.member, request.params.id);
      },
    );
  }

  routes.post(
    '/api/swap-days/:id/close',
    {
      schema: {
        tags: ['swap days'],
        summary: 'Close want lists and match (the organizer): 202 at once, the result follows',
        description:
          `No body. ${VISIBILITY} Answers 202 with the swap day 'matching' (matchStage 'waiting'), ` +
          'committed; the match runs as a job and its stages and result reach every member through ' +
          "'swapDay' live events (ADR 050). Also after a failed match, to try again. Another member: " +
          '403 SWAP_DAY_ORGANISER_ONLY. Being matched, matched or cancelled: 409 SWAP_DAY_CLOSED. ' +
          'Matching runs once, however many ask at once.',
        params: listingIdParamsSchema,
        response: { 202: swapDaySchema, ...errors },
      },
      // The job is asked for once the answer is out: on the embedded database its first reads
      // would otherwise run before the answer is written.
      onResponse: async (_request, reply) => {
        if (reply.statusCode === 202) askForMatch(app);
      },
    },
    async (request, reply) => {
      await swapDays.closeAndMatch(app.db, request.member, request.params.id);
      return reply.code(202).send(await view(request.member, request.params.id));
    },
  );

  routes.post(
    '/api/swap-days/:id/offers',
    {
      schema: {
        tags: ['swap days'],
        summary: 'Offer items of yours at a swap day',
        description:
          `${OPEN} Not your item: 400 SWAP_DAY_INVALID_ITEMS; hidden or reserved: 409 ` +
          `SWAP_DAY_ITEM_UNAVAILABLE; more than ${SWAP_DAY_MAX_OFFERS_PER_MEMBER} in all: 409 SWAP_DAY_LIMIT.`,
        params: listingIdParamsSchema,
        body: swapDayOfferInputSchema,
        response: { 200: swapDaySchema, ...errors },
      },
    },
    async (request) => {
      await swapDays.offer(app.db, request.member, request.params.id, request.body);
      return view(request.member, request.params.id);
    },
  );

  routes.delete(
    '/api/swap-days/:id/offers/:itemId',
    {
      schema: {
        tags: ['swap days'],
        summary: 'Withdraw one of your offers (and every ranking naming it)',
        description: `${OPEN} Not your offer here: 404.`,
        params: swapDayItemParamsSchema,
        response: { 200: swapDaySchema, ...errors },
      },
    },
    async (request) => {
      await swapDays.withdraw(app.db, request.member, request.params.id, request.params.itemId);
      return view(request.member, request.params.id);
    },
  );

  routes.put(
    '/api/swap-days/:id/offers/:itemId/wants',
    {
      schema: {
        tags: ['swap days'],
        summary: 'Rank what you would accept for one of your offers, most wanted first',
        description:
          `Replaces the whole list (at most ${SWAP_DAY_MAX_WANTS_PER_OFFER}; empty clears it). ${OPEN} Not your ` +
          'offer here: 404. Your own item, or an item not offered here by another member: 400 SWAP_DAY_INVALID_ITEMS.',
        params: swapDayItemParamsSchema,
        body: swapDayWantsInputSchema,
        response: { 200: swapDaySchema, ...errors },
      },
    },
    async (request) => {
      const { id, itemId } = request.params;
      await swapDays.rank(app.db, request.member, id, itemId, request.body);
      return view(request.member, id);
    },
  );

  routes.get(
    '/api/swap-days/:id/sheet',
    {
      schema: {
        tags: ['swap days'],
        summary: 'The pick-up sheet: every hand-over by giver (the organizer), or your own lines',
        description:
          'Members and the organizer only (others: 404). Before matching: 409 SWAP_DAY_NOT_SOLVED.',
        params: listingIdParamsSchema,
        response: { 200: swapDaySheetSchema, ...errors },
      },
    },
    async (request) => swapDays.getSheet(app.db, request.member, request.params.id),
  );
}
