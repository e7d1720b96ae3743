import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createUser } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { KNOWN_DEVICE_COOKIE } from './known-device';
import { FREE_FAILURES } from './login-throttle';

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

  it('two visitors typing one name at once get an account each', async () => {
    const demo = (remoteAddress: string) =>
      t.app.inject({ method: 'POST', url: '/api/demo-login', payload: { name: 'Echo' }, remoteAddress });
    const [a, b] = await Promise.all([demo('10.6.0.1'), demo('10.6.0.2')]);
    expect(a?.statusCode).toBe(200);
    expect(b?.statusCode).toBe(200);
    expect(a?.json().id).not.toBe(b?.json().id);
  });
});

describe('sign-in throttle by account and source: exponential delays, never a lock-out', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The per-IP limit out of the way; LOGIN_ACCOUNT_RATE_LIMIT keeps its default (10).
    t = await buildTestApp({ LOGIN_RATE_LIMIT: '10000' });
  });
  afterAll(() => t.close());
  // The clock stands still unless a test moves it, so no delay runs out while a test is slow.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const later = (ms: number) => vi.setSystemTime(Date.now() + ms);

  const login = (email: string, password: string, remoteAddress: string, cookies?: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password },
      remoteAddress,
      ...(cookies ? { cookies } : {}),
    });
  /** The known-device cookie a successful sign-in left in the browser. */
  const knownDevice = (response: LightMyRequestResponse) => {
    const cookie = response.cookies.find((c) => c.name === KNOWN_DEVICE_COOKIE);
    if (!cookie) throw new Error('no known-device cookie was set');
    return { [KNOWN_DEVICE_COOKIE]: cookie.value };
  };
  const owner = (email: string) => createUser(t.database.db, { email, password: PASSWORD });

  it("an attacker's ten wrong passwords do not stop the owner elsewhere, nor with the known-device cookie", async () => {
    const user = await owner('owner1@example.com');
    const earlier = await login('owner1@example.com', PASSWORD, '10.7.0.1');
    expect(earlier.statusCode).toBe(200);
    expect(earlier.cookies.find((c) => c.name === KNOWN_DEVICE_COOKIE)).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
    });
    const device = knownDevice(earlier);

    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      // Spelled differently each time: the account is the normalised address.
      const email = i % 2 ? 'OWNER1@example.com' : ' owner1@example.com';
      statuses.push((await login(email, `guess-${i}-wrong`, '10.7.6.6')).statusCode);
    }
    expect(statuses.slice(0, FREE_FAILURES + 1)).toEqual(Array(FREE_FAILURES + 1).fill(401));
    expect(statuses.slice(FREE_FAILURES + 1)).toEqual(Array(10 - FREE_FAILURES - 1).fill(429));
    // The attacker's address, without the cookie, must wait even with the right password...
    expect((await login('owner1@example.com', PASSWORD, '10.7.6.6')).statusCode).toBe(429);

    // ...but the owner gets in from another address, without any cookie...
    const elsewhere = await login('owner1@example.com', PASSWORD, '10.7.0.2');
    expect(elsewhere.statusCode).toBe(200);
    expect(elsewhere.json().id).toBe(user.id);
    // ...and from the attacker's own address (a shared network) with the known-device cookie.
    const sameAddress = await login('owner1@example.com', PASSWORD, '10.7.6.6', device);
    expect(sameAddress.statusCode).toBe(200);
    expect(sameAddress.json().id).toBe(user.id);
  });

  it('the attacker sees growing Retry-After values, then at most one guess per delay', async () => {
    await owner('owner2@example.com');
    for (let i = 0; i < FREE_FAILURES; i++) {
      expect((await login('owner2@example.com', 'wrong-guess', '10.8.6.6')).statusCode).toBe(401);
    }
    const retryAfters: number[] = [];
    for (let round = 0; round < 6; round++) {
      expect((await login('owner2@example.com', 'wrong-guess', '10.8.6.6')).statusCode).toBe(401);
      const refused = await login('owner2@example.com', 'wrong-guess', '10.8.6.6');
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({
        message: expect.stringContaining('Please wait'),
        code: 'RATE_LIMITED',
      });
      const seconds = Number(refused.headers['retry-after']);
      retryAfters.push(seconds);
      later(seconds * 1000 - 1);
      expect((await login('owner2@example.com', 'wrong-guess', '10.8.6.6')).statusCode).toBe(429);
      later(1);
    }
    expect(retryAfters).toEqual([1, 2, 4, 8, 16, 32]);
  });

  it('a distributed attack slows devices new to the account, never its known device; the slow path still gets in', async () => {
    const user = await owner('owner3@example.com');
    const device = knownDevice(await login('owner3@example.com', PASSWORD, '10.9.0.1'));

    // One guess from each of many addresses: no address is ever slowed on its own.
    const statuses: number[] = [];
    for (let a = 0; a < 14; a++) {
      statuses.push((await login('owner3@example.com', 'wrong-guess', `10.9.1.${a}`)).statusCode);
    }
    const accountFree = t.config.rateLimits.loginPerAccount;
    expect(statuses.slice(0, accountFree + 1)).toEqual(Array(accountFree + 1).fill(401));
    expect(statuses.slice(accountFree + 1)).toEqual(Array(14 - accountFree - 1).fill(429));

    // A device new to the account, from a fresh address, waits even with the right password...
    const unknown = await login('owner3@example.com', PASSWORD, '10.9.2.1');
    expect(unknown.statusCode).toBe(429);
    expect(unknown.json().message).toContain('device you have signed in on before');
    const seconds = Number(unknown.headers['retry-after']);
    expect(seconds).toBeGreaterThan(0);

    // ...while the known device gets in at once, from any address.
    for (const address of ['10.9.0.1', '10.9.3.3']) {
      const known = await login('owner3@example.com', PASSWORD, address, device);
      expect(known.statusCode).toBe(200);
      expect(known.json().id).toBe(user.id);
    }

    // After the delay the new device gets in too, and is known from then on.
    later(seconds * 1000);
    const slow = await login('owner3@example.com', PASSWORD, '10.9.2.1');
    expect(slow.statusCode).toBe(200);
    expect(slow.json().id).toBe(user.id);
  });

  it('a success clears the failures of its source', async () => {
    await owner('owner4@example.com');
    for (let i = 0; i <= FREE_FAILURES; i++) {
      expect((await login('owner4@example.com', 'wrong-guess', '10.10.0.1')).statusCode).toBe(401);
    }
    expect((await login('owner4@example.com', PASSWORD, '10.10.0.1')).statusCode).toBe(429);
    later(1000);
    expect((await login('owner4@example.com', PASSWORD, '10.10.0.1')).statusCode).toBe(200);
    // Typos cost nothing again.
    for (let i = 0; i < FREE_FAILURES; i++) {
      expect((await login('owner4@example.com', 'wrong-guess', '10.10.0.1')).statusCode).toBe(401);
    }
    expect((await login('owner4@example.com', PASSWORD, '10.10.0.1')).statusCode).toBe(200);
  });

  it('slows only the account guessed at: another account from the same address signs in', async () => {
    await owner('owner5@example.com');
    await owner('bystander@example.com');
    for (let i = 0; i < 12; i++) await login('owner5@example.com', 'wrong-guess', '10.11.6.6');
    expect((await login('owner5@example.com', PASSWORD, '10.11.6.6')).statusCode).toBe(429);
    expect((await login('bystander@example.com', PASSWORD, '10.11.6.6')).statusCode).toBe(200);
  });

  it('ignores a known-device cookie that is forged or was issued for another account', async () => {
    await owner('owner6@example.com');
    await owner('other6@example.com');
    const otherDevice = knownDevice(await login('other6@example.com', PASSWORD, '10.12.0.1'));
    for (let a = 0; a < 12; a++) await login('owner6@example.com', 'wrong-guess', `10.12.1.${a}`);
    const forged = { [KNOWN_DEVICE_COOKIE]: 'k1.attacker.zzzzzzzz.anything' };
    for (const cookies of [otherDevice, forged]) {
      expect((await login('owner6@example.com', PASSWORD, '10.12.2.1', cookies)).statusCode).toBe(429);
    }
  });
});
