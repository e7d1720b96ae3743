import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '#common/schemas/errors.ts';
import { listingIdParamsSchema } from '#common/schemas/listings.ts';
import {
  answerNoShowSchema,
  attendanceSchema,
  confirmAttendanceSchema,
  decideNoShowSchema,
  disputedNoShowListSchema,
  NO_SHOW_ERROR_CODES,
  reportNoShowSchema,
} from '#common/schemas/no-shows.ts';
import { assertModerator } from '../safety';
import {
  answerNoShow,
  confirmAttendance,
  decideNoShow,
  disputedNoShows,
  getAttendance,
  reportNoShow,
} from './no-shows';

const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  403: apiErrorSchema,
  404: apiErrorSchema,
  409: apiErrorSchema,
};

/** Keeping your word (issue 30, ADR 079): no-show reports, answers, "Confirm you'll be there", the moderators' decisions. */
export async function noShowRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/barter-requests/:id/attendance';

  routes.get(
    base,
    {
      schema: {
        tags: ['barters'],
        summary: 'Keeping your word on this barter: whether you may report a no-show, reports, confirmations',
        description: 'Never says who reported whom beyond "yours" and "about you". Others: 404.',
        params: listingIdParamsSchema,
        response: { 200: attendanceSchema, ...errors },
      },
    },
    async (request) => getAttendance(app.db, request.member, request.params.id),
  );

  routes.post(
    `${base}/report`,
    {
      schema: {
        tags: ['barters'],
        summary: '“They didn’t come”: report that the other member missed the agreed hand-over',
        description:
          `After the agreed window (\`version\`) ended, once per member per plan version. 409 ${NO_SHOW_ERROR_CODES.windowOpen}: ` +
          `the window has not ended; 409 ${NO_SHOW_ERROR_CODES.noPlan}: no agreed plan; 409 ${NO_SHOW_ERROR_CODES.alreadyReported}; ` +
          '409 BARTER_TRANSITION: not accepted (completed, cancelled); 409 HAND_OVER_PLAN_CHANGED. Others: 404.',
        params: listingIdParamsSchema,
        body: reportNoShowSchema,
        response: { 200: attendanceSchema, ...errors },
      },
    },
    async (request) => reportNoShow(app.db, request.member, request.params.id, request.body.version),
  );

  routes.post(
    `${base}/answer`,
    {
      schema: {
        tags: ['barters'],
        summary: 'Answer a no-show report about you: “I was there” or “We rescheduled”, with a short note',
        description:
          `Within 48 hours of the report. 409 ${NO_SHOW_ERROR_CODES.answerClosed}: too late; 409 ` +
          `${NO_SHOW_ERROR_CODES.alreadyAnswered}. 404: no report about you on this barter.`,
        params: listingIdParamsSchema,
        body: answerNoShowSchema,
        response: { 200: attendanceSchema, ...errors },
      },
    },
    async (request) => answerNoShow(app.db, request.member, request.params.id, request.body),
  );

  routes.post(
    `${base}/confirm`,
    {
      schema: {
        tags: ['barters'],
        summary: '“Confirm you’ll be there” for the agreed plan (`version`)',
        description: `From 24 hours before the window until it ends; else 409 ${NO_SHOW_ERROR_CODES.confirmClosed}.`,
        params: listingIdParamsSchema,
        body: confirmAttendanceSchema,
        response: { 200: attendanceSchema, ...errors },
      },
    },
    async (request) => confirmAttendance(app.db, request.member, request.params.id, request.body.version),
  );

  // The moderators' queue of disputed reports: 403 NOT_MODERATOR for everyone else.
  await app.register(async (moderators) => {
    moderators.addHook('preHandler', async (request) => assertModerator(request.member));
    const mod = moderators.withTypeProvider<ZodTypeProvider>();
    mod.get(
      '/api/moderation/no-shows',
      {
        schema: {
          tags: ['moderation'],
          summary: 'Disputed no-show reports (answered, not decided), oldest answer first',
          response: { 200: disputedNoShowListSchema, ...errors },
        },
      },
      async () => disputedNoShows(app.db),
    );
    mod.post(
      '/api/moderation/no-shows/:id/decision',
      {
        schema: {
          tags: ['moderation'],
          summary: 'Decide a disputed no-show report: kept, missed or dismissed',
          description: `409 ${NO_SHOW_ERROR_CODES.notDisputed}: not answered or already decided. 403: a report you are part of.`,
          params: z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }),
          body: decideNoShowSchema,
          response: { 204: z.undefined(), ...errors },
        },
      },
      async (request, reply) => {
        await decideNoShow(app.db, request.member, request.params.id, request.body.decision);
        return reply.code(204).send();
      },
    );
  });
}
