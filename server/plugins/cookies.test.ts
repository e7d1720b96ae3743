import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/helpers';

describe('cookies on an https site', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ PUBLIC_URL: 'https://barter.example', SITE_PASSWORD: 'open sesame' });
  });
  afterAll(() => t.close());

  const headers = { host: 'barter.example', origin: 'https://barter.example' };

  it('names the gate and session cookies with __Host- (Secure, Path=/, no Domain) and reads them back', async () => {
    const gate = await t.app.inject({
      method: 'POST',
      url: '/api/verify-password',
      payload: { password: 'open sesame' },
      headers,
    });
    const gateCookie = gate.cookies.find((cookie) => cookie.name === '__Host-bh_gate');
    expect(gateCookie).toMatchObject({ secure: true, path: '/', httpOnly: true });
    expect(gateCookie?.domain).toBeUndefined();
    // The unprefixed name is not accepted in its place: a plain-http page could have planted it.
    const unprefixed = await t.app.inject({
      method: 'GET',
      url: '/api/site',
      cookies: { bh_gate: gateCookie?.value ?? '' },
    });
    expect(unprefixed.statusCode).toBe(403);

    const cookies: Record<string, string> = { '__Host-bh_gate': gateCookie?.value ?? '' };
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { firstName: 'Ada', email: 'ada@example.com', password: 'a long passphrase' },
      cookies,
      headers,
    });
    expect(registered.statusCode).toBe(201);
    const session = registered.cookies.find((cookie) => cookie.name === '__Host-bh_session');
    expect(session).toMatchObject({ secure: true, path: '/', httpOnly: true });
    expect(registered.cookies.some((cookie) => cookie.name === 'bh_session')).toBe(false);

    cookies['__Host-bh_session'] = session?.value ?? '';
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/user', cookies });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ firstName: 'Ada' });
  });
});
