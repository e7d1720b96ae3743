import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '#common/schemas/errors.ts';
import {
  listingIdParamsSchema,
  ownListQuerySchema,
  TOTAL_COUNT_HEADER,
  wantAnswerSchema,
  wantFormSchema,
  wantQuestionSchema,
  wantQuestionsQuerySchema,
  wantSchema,
  wantUpdateSchema,
} from '#common/schemas/listings.ts';
import { memberRateLimit } from '../../plugins/member-rate-limit';
import { presentWant } from './wants-presenter';
import * as wantsService from './wants-service';

const MODERATION =
  'Wording that breaks the Terms: 400 CONTENT_NOT_ALLOWED (message contains "not appropriate").';

/**
 * The signed-in member's want list (spec sections 2 and 7): list, add, edit, deactivate, delete.
 * Someone else's want answers 404, like a missing one.
 */
export async function wantsRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/wants/my',
    {
      schema: {
        tags: ['wants'],
        summary: "The signed-in member's wants, active and inactive, newest first, a page at a time",
        description:
          '`limit` (default 50, at most 100) and `offset` page the list; the X-Total-Count header ' +
          'says how many wants the member has in all.',
        querystring: ownListQuerySchema,
        response: { 200: z.array(wantSchema), 400: apiErrorSchema, 401: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const page = await wantsService.listMyWants(app.db, request.member, request.query);
      reply.header(TOTAL_COUNT_HEADER, String(page.total));
      return page.rows.map(presentWant);
    },
  );

  routes.post(
    '/api/wants',
    {
      config: memberRateLimit({
        name: 'want-create',
        max: app.config.rateLimits.wantCreatePerHour,
        what: 'new wants',
      }),
      schema: {
        tags: ['wants'],
        summary: 'Add a want to your list',
        description: `${MODERATION} More than WANT_CREATE_RATE_LIMIT new wants an hour: 429 RATE_LIMITED.`,
        body: wantFormSchema,
        response: { 201: wantSchema, 400: apiErrorSchema, 401: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const row = await wantsService.createWant(app.db, request.member, request.body);
      return reply.code(201).send(presentWant(row));
    },
  );

  routes.patch(
    '/api/wants/:id',
    {
      schema: {
        tags: ['wants'],
        summary: 'Edit your want, or deactivate and reactivate it with isActive',
        description: MODERATION,
        params: listingIdParamsSchema,
        body: wantUpdateSchema,
        response: { 200: wantSchema, 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, _reply) => {
      const row = await wantsService.updateWant(app.db, request.member, request.params.id, request.body);
      return presentWant(row);
    },
  );

  routes.delete(
    '/api/wants/:id',
    {
      schema: {
        tags: ['wants'],
        summary: 'Delete your want',
        params: listingIdParamsSchema,
        response: { 204: z.undefined(), 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      await wantsService.deleteWant(app.db, request.member, request.params.id);
      return reply.code(204).send();
    },
  );

  routes.get(
    '/api/wants/questions',
    {
      schema: {
        tags: ['wants'],
        summary: '"Did this fill your want?": the member\'s open questions after completed trades',
        description:
          'One row per active want of the member that an item they received in a completed barter ' +
          'matches, when the trade did not name the want (a named want is fulfilled at once). ' +
          "`barterRequestId` keeps one barter's. Oldest first, at most 100 (issue 30, ADR 073).",
        querystring: wantQuestionsQuerySchema,
        response: { 200: z.array(wantQuestionSchema), 400: apiErrorSchema, 401: apiErrorSchema },
      },
    },
    async (request) => wantsService.listWantQuestions(app.db, request.member, request.query.barterRequestId),
  );

  routes.post(
    '/api/wants/:id/answer',
    {
      schema: {
        tags: ['wants'],
        summary: 'Answer "Did this fill your want?" for one completed barter',
        description:
          '`filled` true marks the want fulfilled (inactive: it leaves the active list and stops ' +
          'matching); false only takes the question away. No such open question (answered already, ' +
          "never asked, someone else's): 404 WANT_QUESTION_NOT_FOUND.",
        params: listingIdParamsSchema,
        body: wantAnswerSchema,
        response: { 200: wantSchema, 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) =>
      presentWant(
        await wantsService.answerWantQuestion(app.db, request.member, request.params.id, request.body),
      ),
  );

  routes.post(
    '/api/wants/:id/keep-open',
    {
      schema: {
        tags: ['wants'],
        summary: 'Keep a want open ("I want more of these"): active and matching again',
        params: listingIdParamsSchema,
        response: { 200: wantSchema, 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) =>
      presentWant(await wantsService.keepWantOpen(app.db, request.member, request.params.id)),
  );
}
