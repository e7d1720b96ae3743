import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '#common/schemas/errors.ts';
import {
  notificationChannelsSchema,
  notificationChannelsUpdateSchema,
} from '#common/schemas/notification-channels.ts';
import { badRequest } from '../../errors';
import { isMemberId } from '../member-refs';
import { MAIL_KINDS, type MailKind, unsubscribe } from './mail-digest';
import { notificationChannelsOf, setNotificationChannels } from './notification-channels';

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
      return { message: `You will get no more emails about ${STOPPED[k]}.` };
    },
  );
}

/** What the unsubscribe answer says was stopped, per group (ADR 026, 090). */
const STOPPED: Record<MailKind, string> = {
  proposals: 'new proposals',
  messages: 'new messages',
  barters: 'your barters',
  circles: 'trade circles and swap days',
  listing_alerts: 'new listings matching your searches and wants',
  listings: 'whether your listings are still available',
  moderation: "moderators' warnings",
};

/**
 * The Account tab's one choice per group of notification kinds (ADR 090, member scope): push,
 * e-mail digest or none.
 */
export async function notificationChannelRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    '/api/account/notification-channels',
    {
      schema: {
        tags: ['account'],
        summary: 'How each group of notifications reaches the member outside the app',
        description:
          'push, digest (the e-mail of what they missed) or none; the bell has every entry either way.',
        response: { 200: notificationChannelsSchema, 401: apiErrorSchema },
      },
    },
    async (request) => notificationChannelsOf(app.db, request.member.id),
  );
  routes.put(
    '/api/account/notification-channels',
    {
      schema: {
        tags: ['account'],
        summary: 'Choose push, e-mail digest or none for the groups named (the others are kept)',
        body: notificationChannelsUpdateSchema,
        response: { 200: notificationChannelsSchema, 400: apiErrorSchema, 401: apiErrorSchema },
      },
    },
    async (request) => setNotificationChannels(app.db, request.member.id, request.body),
  );
}
