import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { GOOGLE_ERRORS } from '#common/schemas/auth.ts';
import { cookieName, cookieOptions } from '../../plugins/security';
import { signInWithGoogle } from './auth-service';
import { createGoogleClient, type PendingAuthorization } from './google-oidc';

export const GOOGLE_CALLBACK_PATH = '/api/auth/google/callback';
/** Holds state, nonce and PKCE verifier between the redirect to Google and the callback. */
export const OIDC_COOKIE = 'bh_oidc';
const OIDC_COOKIE_PATH = '/api/auth/google';
const OIDC_COOKIE_MAX_AGE_S = 10 * 60;

const pendingSchema = z.object({
  state: z.string().min(1),
  nonce: z.string().min(1),
  codeVerifier: z.string().min(1),
});

const redirectSchema = z.undefined().describe('Redirect (302) to the provider or back to the web app');

/**
 * Google sign-in (OpenID Connect, docs/product.md). Both routes are browser navigations, so every
 * outcome is a redirect: to Google, to `/` after success, or to `/login?error=...` which the login
 * page explains in a toast.
 */
export async function googleRoutes(app: FastifyInstance): Promise<void> {
  const { config } = app;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const client = config.google
    ? createGoogleClient({ ...config.google, redirectUri: `${config.publicUrl}${GOOGLE_CALLBACK_PATH}` })
    : null;
  const cookieBase = { ...cookieOptions(config), path: OIDC_COOKIE_PATH };
  const oidcCookie = cookieName(config, OIDC_COOKIE, true);

  const readPending = (request: FastifyRequest): PendingAuthorization | null => {
    const raw = request.cookies[oidcCookie];
    if (!raw) return null;
    const unsigned = request.unsignCookie(raw);
    if (!unsigned.valid || !unsigned.value) return null;
    try {
      const parsed = pendingSchema.safeParse(JSON.parse(Buffer.from(unsigned.value, 'base64url').toString()));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  };
  const loginError = (reply: FastifyReply, error: string) =>
    reply.redirect(`/login?error=${encodeURIComponent(error)}`, 302);

  routes.get(
    '/api/auth/google',
    {
      schema: {
        tags: ['auth'],
        summary: 'Start Google sign-in (redirects to Google, or to /login?error=google-unavailable)',
        response: { 302: redirectSchema },
      },
    },
    async (request, reply) => {
      if (!client) return loginError(reply, GOOGLE_ERRORS.unavailable);
      let started: Awaited<ReturnType<typeof client.start>>;
      try {
        started = await client.start();
      } catch (error) {
        request.log.warn({ err: error }, 'google sign-in could not start');
        return loginError(reply, GOOGLE_ERRORS.failed);
      }
      const value = Buffer.from(JSON.stringify(started.pending)).toString('base64url');
      reply.setCookie(oidcCookie, value, { ...cookieBase, signed: true, maxAge: OIDC_COOKIE_MAX_AGE_S });
      return reply.redirect(started.url.href, 302);
    },
  );

  routes.get(
    GOOGLE_CALLBACK_PATH,
    {
      schema: {
        tags: ['auth'],
        summary: 'Finish Google sign-in (redirects to / or to /login?error=google-failed)',
        response: { 302: redirectSchema },
      },
    },
    async (request, reply) => {
      if (!client) return loginError(reply, GOOGLE_ERRORS.unavailable);
      // One use only: whatever happens next, this browser's pending values are gone.
      const pending = readPending(request);
      reply.clearCookie(oidcCookie, cookieBase);
      if (!pending) return loginError(reply, GOOGLE_ERRORS.failed);
      try {
        const queryStart = request.url.indexOf('?');
        const query = queryStart === -1 ? '' : request.url.slice(queryStart + 1);
        const identity = await client.finish(query, pending);
        const user = await signInWithGoogle(app.db, identity);
        // A banned member is not signed in this way either (ADR 025).
        if (user.bannedAt) return loginError(reply, GOOGLE_ERRORS.failed);
        await request.session.signIn(user.id);
      } catch (error) {
        request.log.warn({ err: error }, 'google sign-in failed');
        return loginError(reply, GOOGLE_ERRORS.failed);
      }
      return reply.redirect('/', 302);
    },
  );
}
