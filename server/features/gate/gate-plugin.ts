import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ERROR_CODES } from '../../../common/error-codes';
import { apiErrorSchema } from '../../../common/schemas/errors';
import {
  gateStatusSchema,
  verifyPasswordResponseSchema,
  verifyPasswordSchema,
} from '../../../common/schemas/gate';
import { forbidden, HttpError } from '../../errors';
import { cookieOptions } from '../../plugins/security';

export const GATE_COOKIE = 'bh_gate';

/** API paths a browser may call before passing the gate. */
const OPEN_PATHS = new Set(['/api/verify-password', '/api/gate', '/api/docs']);

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Constant-time comparison of two strings of any length. */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

/**
 * The site-wide password gate (docs/product.md): the server checks the password, sets an httpOnly
 * cookie and refuses every other API call without it. The cookie's value is derived from the
 * secret and the password, so changing SITE_PASSWORD locks everyone out again.
 */
export async function gatePlugin(app: FastifyInstance): Promise<void> {
  const { sitePassword, sessionSecret } = app.config;
  const enabled = sitePassword !== '';
  const token = createHmac('sha256', sessionSecret).update(`gate:${sitePassword}`).digest('base64url');
  const hasPassed = (request: FastifyRequest) => {
    const value = request.cookies[GATE_COOKIE];
    return typeof value === 'string' && safeEqual(value, token);
  };

  if (enabled) {
    app.addHook('onRequest', async (request: FastifyRequest) => {
      const path = request.url.split('?', 1)[0] ?? '';
      if (!path.startsWith('/api/') || OPEN_PATHS.has(path)) return;
      if (!hasPassed(request)) {
        throw forbidden('Enter the site password first.', ERROR_CODES.gateClosed);
      }
    });
  }

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
      reply.setCookie(GATE_COOKIE, token, { ...cookieOptions(app.config), maxAge: 60 * 60 * 24 * 365 });
      return { ok: true as const };
    },
  );
}
