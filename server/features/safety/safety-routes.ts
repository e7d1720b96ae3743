import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '#common/schemas/errors.ts';
import { memberParamsSchema } from '#common/schemas/members.ts';
import {
  appealSchema,
  auditEntrySchema,
  blockedMemberSchema,
  moderationCaseSchema,
  refusalSchema,
  reportSchema,
  resolveReportSchema,
} from '#common/schemas/safety.ts';
import { notFound } from '../../errors';
import { HOUR_MS, memberRateLimit } from '../../plugins/member-rate-limit';
import { isMemberId, memberExists } from '../member-refs';
import { blockMember, listBlocked, unblockMember } from './blocks';
import * as moderation from './moderation-service';
import { recentRefusals } from './refusals';

const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  403: apiErrorSchema,
  404: apiErrorSchema,
  409: apiErrorSchema,
  429: apiErrorSchema,
};

/** Reports, blocks and the moderators' screen (ADR 025); member scope. */
export async function safetyRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/api/reports',
    {
      config: memberRateLimit({ name: 'reports', max: 30, windowMs: HOUR_MS, what: 'reports' }),
      schema: {
        tags: ['safety'],
        summary: 'Report a listing, a member, a message or a rating to the moderators',
        description:
          'A reason from the Terms and an optional note. One open report per reporter and target: ' +
          "409 REPORT_EXISTS. 404 for what the reporter cannot see (another conversation's message).",
        body: reportSchema,
        response: { 201: z.object({ id: z.number().int() }), ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await moderation.fileReport(app.db, request.member, request.body)),
  );

  routes.post(
    '/api/members/:id/block',
    {
      schema: {
        tags: ['safety'],
        summary: 'Block a member',
        description:
          "Neither sees the other's listings, proposes to or writes to the other; pending proposals " +
          'between them are withdrawn. Blocking twice is fine.',
        params: memberParamsSchema,
        response: { 204: z.undefined(), ...errors },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (!isMemberId(id) || !(await memberExists(app.db, id))) throw notFound('Member not found.');
      await blockMember(app.db, request.member.id, id);
      return reply.code(204).send();
    },
  );

  routes.delete(
    '/api/members/:id/block',
    {
      schema: {
        tags: ['safety'],
        summary: 'Unblock a member',
        params: memberParamsSchema,
        response: { 204: z.undefined(), ...errors },
      },
    },
    async (request, reply) => {
      if (isMemberId(request.params.id)) await unblockMember(app.db, request.member.id, request.params.id);
      return reply.code(204).send();
    },
  );

  routes.get(
    '/api/account/blocks',
    {
      schema: {
        tags: ['safety'],
        summary: 'The members this member blocked, newest first',
        response: { 200: z.array(blockedMemberSchema), 401: apiErrorSchema },
      },
    },
    async (request) => listBlocked(app.db, request.member.id),
  );

  routes.post(
    '/api/account/appeal',
    {
      config: memberRateLimit({ name: 'appeals', max: 5, windowMs: HOUR_MS, what: 'appeals' }),
      schema: {
        tags: ['safety'],
        summary: 'Appeal a suspension (the one thing a suspended member may write)',
        body: appealSchema,
        response: { 201: z.object({ message: z.string() }), ...errors },
      },
    },
    async (request, reply) => {
      await moderation.fileAppeal(app.db, request.member, request.body.text);
      return reply.code(201).send({ message: 'Your appeal is with the moderators.' });
    },
  );

  // The moderators' screen: 403 NOT_MODERATOR for everyone else.
  await app.register(async (moderators) => {
    moderators.addHook('preHandler', async (request) => moderation.assertModerator(request.member));
    const mod = moderators.withTypeProvider<ZodTypeProvider>();

    mod.get(
      '/api/moderation/reports',
      {
        schema: {
          tags: ['moderation'],
          summary: 'Open reports, grouped by what they report, oldest first, with it in context',
          response: { 200: z.array(moderationCaseSchema), ...errors },
        },
      },
      async () => moderation.openCases(app.db),
    );

    mod.post(
      '/api/moderation/reports/:id/resolve',
      {
        schema: {
          tags: ['moderation'],
          summary: 'Act on a report: dismiss, remove the content, warn, suspend for N days or ban',
          description:
            'Applies to every open report on the same target; kept in the audit log with who, what ' +
            "and why. Removed content and a suspended or banned member's listings disappear at once.",
          params: z.object({ id: z.coerce.number().int().positive() }),
          body: resolveReportSchema,
          response: { 204: z.undefined(), ...errors },
        },
      },
      async (request, reply) => {
        await moderation.resolveReport(app, request.member, request.params.id, request.body);
        return reply.code(204).send();
      },
    );

    mod.get(
      '/api/moderation/refusals',
      {
        schema: {
          tags: ['moderation'],
          summary: 'Wording the automatic moderation refused in the last 7 days, newest first',
          response: { 200: z.array(refusalSchema), ...errors },
        },
      },
      async () => recentRefusals(app.db),
    );

    mod.get(
      '/api/moderation/audit',
      {
        schema: {
          tags: ['moderation'],
          summary: 'The audit log: every moderator action, newest first',
          response: { 200: z.array(auditEntrySchema), ...errors },
        },
      },
      async () => moderation.auditLog(app.db),
    );
  });
}
