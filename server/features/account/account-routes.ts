import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ACCOUNT_MESSAGES,
  accountSessionSchema,
  changeEmailSchema,
  changePasswordSchema,
  currentUserSchema,
  deleteAccountSchema,
  normalizeEmail,
  passwordResetRequestSchema,
  passwordResetSchema,
  registerSchema,
  verifyEmailSchema,
} from '#common/schemas/auth.ts';
import { apiErrorSchema } from '#common/schemas/errors.ts';
import { gettingStartedSchema, gettingStartedUpdateSchema } from '#common/schemas/getting-started.ts';
import { sessionHashOf } from '../../plugins/session';
import { endSessions, presentCurrentUser, readKnownDevice, register, rememberDevice } from '../auth';
import { deleteAccount, exportMemberData } from './account-data';
import * as account from './account-service';
import { gettingStartedOf, setGettingStartedCompleted } from './getting-started';

const messageSchema = z.object({ message: z.string() });
const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  403: apiErrorSchema,
  409: apiErrorSchema,
  429: apiErrorSchema,
};

/**
 * Registering, and the account links that work signed out (ADR 024): ask for a password reset, set
 * the new password, confirm an address. Registered beside the sign-in routes (behind the gate, no member needed).
 */
export async function accountLinkRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const perMinute = (max: number) => ({ rateLimit: { max, timeWindow: '1 minute' } });
  const mailLimit = perMinute(app.config.rateLimits.accountMailPerMinute);

  routes.post(
    '/api/auth/register',
    {
      config: perMinute(app.config.rateLimits.registerPerMinute),
      schema: {
        tags: ['auth'],
        summary: 'Create an account with e-mail and password, and sign in',
        description:
          '400 PASSWORD_TOO_COMMON (one of the most common passwords), PASSWORD_PERSONAL (holds the ' +
          "member's name or e-mail address), PASSWORD_TOO_WEAK (zxcvbn scores it below 2); the " +
          'message says why (ADR 055).',
        body: registerSchema,
        response: { 201: currentUserSchema, 400: apiErrorSchema, 409: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const user = await register(app.db, request.body);
      await request.session.signIn(user.id);
      // The site is theirs at once; a banner asks them to confirm the address (ADR 024).
      await account.welcomeNewMember(account.forRequest(app, request), user);
      rememberDevice(request, reply, readKnownDevice(request), normalizeEmail(request.body.email));
      // Account data must not be kept by shared caches or the browser's back-forward cache.
      reply.header('cache-control', 'no-store');
      return reply.code(201).send(presentCurrentUser(user));
    },
  );

  routes.post(
    '/api/auth/password-reset',
    {
      config: mailLimit,
      schema: {
        tags: ['account'],
        summary: 'E-mail a link to set a new password',
        description:
          '202 whether or not an account uses the address (the answer says nothing about who is a ' +
          'member); at most one link a minute per account; 429 past PASSWORD_RESET_RATE_LIMIT a minute.',
        body: passwordResetRequestSchema,
        response: { 202: messageSchema, ...errors },
      },
    },
    async (request, reply) => {
      await account.requestPasswordReset(account.forRequest(app, request), request.body.email);
      return reply.code(202).send({ message: ACCOUNT_MESSAGES.resetSent });
    },
  );

  routes.post(
    '/api/auth/password-reset/confirm',
    {
      config: perMinute(app.config.rateLimits.loginPerMinute),
      schema: {
        tags: ['account'],
        summary: "Set a new password with a reset link's token, and sign in",
        description:
          'The link works once, for 30 minutes. Every session of the member ends; this browser is ' +
          'signed in afresh. 400 LINK_INVALID; 400 PASSWORD_TOO_COMMON, PASSWORD_PERSONAL, PASSWORD_TOO_WEAK ' +
          '(the link still works; ADR 055).',
        body: passwordResetSchema,
        response: { 200: currentUserSchema, ...errors },
      },
    },
    async (request, reply) => {
      const member = await account.resetPassword(
        account.forRequest(app, request),
        request.body.token,
        request.body.password,
      );
      await request.session.signIn(member.id);
      reply.header('cache-control', 'no-store');
      return presentCurrentUser(member);
    },
  );

  routes.post(
    '/api/auth/verify-email',
    {
      config: perMinute(app.config.rateLimits.loginPerMinute),
      schema: {
        tags: ['account'],
        summary: "Confirm an e-mail address with a verification link's token",
        description:
          "Confirms the member's address, or makes the new address they asked for theirs. Works " +
          'signed out (the link may be opened on another device). 400 LINK_INVALID, 409 EMAIL_TAKEN.',
        body: verifyEmailSchema,
        response: { 200: z.object({ email: z.string() }), ...errors },
      },
    },
    async (request) => account.verifyEmail(account.forRequest(app, request), request.body.token),
  );
}

/** The signed-in member's account settings (member scope). */
export async function accountSettingsRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const mailLimit = {
    rateLimit: { max: app.config.rateLimits.accountMailPerMinute, timeWindow: '1 minute' },
  };

  routes.post(
    '/api/account/verify-email/resend',
    {
      config: mailLimit,
      schema: {
        tags: ['account'],
        summary: 'Send the verification link again',
        description: 'At most one a minute; nothing is sent once the address is verified.',
        response: { 202: messageSchema, ...errors },
      },
    },
    async (request, reply) => {
      await account.resendVerification(account.forRequest(app, request), request.member);
      return reply.code(202).send({ message: ACCOUNT_MESSAGES.verificationSent });
    },
  );

  routes.put(
    '/api/account/password',
    {
      config: mailLimit,
      schema: {
        tags: ['account'],
        summary: 'Change the password',
        description:
          'The current password first (not needed by a member who has none yet). The member stays ' +
          'signed in here; every other session ends. 400 CURRENT_PASSWORD_WRONG, PASSWORD_TOO_COMMON, ' +
          'PASSWORD_PERSONAL, PASSWORD_TOO_WEAK (ADR 055); ' +
          '403 DEMO_ACCOUNT.',
        body: changePasswordSchema,
        response: { 200: messageSchema, ...errors },
      },
    },
    async (request) => {
      await account.changePassword(app, request.member, request.body, sessionHashOf(request));
      return { message: ACCOUNT_MESSAGES.passwordChanged };
    },
  );

  routes.put(
    '/api/account/email',
    {
      config: mailLimit,
      schema: {
        tags: ['account'],
        summary: 'Change the e-mail address',
        description:
          'Confirmed with the password; a link goes to the new address and the change happens when ' +
          'it is followed (the old address is told). 400 CURRENT_PASSWORD_WRONG, EMAIL_UNCHANGED; ' +
          '409 EMAIL_TAKEN; 403 DEMO_ACCOUNT.',
        body: changeEmailSchema,
        response: { 202: messageSchema, ...errors },
      },
    },
    async (request, reply) => {
      await account.changeEmail(account.forRequest(app, request), request.member, request.body);
      return reply.code(202).send({ message: ACCOUNT_MESSAGES.emailChangeSent });
    },
  );

  routes.get(
    '/api/account/sessions',
    {
      schema: {
        tags: ['account'],
        summary: 'Where the member is signed in',
        response: { 200: z.array(accountSessionSchema), 401: apiErrorSchema },
      },
    },
    async (request) => account.listSessions(app, request.member, sessionHashOf(request)),
  );

  routes.delete(
    '/api/account/sessions/:id',
    {
      schema: {
        tags: ['account'],
        summary: 'Sign out one of the sessions',
        params: z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'Unknown session.') }),
        response: { 204: z.undefined(), 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const current = sessionHashOf(request);
      await account.endOneSession(app, request.member, request.params.id);
      if (request.params.id === current) await request.session.signOut();
      return reply.code(204).send();
    },
  );

  routes.get(
    '/api/account/export',
    {
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        tags: ['account'],
        summary: 'Download my data: one JSON file',
        description:
          'Everything the member created (account, listings, wants, saved items, reports, blocks) and ' +
          'their barters, messages and ratings. Other members appear by id only.',
        response: { 200: z.record(z.string(), z.unknown()), 401: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const data = await exportMemberData(app, request.member);
      const day = new Date().toISOString().slice(0, 10);
      reply.header('content-disposition', `attachment; filename="barterhood-data-${day}.json"`);
      return data;
    },
  );

  routes.delete(
    '/api/account',
    {
      config: mailLimit,
      schema: {
        tags: ['account'],
        summary: 'Delete my account',
        description:
          'Confirmed with the password (a member without one types their e-mail). Listings, wants ' +
          "and unfinished barters go; completed trades stay in the other member's history as " +
          '"Former member"; messages stay without the sender\'s name. 400 CURRENT_PASSWORD_WRONG.',
        body: deleteAccountSchema,
        response: { 204: z.undefined(), ...errors },
      },
    },
    async (request, reply) => {
      await deleteAccount(app, request.member, request.body);
      await request.session.signOut();
      return reply.code(204).send();
    },
  );

  routes.get(
    '/api/account/getting-started',
    {
      schema: {
        tags: ['account'],
        summary: 'The guided start: which of its steps the member has done',
        description:
          'area (a location to measure from), want, item: done when the member has one, however it ' +
          'was made. completed: the member finished or skipped the guide.',
        response: { 200: gettingStartedSchema, 401: apiErrorSchema },
      },
    },
    async (request) => gettingStartedOf(app.db, request.member),
  );

  routes.put(
    '/api/account/getting-started',
    {
      schema: {
        tags: ['account'],
        summary: 'Skip or finish the guided start, or bring it back',
        body: gettingStartedUpdateSchema,
        response: { 200: gettingStartedSchema, 400: apiErrorSchema, 401: apiErrorSchema },
      },
    },
    async (request) => setGettingStartedCompleted(app.db, request.member, request.body.completed),
  );

  routes.post(
    '/api/account/sign-out-everywhere',
    {
      schema: {
        tags: ['account'],
        summary: 'Sign out on every device, this one included',
        response: { 204: z.undefined(), 401: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const member = request.member;
      await endSessions(app, member.id);
      await request.session.signOut();
      return reply.code(204).send();
    },
  );
}
