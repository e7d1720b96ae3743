import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AUTH_ERROR_CODES,
  currentUserSchema,
  demoLoginSchema,
  loginSchema,
  normalizeEmail,
} from '#common/schemas/auth.ts';
import { apiErrorSchema } from '#common/schemas/errors.ts';
import { notFound, tooManyRequests } from '../../errors';
import { sessionHashOf } from '../../plugins/session';
import { oneAtATurn } from '../../plugins/turns';
import * as auth from './auth-service';
import { clearDemoAccountCookie, readDemoAccountId, setDemoAccountCookie } from './demo-cookie';
import { isKnownFor, type KnownDevice, readKnownDevice, rememberDevice } from './known-device';
import { type LoginAttempt, signInThrottle } from './login-throttle';
import { presentCurrentUser } from './user-presenter';

/**
 * Sign-in attempts waiting for their turn of the event loop, at most (ADR 102): about five waves of
 * the fault suite's 200 at once; past it a sign-in is answered 503 with Retry-After at once.
 */
const SIGN_IN_MAX_WAITING = 1000;

/** Account data must not be kept by shared caches or the browser's back-forward cache. */
function noStore(reply: FastifyReply) {
  reply.header('cache-control', 'no-store');
}

/** "12 seconds", "4 minutes": how long a throttled sign-in has to wait, in words. */
function waitInWords(seconds: number): string {
  if (seconds < 60) return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

/**
 * E-mail and password accounts, demo login and sign-out (spec sections 5 and 7).
 * Per-IP limits run in onRequest; the sign-in throttle by account and source (ADR 016) answers
 * before any password is hashed.
 */
export async function authRoutes(app: FastifyInstance): Promise<void> {
  const { config } = app;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const perMinute = (max: number) => ({ rateLimit: { max, timeWindow: '1 minute' } });
  const throttle = signInThrottle(app);
  // A flood of sign-ins is answered one per turn of the event loop, members' requests between them.
  const signInTurns = oneAtATurn(SIGN_IN_MAX_WAITING);

  /**
   * Let a sign-in attempt through, or answer 429 with Retry-After. The source is this browser's
   * known-device id when it has signed into the account before, else its IP address.
   */
  const admitLogin = async (
    request: FastifyRequest,
    reply: FastifyReply,
    email: string,
    device: KnownDevice | null,
  ): Promise<LoginAttempt> => {
    const known = isKnownFor(request, device, email);
    const source = known && device ? `device:${device.id}` : `ip:${request.ip}`;
    const verdict = await throttle.begin(email, source, known);
    if (verdict.allowed) return verdict.attempt;
    const seconds = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000));
    reply.header('retry-after', String(seconds));
    throw tooManyRequests(
      verdict.scope === 'account'
        ? `Too many failed sign-ins on this account. Please wait ${waitInWords(seconds)} and try again, ` +
            'or sign in on a device you have signed in on before.'
        : `Too many failed sign-ins. Please wait ${waitInWords(seconds)} and try again.`,
    );
  };

  routes.post(
    '/api/auth/login',
    {
      config: perMinute(config.rateLimits.loginPerMinute),
      // Before the body is read: the body, the throttle and the answer all wait for the turn.
      onRequest: () => signInTurns.take(),
      schema: {
        tags: ['auth'],
        summary: 'Sign in with e-mail and password',
        description:
          '401 USER_NOT_FOUND (message contains "user-not-found") or INVALID_CREDENTIALS ' +
          '(message contains "invalid-credentials"). 429 with Retry-After while this account is ' +
          'throttled for this device or address (exponential delays after repeated failures).',
        body: loginSchema,
        response: { 200: currentUserSchema, 400: apiErrorSchema, 401: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const email = normalizeEmail(request.body.email);
      const device = readKnownDevice(request);
      const attempt = await admitLogin(request, reply, email, device);
      const user = await auth.login(app.db, request.body);
      await throttle.succeeded(attempt);
      await request.session.signIn(user.id);
      rememberDevice(request, reply, device, email);
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
      const { user } = request;
      const sessionHash = sessionHashOf(request);
      await request.session.signOut();
      // The pages of this session stop hearing the member's events now, not at the next heartbeat.
      if (user && sessionHash) app.eventHub.endSession(user.id, sessionHash);
      // A demo account has no password: after sign-out this browser makes a new one (ADR 016).
      clearDemoAccountCookie(request, reply);
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
        summary: "Sign in to this browser's own demo account, made on first use",
        description:
          'Every browser gets a demo account of its own (a signed cookie keeps it); a typed name ' +
          'never signs into an account somebody else made. 404 DEMO_LOGIN_DISABLED when switched off.',
        body: demoLoginSchema,
        response: { 200: currentUserSchema, 400: apiErrorSchema, 404: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const user = await auth.demoLogin(app.db, request.body, readDemoAccountId(request));
      await request.session.signIn(user.id);
      setDemoAccountCookie(request, reply, user.id);
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
