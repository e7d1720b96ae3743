import type { FastifyInstance } from 'fastify';
import { SAFETY_ERROR_CODES } from '#common/schemas/safety.ts';
import type { UserRow } from '../db/schema/users';
import { forbidden, unauthorized } from '../errors';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The signed-in member. Routes in the member scope (memberScope) always have one: the scope's
     * guard answered 401 before the handler otherwise. Read anywhere else, it throws that same 401.
     */
    readonly member: UserRow;
  }
}

/**
 * `request.user` (null until the session plugin's scope loads a member) and the `request.member`
 * accessor, on every request: the signed-in member, or a 401. Registered once at
 * the root so it exists wherever a route runs; memberScope makes it infallible inside its routes.
 */
export function decorateMember(app: FastifyInstance): void {
  app.decorateRequest('user', null);
  app.decorateRequest('member', {
    getter(this: { user: UserRow | null }) {
      if (!this.user) throw unauthorized();
      return this.user;
    },
  });
}

/**
 * Makes `app` (an encapsulated plugin scope) the member-only scope: every route registered in it
 * answers 401 to signed-out callers before its body or query is looked at, and every answer,
 * errors included, carries `Cache-Control: no-store` (member data must not be kept by shared caches
 * or the back-forward cache). The guard decides on the route that matched (this scope), never on
 * the URL's text, so no spelling of a path can skip it (fastify/demo's autohooks are the model).
 */
export function memberScope(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const user = request.user;
    if (!user) throw unauthorized();
    // A banned member's sessions end at the ban; one still held is no session at all (ADR 025).
    if (user.bannedAt) throw unauthorized();
    if (user.suspendedUntil && user.suspendedUntil.getTime() > Date.now()) {
      const route = `${request.method} ${request.routeOptions.url ?? ''}`;
      if (!SUSPENDED_MAY.has(route)) {
        throw forbidden(
          `Your account is suspended until ${user.suspendedUntil.toUTCString()}. You can read your account and appeal.`,
          SAFETY_ERROR_CODES.accountSuspended,
        );
      }
    }
  });
}

/** What a suspended member may still do: read their account, manage their sessions, appeal. */
const SUSPENDED_MAY = new Set([
  'GET /api/auth/user',
  'GET /api/account/sessions',
  'DELETE /api/account/sessions/:id',
  'POST /api/account/sign-out-everywhere',
  'POST /api/account/appeal',
  'GET /api/account/export',
  'DELETE /api/account',
  'GET /api/notifications',
  'GET /api/notifications/unread-count',
  'GET /api/events',
]);
