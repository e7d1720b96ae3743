import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { GATE_COOKIE } from './gate-plugin';

describe('site password gate', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ SITE_PASSWORD: 'open sesame', GATE_RATE_LIMIT: '5' });
  });
  afterAll(() => t.close());

  it('refuses API calls without the gate cookie with 403 GATE_CLOSED', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/site' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: expect.any(String), code: 'GATE_CLOSED' });
  });

  it('reports the gate as on and not passed', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/gate' });
    expect(response.json()).toEqual({ enabled: true, granted: false });
  });

  it('leaves health probes open', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('answers 401 to a wrong password and sets no cookie', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/verify-password',
      payload: { password: 'open sesame!' },
      remoteAddress: '10.0.0.1',
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ message: 'Incorrect password. Please try again.' });
    expect(response.cookies).toHaveLength(0);
  });

  it('refuses a blank password as bad input', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/verify-password',
      payload: { password: '   ' },
      remoteAddress: '10.0.0.2',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_FAILED');
  });

  it('grants access with the right password through an httpOnly cookie', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/verify-password',
      payload: { password: 'open sesame' },
      remoteAddress: '10.0.0.3',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });
    const cookie = response.cookies.find((c) => c.name === GATE_COOKIE);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });

    const cookies = { [GATE_COOKIE]: cookie?.value ?? '' };
    const site = await t.app.inject({ method: 'GET', url: '/api/site', cookies });
    expect(site.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/gate', cookies })).json()).toEqual({
      enabled: true,
      granted: true,
    });
  });

  it('does not accept a forged cookie', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/site',
      cookies: { [GATE_COOKIE]: 'granted' },
    });
    expect(response.statusCode).toBe(403);
  });

  it('rate limits password attempts per address with 429, counted before checking', async () => {
    const attempt = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/verify-password',
        payload: { password: 'guess' },
        remoteAddress: '10.9.9.9',
      });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await attempt()).statusCode);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses[5]).toBe(429);
    const limited = await attempt();
    expect(limited.json()).toEqual({ message: expect.stringContaining('Too many'), code: 'RATE_LIMITED' });
    // Another address is not affected.
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/verify-password',
      payload: { password: 'open sesame' },
      remoteAddress: '10.9.9.10',
    });
    expect(other.statusCode).toBe(200);
  });
});

describe('gate turned off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ SITE_PASSWORD: '' });
  });
  afterAll(() => t.close());

  it('lets API calls through and reports the gate as off', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/site' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/gate' })).json()).toEqual({
      enabled: false,
      granted: true,
    });
  });
});
