import type { FastifyReply, FastifyRequest } from 'fastify';
import { cookieName, cookieOptions } from '../../plugins/security';

/**
 * The "demo account" cookie (ADR 016): the id of the demo account this browser made, signed so no
 * visitor can name someone else's. Demo login signs back into it instead of making another account;
 * sign-out clears it, so the next person at a shared computer gets an account of their own.
 */
export const DEMO_COOKIE = 'bh_demo';
/** As long as a session can last (SESSION_ABSOLUTE_MS): a demo account is not meant to outlive that. */
const DEMO_COOKIE_MAX_AGE_S = 60 * 24 * 60 * 60;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The demo account id this browser holds, when the cookie is present and correctly signed. */
export function readDemoAccountId(request: FastifyRequest): string | null {
  const raw = request.cookies[cookieName(request.server.config, DEMO_COOKIE)];
  if (!raw) return null;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value && UUID.test(unsigned.value) ? unsigned.value : null;
}

/** Remember the demo account this browser made. */
export function setDemoAccountCookie(request: FastifyRequest, reply: FastifyReply, userId: string): void {
  const { config } = request.server;
  reply.setCookie(cookieName(config, DEMO_COOKIE), userId, {
    ...cookieOptions(config),
    signed: true,
    maxAge: DEMO_COOKIE_MAX_AGE_S,
  });
}

/** Forget it (at sign-out), when the browser has one. */
export function clearDemoAccountCookie(request: FastifyRequest, reply: FastifyReply): void {
  const { config } = request.server;
  const name = cookieName(config, DEMO_COOKIE);
  if (request.cookies[name] !== undefined) reply.clearCookie(name, cookieOptions(config));
}
