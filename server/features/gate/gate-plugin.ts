import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ERROR_CODES } from '#common/error-codes.ts';
import { apiErrorSchema } from '#common/schemas/errors.ts';
import {
  gateStatusSchema,
  verifyPasswordResponseSchema,
  verifyPasswordSchema,
} from '#common/schemas/gate.ts';
import { forbidden, HttpError } from '../../errors';
import { cookieName, cookieOptions } from '../../plugins/security';

/** The gate cookie's name over http; `__Host-bh_gate` when PUBLIC_URL is https (see cookieName). */
export const GATE_COOKIE = 'bh_gate';

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Constant-time comparison of two strings of any length. */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

/** Whether the gate is on, and how to tell that a request passed it. */
function gateState(app: FastifyInstance) {
  const { sitePassword, sessionSecret } = app.config;
  const enabled = sitePassword !== '';
  const token = createHmac('sha256', sessionSecret).update(`gate:${sitePassword}`).digest('base64url');
  const name = cookieName(app.config, GATE_COOKIE);
  const hasPassed = (request: FastifyRequest) => {
    const value = request.cookies[name];
    return typeof value === 'string' && safeEqual(value, token);
  };
  return { enabled, token, name, hasPassed, sitePassword };
}

/**
 * The site-wide password gate (docs/product.md) over an encapsulated scope: every route registered
 * in `app` answers 403 GATE_CLOSED without the gate cookie. The decision is the scope the matched
 * route belongs to, never the URL's text (a percent-encoded `/%61pi/...` matches the same route and
 * so meets the same guard). What sits outside: the gate's own routes, health probes and the web
 * app's static files (docs/security.md).
 */
export function gateGuard(app: FastifyInstance): void {
  const { enabled, hasPassed } = gateState(app);
  if (!enabled) return;
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (!hasPassed(request)) throw forbidden('Enter the site password first.', ERROR_CODES.gateClosed);
  });
}

/**
 * The gate's own routes: its status and the password check, which sets an httpOnly cookie derived
 * from the secret and the password (so changing SITE_PASSWORD locks everyone out again).
 */
export async function gateRoutes(app: FastifyInstance): Promise<void> {
  const { enabled, token, name, hasPassed, sitePassword } = gateState(app);

  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/gate',
    {
      schema: {
        tags: ['gate'],
        summary: 'Whether the site gate is on and passed',
        response: { 200: gateStatusSchema },
      },
    },
    async (request) => ({ enabled, granted: !enabled || hasPassed(request) }),
  );

  routes.post(
    '/api/verify-password',
    {
      config: { rateLimit: { max: app.config.rateLimits.gatePerMinute, timeWindow: '1 minute' } },
      schema: {
        tags: ['gate'],
        summary: 'Check the site password and remember the browser that passed it',
        body: verifyPasswordSchema,
        response: { 200: verifyPasswordResponseSchema, 401: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request, reply) => {
      if (enabled && !safeEqual(request.body.password, sitePassword)) {
        throw new HttpError(401, 'INCORRECT_PASSWORD', 'Incorrect password. Please try again.');
      }
      reply.setCookie(name, token, { ...cookieOptions(app.config), maxAge: 60 * 60 * 24 * 365 });
      return { ok: true as const };
    },
  );
}
