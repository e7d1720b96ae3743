import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATE_COOKIE } from '../features/gate';
import { createUser, sessionCookiesFor } from '../test/factories';
import { buildTestApp, type TestApp } from '../test/helpers';

/** Routes anyone may call without signing in (behind the gate where it is on). */
const PUBLIC_ROUTES = new Set([
  'GET /healthz',
  'GET /readyz',
  'GET /api/gate',
  'POST /api/verify-password',
  'GET /api/site',
  'POST /api/auth/register',
  'POST /api/auth/login',
  'POST /api/auth/logout',
  'POST /api/demo-login',
  'GET /api/auth/google',
  'GET /api/auth/google/callback',
  // Account links work signed out (ADR 024): the link may be opened on any device.
  'POST /api/auth/password-reset',
  'POST /api/auth/password-reset/confirm',
  'POST /api/auth/verify-email',
  // One-click unsubscribe from a digest (RFC 8058; ADR 026): mail apps POST it with no cookie.
  'POST /api/mail/unsubscribe',
  // An item's shared page (issue 31, ADR 083): signed-out visitors past the gate see the item.
  'GET /api/public/items/:id',
]);

/** Every route the API describes, as "METHOD /path" with `:param`s filled in. */
function describedRoutes(t: TestApp): Array<{ method: string; url: string; key: string }> {
  const spec = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
  const routes: Array<{ method: string; url: string; key: string }> = [];
  for (const [template, operations] of Object.entries(spec.paths)) {
    for (const method of Object.keys(operations)) {
      const upper = method.toUpperCase();
      const fastifyPath = template.replace(/\{(\w+)\}/g, ':$1');
      const url = template.replace(/\{feedName\}/, 'everything').replace(/\{\w+\}/g, '1');
      routes.push({ method: upper, url, key: `${upper} ${fastifyPath}` });
    }
  }
  return routes;
}

describe('member-only scope', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('answers 401 with no-store on every member route when signed out, before reading the body', async () => {
    const memberRoutes = describedRoutes(t).filter((route) => !PUBLIC_ROUTES.has(route.key));
    expect(memberRoutes.length).toBeGreaterThan(15);
    for (const route of memberRoutes) {
      const response = await t.app.inject({
        method: route.method as 'GET',
        url: route.url,
        ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: { not: 'valid' } }),
      });
      expect({ route: route.key, status: response.statusCode }).toEqual({ route: route.key, status: 401 });
      expect(response.json()).toMatchObject({ code: 'UNAUTHORIZED' });
      expect(response.headers['cache-control'], route.key).toBe('no-store');
    }
  });

  it('marks member answers no-store, including the flyer and both unread counts', async () => {
    const member = await createUser(t.database.db);
    const cookies = await sessionCookiesFor(t.app, member);
    for (const url of [
      '/api/flyer/neighborhood',
      '/api/notifications/unread-count',
      '/api/messages/unread-count',
      '/api/auth/user',
      '/api/feed/everything',
    ]) {
      const response = await t.app.inject({ method: 'GET', url, cookies });
      expect({ url, status: response.statusCode }).toEqual({ url, status: 200 });
      expect(response.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('finds no member route by a percent-encoded spelling of its path either', async () => {
    for (const url of ['/%61pi/items/my', '/api/%66eed/everything', '/%61%70%69/auth/user']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect({ url, status: response.statusCode }).toEqual({ url, status: 401 });
    }
  });
});

describe('site gate and cross-site check decide on the matched route', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ SITE_PASSWORD: 'open sesame', REGISTER_RATE_LIMIT: '100' });
  });
  afterAll(() => t.close());

  const register = {
    firstName: 'Eve',
    lastName: 'Sneak',
    email: 'eve@example.com',
    password: 'correct horse battery',
  };

  it('refuses percent-encoded API paths without the gate cookie (the probe found 201)', async () => {
    const attempts = [
      { method: 'POST' as const, url: '/%61pi/auth/register', payload: register },
      { method: 'POST' as const, url: '/%61pi/auth/login', payload: register },
      { method: 'POST' as const, url: '/%61pi/demo-login', payload: { name: 'Victor Victim' } },
      { method: 'GET' as const, url: '/%61pi/site' },
      { method: 'GET' as const, url: '/api%2Fsite' },
      { method: 'GET' as const, url: '/%2561pi/site' },
      { method: 'GET' as const, url: '/API/site' },
    ];
    for (const attempt of attempts) {
      const response = await t.app.inject(attempt);
      expect({ url: attempt.url, status: response.statusCode }).toEqual({
        url: attempt.url,
        status: expect.toSatisfy((status: number) => status === 403 || status === 404),
      });
      expect(response.statusCode === 201 || response.statusCode === 200).toBe(false);
    }
    const plain = await t.app.inject({ method: 'POST', url: '/%61pi/auth/register', payload: register });
    expect(plain.statusCode).toBe(403);
    expect(plain.json()).toMatchObject({ code: 'GATE_CLOSED' });
  });

  it('refuses a cross-site write on a percent-encoded path even with the gate passed', async () => {
    const cookies = { [GATE_COOKIE]: await gateCookie(t) };
    const response = await t.app.inject({
      method: 'POST',
      url: '/%61pi/auth/register',
      payload: register,
      cookies,
      headers: { origin: 'https://evil.example' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'CROSS_ORIGIN' });
    const encodedGate = await t.app.inject({
      method: 'POST',
      url: '/%61pi/verify-password',
      payload: { password: 'open sesame' },
      headers: { origin: 'https://evil.example' },
    });
    expect(encodedGate.statusCode).toBe(403);
  });

  it('puts photos and the API description behind the gate', async () => {
    const probe = await t.app.photoStore.put(Buffer.from('not really a photo'), 'webp');
    const cookies = { [GATE_COOKIE]: await gateCookie(t) };
    for (const url of [probe, probe.replace('/photos/', '/%70hotos/'), '/api/docs']) {
      const closed = await t.app.inject({ method: 'GET', url });
      expect({ url, status: closed.statusCode }).toEqual({ url, status: 403 });
    }
    for (const url of [probe, '/api/docs']) {
      const open = await t.app.inject({ method: 'GET', url, cookies });
      expect({ url, status: open.statusCode }).toEqual({ url, status: 200 });
    }
  });

  it('leaves the gate itself and health probes open', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/gate' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/%61pi/gate' })).statusCode).toBe(200);
  });
});

/** The gate cookie, got by giving the password. */
async function gateCookie(t: TestApp): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/verify-password',
    payload: { password: 'open sesame' },
  });
  return response.cookies.find((cookie) => cookie.name === GATE_COOKIE)?.value ?? '';
}
