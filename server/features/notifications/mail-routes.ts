import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '#common/schemas/errors.ts';
import { badRequest } from '../../errors';
import { isMemberId } from '../member-refs';
import { MAIL_KINDS, mailPreferences, setMailPreferences, unsubscribe } from './mail-digest';

const unsubscribeQuery = z.object({
  u: z.string().max(64),
  k: z.enum(MAIL_KINDS),
  t: z.string().max(64),
});

/**
 * One-click unsubscribe (RFC 8058), outside the site gate: mail apps POST it with no cookie. The
 * token is an HMAC of the member and kind, so nothing else can be switched off (ADR 026).
 */
export async function mailLinkRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/mail/unsubscribe',
    {
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags: ['account'],
        summary: 'Stop one kind of e-mail (one click, from the mail or its List-Unsubscribe header)',
        querystring: unsubscribeQuery,
        response: { 200: z.object({ message: z.string() }), 400: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request) => {
      const { u, k, t } = request.query;
      const done =
        isMemberId(u) &&
        (await unsubscribe(app.db, app.config.sessionSecret, { userId: u, kind: k, token: t }));
      if (!done) throw badRequest('This unsubscribe link is not valid.');
      return { message: `You will get no more emails about new ${k}.` };
    },
  );
}

const preferencesSchema = z.strictObject({ proposals: z.boolean(), messages: z.boolean() });

/** The Account tab's e-mail choices (member scope). */
export async function mailPreferenceRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    '/api/account/mail-preferences',
    {
      schema: {
        tags: ['account'],
        summary: 'Which e-mails the member gets about what they missed',
        response: { 200: preferencesSchema, 401: apiErrorSchema },
      },
    },
    async (request) => mailPreferences(app.db, request.member.id),
  );
  routes.put(
    '/api/account/mail-preferences',
    {
      schema: {
        tags: ['account'],
        summary: 'Choose which e-mails the member gets',
        body: preferencesSchema,
        response: { 200: preferencesSchema, 400: apiErrorSchema, 401: apiErrorSchema },
      },
    },
    async (request) => {
      await setMailPreferences(app.db, request.member.id, request.body);
      return request.body;
    },
  );
}
