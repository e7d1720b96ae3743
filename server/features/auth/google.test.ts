import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/users';
import { SESSION_COOKIE } from '../../plugins/session';
import { registerSessionCache, SessionCache } from '../../plugins/session-cache';
import { createUser } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { OIDC_COOKIE } from './google-routes';

const CALLBACK = 'http://localhost:5000/api/auth/google/callback';

interface Claims {
  sub?: string;
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
}

describe('Google sign-in against a local OpenID provider', () => {
  let provider: OAuth2Server;
  let t: TestApp;
  /** Claims the provider puts in the next ID token. */
  let claims: Claims = {};

  beforeAll(async () => {
    provider = new OAuth2Server();
    await provider.issuer.keys.generate('RS256');
    await provider.start(0, '127.0.0.1');
    provider.service.on('beforeTokenSigning', (token) => {
      Object.assign(token.payload, claims);
    });
    t = await buildTestApp({
      GOOGLE_CLIENT_ID: 'barterhood-test',
      GOOGLE_CLIENT_SECRET: 'test-secret',
      GOOGLE_ISSUER_URL: provider.issuer.url ?? '',
    });
  });
  afterAll(async () => {
    await t.close();
    await provider.stop();
  });

  const cookieValue = (response: LightMyRequestResponse, name: string) =>
    response.cookies.find((c) => c.name === name)?.value;

  /** The browser's part: start, let the provider redirect back, and return the callback URL and cookie. */
  async function authorize() {
    const start = await t.app.inject({ method: 'GET', url: '/api/auth/google' });
    expect(start.statusCode).toBe(302);
    const authorizeUrl = new URL(String(start.headers.location));
    expect(authorizeUrl.origin).toBe(provider.issuer.url);
    expect(authorizeUrl.searchParams.get('redirect_uri')).toBe(CALLBACK);
    expect(authorizeUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizeUrl.searchParams.get('state')).toBeTruthy();
    expect(authorizeUrl.searchParams.get('nonce')).toBeTruthy();
    const oidcCookie = start.cookies.find((c) => c.name === OIDC_COOKIE);
    expect(oidcCookie).toMatchObject({ httpOnly: true, path: '/api/auth/google' });

    const atProvider = await fetch(authorizeUrl, { redirect: 'manual' });
    expect(atProvider.status).toBe(302);
    const callback = new URL(String(atProvider.headers.get('location')));
    expect(callback.href.startsWith(CALLBACK)).toBe(true);
    return { callback, cookies: { [OIDC_COOKIE]: oidcCookie?.value ?? '' } };
  }

  const finish = (callback: URL, cookies: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: `${callback.pathname}${callback.search}`, cookies });

  it('creates a member, signs them in and sends the browser home', async () => {
    claims = {
      sub: 'google-new',
      email: 'New.Person@Example.com',
      email_verified: true,
      given_name: 'New',
      family_name: 'Person',
    };
    const { callback, cookies } = await authorize();
    const done = await finish(callback, cookies);
    expect(done.statusCode).toBe(302);
    expect(done.headers.location).toBe('/');
    expect(cookieValue(done, OIDC_COOKIE)).toBe('');
    const session = cookieValue(done, SESSION_COOKIE);
    expect(session).toBeTruthy();

    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      cookies: { [SESSION_COOKIE]: session ?? '' },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      firstName: 'New',
      lastName: 'Person',
      email: 'new.person@example.com',
    });
    const [row] = await t.database.db.select().from(users).where(eq(users.id, me.json().id));
    expect(row).toMatchObject({ googleSub: 'google-new', passwordHash: null });
  });

  it('signs the same Google account into the same member next time', async () => {
    claims = { sub: 'google-new', email: 'new.person@example.com', email_verified: true };
    const { callback, cookies } = await authorize();
    const done = await finish(callback, cookies);
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      cookies: { [SESSION_COOKIE]: cookieValue(done, SESSION_COOKIE) ?? '' },
    });
    const rows = await t.database.db.select().from(users).where(eq(users.googleSub, 'google-new'));
    expect(rows).toHaveLength(1);
    expect(me.json().id).toBe(rows[0]?.id);
  });

  it('links to an existing account by a verified e-mail', async () => {
    const existing = await createUser(t.database.db, { email: 'linked@example.com', password: 'secret-1' });
    claims = { sub: 'google-linked', email: 'LINKED@example.com', email_verified: true };
    const { callback, cookies } = await authorize();
    const done = await finish(callback, cookies);
    expect(done.headers.location).toBe('/');
    const [row] = await t.database.db.select().from(users).where(eq(users.id, existing.id));
    expect(row?.googleSub).toBe('google-linked');
  });

  it("drops the member's cached sessions when it links their account", async () => {
    const existing = await createUser(t.database.db, { email: 'cached@example.com', password: 'secret-1' });
    // The app's own cache is private; a second one registered in this process sees the same calls.
    const probe = new SessionCache();
    const unregister = registerSessionCache(probe);
    try {
      probe.set(
        'sid-of-existing',
        {
          user: existing,
          sess: { userId: existing.id, createdAt: Date.now() },
          expire: new Date(Date.now() + 60_000),
        },
        probe.generation(),
      );
      claims = { sub: 'google-cached', email: 'cached@example.com', email_verified: true };
      const { callback, cookies } = await authorize();
      expect((await finish(callback, cookies)).headers.location).toBe('/');
      expect(probe.get('sid-of-existing')).toBeNull();
    } finally {
      unregister();
    }
  });

  it('does not link by an unverified e-mail: a separate member without that e-mail', async () => {
    const existing = await createUser(t.database.db, { email: 'victim@example.com', password: 'secret-1' });
    claims = {
      sub: 'google-unverified',
      email: 'victim@example.com',
      email_verified: false,
      given_name: 'Mallory',
    };
    const { callback, cookies } = await authorize();
    const done = await finish(callback, cookies);
    expect(done.headers.location).toBe('/');
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      cookies: { [SESSION_COOKIE]: cookieValue(done, SESSION_COOKIE) ?? '' },
    });
    expect(me.json().id).not.toBe(existing.id);
    expect(me.json()).toMatchObject({ firstName: 'Mallory', email: null });
    const [victim] = await t.database.db.select().from(users).where(eq(users.id, existing.id));
    expect(victim?.googleSub).toBeNull();
  });

  it('refuses a forged state', async () => {
    claims = { sub: 'google-forged', email: 'forged@example.com', email_verified: true };
    const { callback, cookies } = await authorize();
    callback.searchParams.set('state', 'forged-state');
    const done = await finish(callback, cookies);
    expect(done.statusCode).toBe(302);
    expect(done.headers.location).toBe('/login?error=google-failed');
    expect(cookieValue(done, SESSION_COOKIE)).toBeUndefined();
    expect(await t.database.db.select().from(users).where(eq(users.googleSub, 'google-forged'))).toHaveLength(
      0,
    );
  });

  it('refuses a callback without the cookie of the browser that started it', async () => {
    claims = { sub: 'google-nocookie', email_verified: false };
    const { callback } = await authorize();
    const done = await finish(callback, {});
    expect(done.headers.location).toBe('/login?error=google-failed');
    const forgedCookie = await finish(callback, { [OIDC_COOKIE]: 'not-signed' });
    expect(forgedCookie.headers.location).toBe('/login?error=google-failed');
  });

  it('refuses a replayed code', async () => {
    claims = { sub: 'google-replay', email: 'replay@example.com', email_verified: true };
    const { callback, cookies } = await authorize();
    const first = await finish(callback, cookies);
    expect(first.headers.location).toBe('/');
    // Same URL and even the same (stale) cookie: the provider no longer accepts the code.
    const replay = await finish(callback, cookies);
    expect(replay.statusCode).toBe(302);
    expect(replay.headers.location).toBe('/login?error=google-failed');
    expect(cookieValue(replay, SESSION_COOKIE)).toBeUndefined();
  });

  it('sends the browser back to login when the provider reports an error', async () => {
    const { callback, cookies } = await authorize();
    const denied = new URL(CALLBACK);
    denied.searchParams.set('error', 'access_denied');
    denied.searchParams.set('state', callback.searchParams.get('state') ?? '');
    const done = await finish(denied, cookies);
    expect(done.headers.location).toBe('/login?error=google-failed');
  });
});

describe('Google sign-in without credentials', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('sends the browser to /login?error=google-unavailable', async () => {
    for (const url of ['/api/auth/google', '/api/auth/google/callback?code=x&state=y']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe('/login?error=google-unavailable');
    }
  });
});

describe('Google provider unreachable', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Nothing listens on port 1.
    t = await buildTestApp({
      GOOGLE_CLIENT_ID: 'id',
      GOOGLE_CLIENT_SECRET: 'secret',
      GOOGLE_ISSUER_URL: 'http://127.0.0.1:1',
    });
  });
  afterAll(() => t.close());

  it('sends the browser to /login?error=google-failed', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/auth/google' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/login?error=google-failed');
  });
});
