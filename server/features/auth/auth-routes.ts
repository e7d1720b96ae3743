import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AUTH_ERROR_CODES,
  currentUserSchema,
  demoLoginSchema,
  type LoginInput,
  loginSchema,
  normalizeEmail,
  registerSchema,
} from '../../../common/schemas/auth';
import { apiErrorSchema } from '../../../common/schemas/errors';
import { notFound, tooManyRequests } from '../../errors';
import * as auth from './auth-service';
import { presentCurrentUser } from './user-presenter';

const ACCOUNT_WINDOW_MS = 15 * 60 * 1000;

/** Account data must not be kept by shared caches or the browser's back-forward cache. */
function noStore(reply: FastifyReply) {
  reply.header('cache-control', 'no-store');
}

/**
 * E-mail and password accounts, demo login and the current member (spec sections 5 and 7).
 * Per-IP limits run in onRequest and the per-account limit before the handler, so both answer 429
 * before any password is hashed.
 */
export async function authRoutes(app: FastifyInstance): Promise<void> {
  const { config } = app;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const perMinute = (max: number) => ({ rateLimit: { max, timeWindow: '1 minute' } });

  // Keyed by the normalised e-mail, so guessing one account's password from many addresses still stops.
  const accountLimit = app.createRateLimit({
    max: config.rateLimits.loginPerAccount,
    timeWindow: ACCOUNT_WINDOW_MS,
    keyGenerator: (request) => `login:${normalizeEmail((request.body as LoginInput).email)}`,
  });
  const limitPerAccount = async (request: FastifyRequest, reply: FastifyReply) => {
    const result = await accountLimit(request);
    if (!result.isAllowed && result.isExceeded) {
      reply.header('retry-after', String(result.ttlInSeconds));
      throw tooManyRequests(
        'Too many sign-in attempts for this account. Please wait 15 minutes and try again.',
      );
    }
  };

  routes.post(
    '/api/auth/register',
    {
      config: perMinute(config.rateLimits.registerPerMinute),
      schema: {
        tags: ['auth'],
        summary: 'Create an account with e-mail and password, and sign in',
        body: registerSchema,
        response: { 201: currentUserSchema, 400: apiErrorSchema, 409: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const user = await auth.register(app.db, request.body);
      await request.session.signIn(user.id);
      noStore(reply);
      return reply.code(201).send(presentCurrentUser(user));
    },
  );

  routes.post(
    '/api/auth/login',
    {
      config: perMinute(config.rateLimits.loginPerMinute),
      preHandler: limitPerAccount,
      schema: {
        tags: ['auth'],
        summary: 'Sign in with e-mail and password',
        description:
          '401 USER_NOT_FOUND (message contains "user-not-found") or INVALID_CREDENTIALS ' +
          '(message contains "invalid-credentials").',
        body: loginSchema,
        response: { 200: currentUserSchema, 400: apiErrorSchema, 401: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const user = await auth.login(app.db, request.body);
      await request.session.signIn(user.id);
      noStore(reply);
      return presentCurrentUser(user);
    },
  );

  routes.post(
    '/api/auth/logout',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign out: destroy the session (fine when already signed out)',
        response: { 204: z.undefined() },
      },
    },
    async (request, reply) => {
      await request.session.signOut();
      return reply.code(204).send();
    },
  );

  routes.post(
    '/api/demo-login',
    {
      config: perMinute(config.rateLimits.demoLoginPerMinute),
      // Checked before the body, so a switched-off demo login answers 404 whatever is sent.
      preValidation: async () => {
        if (!config.demoLogin) {
          throw notFound('Demo login is unavailable.', AUTH_ERROR_CODES.demoLoginDisabled);
        }
      },
      schema: {
        tags: ['auth'],
        summary: 'Sign in as the demo member with this name, created on first use',
        body: demoLoginSchema,
        response: { 200: currentUserSchema, 400: apiErrorSchema, 404: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const user = await auth.demoLogin(app.db, request.body);
      await request.session.signIn(user.id);
      noStore(reply);
      return presentCurrentUser(user);
    },
  );
}

/** The signed-in member's own account; registered in the member scope (signed in, no-store). */
export async function accountRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    '/api/auth/user',
    {
      schema: {
        tags: ['auth'],
        summary: "The signed-in member's own account",
        response: { 200: currentUserSchema, 401: apiErrorSchema },
      },
    },
    async (request) => {
      return presentCurrentUser(request.member);
    },
  );
}
