import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUser } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';

const PASSWORD = 'correct horse';

describe('rate limits on sign-in', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      LOGIN_RATE_LIMIT: '3',
      LOGIN_ACCOUNT_RATE_LIMIT: '4',
      REGISTER_RATE_LIMIT: '2',
      DEMO_LOGIN_RATE_LIMIT: '2',
    });
  });
  afterAll(() => t.close());
  // The limiter counts in windows of Date.now(); only Date is faked, so I/O timers run normally.
  afterEach(() => {
    vi.useRealTimers();
  });
  const later = (ms: number) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + ms);
  };

  const login = (email: string, password: string, remoteAddress: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress });

  it('limits login attempts per IP address with 429 RATE_LIMITED, then recovers after a minute', async () => {
    const user = await createUser(t.database.db, { password: PASSWORD });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await login(`x${i}@example.com`, PASSWORD, '10.1.0.1')).statusCode);
    expect(statuses).toEqual([401, 401, 401, 429]);

    // Even the right password is refused while limited: the check runs before any hashing.
    const limited = await login(user.email ?? '', PASSWORD, '10.1.0.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ message: expect.stringContaining('Too many'), code: 'RATE_LIMITED' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

    // Other addresses are not affected.
    expect((await login(user.email ?? '', PASSWORD, '10.1.0.2')).statusCode).toBe(200);

    later(61_000);
    expect((await login(user.email ?? '', PASSWORD, '10.1.0.1')).statusCode).toBe(200);
  });

  it('limits attempts per account across addresses, then recovers after 15 minutes', async () => {
    const user = await createUser(t.database.db, { email: 'target@example.com', password: PASSWORD });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      // Spelled differently each time: the key is the normalised address.
      const email = i % 2 ? 'TARGET@example.com' : ' target@example.com';
      statuses.push((await login(email, 'guess-123', `10.2.0.${i}`)).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401]);
    const limited = await login('target@example.com', PASSWORD, '10.2.0.99');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('RATE_LIMITED');

    // Another account from the same address is fine.
    expect((await login('someone-else@example.com', PASSWORD, '10.2.0.98')).statusCode).toBe(401);

    later(14 * 60_000);
    expect((await login('target@example.com', PASSWORD, '10.2.1.1')).statusCode).toBe(429);
    later(2 * 60_000);
    const recovered = await login('target@example.com', PASSWORD, '10.2.1.2');
    expect(recovered.statusCode).toBe(200);
    expect(recovered.json().id).toBe(user.id);
  });

  it('limits registrations per IP address', async () => {
    const register = (n: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { firstName: 'R', email: `reg${n}@example.com`, password: PASSWORD },
        remoteAddress: '10.3.0.1',
      });
    expect((await register(1)).statusCode).toBe(201);
    expect((await register(2)).statusCode).toBe(201);
    expect((await register(3)).statusCode).toBe(429);
    later(61_000);
    expect((await register(4)).statusCode).toBe(201);
  });

  it('limits demo logins per IP address', async () => {
    const demo = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/demo-login',
        payload: { name: 'Rate' },
        remoteAddress: '10.4.0.1',
      });
    expect((await demo()).statusCode).toBe(200);
    expect((await demo()).statusCode).toBe(200);
    expect((await demo()).statusCode).toBe(429);
    later(61_000);
    expect((await demo()).statusCode).toBe(200);
  });
});

describe('racing sign-ups', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('two registrations of one address at once: one 201, one 409', async () => {
    const register = (remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { firstName: 'Twin', email: 'twin@example.com', password: PASSWORD },
        remoteAddress,
      });
    const responses = await Promise.all([register('10.5.0.1'), register('10.5.0.2')]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });

  it('two demo logins of one name at once end in the same member', async () => {
    const demo = (remoteAddress: string) =>
      t.app.inject({ method: 'POST', url: '/api/demo-login', payload: { name: 'Echo' }, remoteAddress });
    const [a, b] = await Promise.all([demo('10.6.0.1'), demo('10.6.0.2')]);
    expect(a?.statusCode).toBe(200);
    expect(b?.statusCode).toBe(200);
    expect(a?.json().id).toBe(b?.json().id);
  });
});
