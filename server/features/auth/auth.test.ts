import { eq } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../config';
import { sessions } from '../../db/schema/sessions';
import { users } from '../../db/schema/users';
import { hashSessionId, SESSION_COOKIE } from '../../plugins/session';
import { SESSION_CACHE_MS } from '../../plugins/session-cache';
import { createItem, createMessage, createUser, sessionCookiesFor } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { DEMO_COOKIE } from './demo-cookie';
import { KNOWN_DEVICE_COOKIE } from './known-device';
import { commonPasswordCount } from './password-strength';

const DAY = 24 * 60 * 60 * 1000;
const PASSWORD = 'correct horse';

describe('accounts', () => {
  let t: TestApp;
  /** Every body this file receives, scanned at the end for password hashes. */
  const bodies: string[] = [];

  beforeAll(async () => {
    // Generous limits: this file tests behaviour; rate-limits.test.ts tests the limits.
    t = await buildTestApp({
      LOGIN_RATE_LIMIT: '1000',
      LOGIN_ACCOUNT_RATE_LIMIT: '1000',
      REGISTER_RATE_LIMIT: '1000',
      DEMO_LOGIN_RATE_LIMIT: '1000',
    });
  });
  afterAll(() => t.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  const call = async (options: InjectOptions): Promise<LightMyRequestResponse> => {
    const response = await t.app.inject(options);
    bodies.push(response.body);
    return response;
  };
  const sessionCookie = (response: LightMyRequestResponse) =>
    response.cookies.find((c) => c.name === SESSION_COOKIE);
  const cookiesOf = (response: LightMyRequestResponse) => {
    const cookie = sessionCookie(response);
    if (!cookie) throw new Error('no session cookie was set');
    return { [SESSION_COOKIE]: cookie.value };
  };
  const register = (payload: Record<string, unknown>) =>
    call({ method: 'POST', url: '/api/auth/register', payload });
  const login = (payload: Record<string, unknown>, cookies?: Record<string, string>) =>
    call({ method: 'POST', url: '/api/auth/login', payload, ...(cookies ? { cookies } : {}) });
  const currentUser = (cookies?: Record<string, string>) =>
    call({ method: 'GET', url: '/api/auth/user', ...(cookies ? { cookies } : {}) });

  describe('POST /api/auth/register', () => {
    it('creates the member, signs them in and answers 201 with the current user', async () => {
      const response = await register({
        firstName: ' Ada ',
        lastName: 'Lovelace',
        email: 'Ada@Example.COM ',
        password: PASSWORD,
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({
        id: expect.any(String),
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        location: null,
        latitude: null,
        longitude: null,
        maxTravelDistance: 25,
        profileImageUrl: null,
        isDemo: false,
        emailVerified: false,
        hasPassword: true,
        role: 'member',
        suspendedUntil: null,
      });
      expect(sessionCookie(response)).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });

      const me = await currentUser(cookiesOf(response));
      expect(me.statusCode).toBe(200);
      expect(me.json()).toMatchObject({ firstName: 'Ada', email: 'ada@example.com' });
      expect(me.headers['cache-control']).toBe('no-store');
    });

    it('stores the e-mail normalised and the password only as an argon2id hash', async () => {
      await register({ firstName: 'Grace', email: '  GRACE@Example.com', password: PASSWORD });
      const [row] = await t.database.db.select().from(users).where(eq(users.email, 'grace@example.com'));
      expect(row?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(row?.lastName).toBeNull();
    });

    it('answers 409 EMAIL_TAKEN for an address in use, whatever its case or spacing', async () => {
      await register({ firstName: 'Alan', email: 'alan@example.com', password: PASSWORD });
      const response = await register({
        firstName: 'Alan',
        email: ' ALAN@example.com ',
        password: 'other pass 1',
      });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        message: 'An account with this email already exists.',
        code: 'EMAIL_TAKEN',
      });
      expect(sessionCookie(response)).toBeUndefined();
    });

    it.each([
      [{ firstName: '  ', email: 'a@example.com', password: PASSWORD }, 'First name is required'],
      [{ firstName: 'A', email: 'not-an-email', password: PASSWORD }, 'Please enter a valid email address'],
      [
        { firstName: 'A', email: 'a@example.com', password: '12345' },
        'Password must be at least 6 characters',
      ],
      [
        { firstName: 'A', email: 'a@example.com', password: PASSWORD, confirmPassword: PASSWORD },
        'confirmPassword',
      ],
    ])('refuses bad input with 400: %j', async (payload, message) => {
      const response = await register(payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('VALIDATION_FAILED');
      expect(response.json().message).toContain(message);
    });

    it('refuses the most common passwords, in any letter case, with 400 PASSWORD_TOO_COMMON', async () => {
      expect(await commonPasswordCount()).toBeGreaterThanOrEqual(10_000);
      for (const password of ['123456', 'password123', 'Password1', 'QWERTY123', 'iloveyou', 'trustno1']) {
        const response = await register({ firstName: 'Cam', email: 'common@example.com', password });
        expect(response.statusCode, password).toBe(400);
        expect(response.json()).toEqual({
          message: 'This password is too common. Choose one that is harder to guess.',
          code: 'PASSWORD_TOO_COMMON',
        });
        expect(sessionCookie(response)).toBeUndefined();
      }
      const [row] = await t.database.db.select().from(users).where(eq(users.email, 'common@example.com'));
      expect(row).toBeUndefined();
      // A short one still gets the spec's message first.
      const short = await register({ firstName: 'Cam', email: 'common@example.com', password: '1234' });
      expect(short.json().message).toContain('Password must be at least 6 characters');
      const fine = await register({
        firstName: 'Cam',
        email: 'common@example.com',
        password: 'maple lantern 42',
      });
      expect(fine.statusCode).toBe(201);
    });
  });

  describe('POST /api/auth/login', () => {
    it('still signs in an account whose password is on the common list (registration only)', async () => {
      const user = await createUser(t.database.db, { email: 'old@example.com', password: 'password123' });
      const response = await login({ email: 'old@example.com', password: 'password123' });
      expect(response.statusCode).toBe(200);
      expect(response.json().id).toBe(user.id);
    });

    it('signs in with the right password, e-mail in any case', async () => {
      const user = await createUser(t.database.db, { email: 'lin@example.com', password: PASSWORD });
      const response = await login({ email: ' LIN@example.com', password: PASSWORD });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ id: user.id, email: 'lin@example.com' });
      expect((await currentUser(cookiesOf(response))).json().id).toBe(user.id);
    });

    it('answers 401 USER_NOT_FOUND for an unknown address', async () => {
      const response = await login({ email: 'nobody@example.com', password: PASSWORD });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        message: expect.stringContaining('user-not-found'),
        code: 'USER_NOT_FOUND',
      });
      expect(sessionCookie(response)).toBeUndefined();
    });

    it('answers 401 INVALID_CREDENTIALS for a wrong password', async () => {
      await createUser(t.database.db, { email: 'wrong@example.com', password: PASSWORD });
      const response = await login({ email: 'wrong@example.com', password: 'not the password' });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        message: expect.stringContaining('invalid-credentials'),
        code: 'INVALID_CREDENTIALS',
      });
    });

    it('answers 401 INVALID_CREDENTIALS for an account without a password (demo or Google)', async () => {
      await createUser(t.database.db, { email: 'google@example.com', googleSub: 'sub-123' });
      const response = await login({ email: 'google@example.com', password: PASSWORD });
      expect(response.statusCode).toBe(401);
      expect(response.json().code).toBe('INVALID_CREDENTIALS');
    });

    it('refuses bad input with 400 and the spec messages', async () => {
      const short = await login({ email: 'a@example.com', password: '123' });
      expect(short.statusCode).toBe(400);
      expect(short.json().message).toContain('Password must be at least 6 characters');
      const email = await login({ email: 'nope', password: PASSWORD });
      expect(email.json().message).toContain('Please enter a valid email address');
      const extra = await login({ email: 'a@example.com', password: PASSWORD, remember: true });
      expect(extra.statusCode).toBe(400);
    });
  });

  describe('sessions', () => {
    it('issues a new session id at every sign-in; the old one stops working (fixation)', async () => {
      const user = await createUser(t.database.db, { password: PASSWORD });
      const first = await login({ email: user.email, password: PASSWORD });
      const firstCookies = cookiesOf(first);
      expect((await currentUser(firstCookies)).statusCode).toBe(200);

      const second = await login({ email: user.email, password: PASSWORD }, firstCookies);
      const secondCookies = cookiesOf(second);
      expect(secondCookies[SESSION_COOKIE]).not.toBe(firstCookies[SESSION_COOKIE]);
      expect((await currentUser(firstCookies)).statusCode).toBe(401);
      expect((await currentUser(secondCookies)).json().id).toBe(user.id);
    });

    it('ignores a session id planted before sign-in', async () => {
      const user = await createUser(t.database.db, { password: PASSWORD });
      const planted = { [SESSION_COOKIE]: t.app.signCookie('attacker-chosen-id') };
      const response = await login({ email: user.email, password: PASSWORD }, planted);
      expect(cookiesOf(response)[SESSION_COOKIE]).not.toBe(planted[SESSION_COOKIE]);
      expect((await currentUser(planted)).statusCode).toBe(401);
    });

    it('keeps only a hash of the session id in the database', async () => {
      const user = await createUser(t.database.db, { password: PASSWORD });
      const response = await login({ email: user.email, password: PASSWORD });
      const signed = cookiesOf(response)[SESSION_COOKIE] ?? '';
      const id = t.app.unsignCookie(signed).value ?? '';
      expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits
      const rows = await t.database.db.select().from(sessions).where(eq(sessions.sid, id));
      expect(rows).toHaveLength(0);
      const hashed = await t.database.db
        .select()
        .from(sessions)
        .where(eq(sessions.sid, hashSessionId(id)));
      expect(hashed[0]?.sess).toMatchObject({ userId: user.id, createdAt: expect.any(Number) });
    });

    it('refuses a tampered cookie and clears it', async () => {
      const response = await currentUser({ [SESSION_COOKIE]: 'made-up.signature' });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: 'Please sign in to continue.', code: 'UNAUTHORIZED' });
      expect(sessionCookie(response)?.value).toBe('');
    });

    it('ends after 14 idle days; use within a day of the last write does not write again', async () => {
      const user = await createUser(t.database.db);
      const cookies = await sessionCookiesFor(t.app, user);
      const sid = hashSessionId(t.app.unsignCookie(cookies[SESSION_COOKIE] ?? '').value ?? '');
      const expireOf = async () =>
        (await t.database.db.select().from(sessions).where(eq(sessions.sid, sid)))[0]?.expire.getTime();
      const start = Date.now();
      const initialExpire = await expireOf();

      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(start + 0.5 * DAY);
      expect((await currentUser(cookies)).statusCode).toBe(200);
      expect(await expireOf()).toBe(initialExpire);

      // Used on day 10: the idle expiry slides to day 24, so day 20 still works...
      vi.setSystemTime(start + 10 * DAY);
      const touched = await currentUser(cookies);
      expect(touched.statusCode).toBe(200);
      expect(sessionCookie(touched)?.maxAge).toBe(14 * 24 * 60 * 60);
      expect(await expireOf()).toBeGreaterThan((initialExpire ?? 0) + 9 * DAY);
      vi.setSystemTime(start + 20 * DAY);
      expect((await currentUser(cookies)).statusCode).toBe(200);

      // ...but 15 days without use end it.
      vi.setSystemTime(start + 35 * DAY);
      expect((await currentUser(cookies)).statusCode).toBe(401);
    });

    it('ends 60 days after sign-in however active', async () => {
      const user = await createUser(t.database.db);
      const cookies = await sessionCookiesFor(t.app, user);
      const start = Date.now();
      vi.useFakeTimers({ toFake: ['Date'] });
      for (let day = 5; day < 60; day += 5) {
        vi.setSystemTime(start + day * DAY);
        expect((await currentUser(cookies)).statusCode).toBe(200);
      }
      vi.setSystemTime(start + 60 * DAY + 1000);
      expect((await currentUser(cookies)).statusCode).toBe(401);
    });

    it('refuses a signed-out session at once, though the request before had cached it', async () => {
      const user = await createUser(t.database.db, { password: PASSWORD });
      const cookies = cookiesOf(await login({ email: user.email, password: PASSWORD }));
      expect((await currentUser(cookies)).statusCode).toBe(200);
      expect((await currentUser(cookies)).statusCode).toBe(200);
      expect((await call({ method: 'POST', url: '/api/auth/logout', cookies })).statusCode).toBe(204);
      expect((await currentUser(cookies)).statusCode).toBe(401);
    });

    it('refuses a session deleted by another process within a second, though it was cached (the cache bus)', async () => {
      const user = await createUser(t.database.db);
      const cookies = await sessionCookiesFor(t.app, user);
      const sid = hashSessionId(t.app.unsignCookie(cookies[SESSION_COOKIE] ?? '').value ?? '');
      expect((await currentUser(cookies)).statusCode).toBe(200);

      // Another server signs the member out: only the database changes; its trigger notifies.
      const deletedAt = Date.now();
      await t.database.db.delete(sessions).where(eq(sessions.sid, sid));
      while ((await currentUser(cookies)).statusCode === 200) {
        expect(Date.now() - deletedAt).toBeLessThan(1_000);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect((await currentUser(cookies)).statusCode).toBe(401);
      // Without the notice, the entry would still have been served for SESSION_CACHE_MS.
      expect(Date.now() - deletedAt).toBeLessThan(SESSION_CACHE_MS);
    });

    it('moves the cached expiry when it slides, so the next request does not write again', async () => {
      const user = await createUser(t.database.db);
      const cookies = await sessionCookiesFor(t.app, user);
      const start = Date.now();
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(start + 2 * DAY);
      expect(sessionCookie(await currentUser(cookies))?.maxAge).toBe(14 * 24 * 60 * 60);
      vi.setSystemTime(start + 2 * DAY + 1000);
      const next = await currentUser(cookies);
      expect(next.statusCode).toBe(200);
      expect(sessionCookie(next)).toBeUndefined();
    });

    it('purges expired sessions at sign-in', async () => {
      const user = await createUser(t.database.db, { password: PASSWORD });
      await t.database.db.insert(sessions).values({
        sid: 'expired-one',
        sess: { userId: user.id, createdAt: 0 },
        expire: new Date(Date.now() - 1000),
      });
      await login({ email: user.email, password: PASSWORD });
      const left = await t.database.db.select().from(sessions).where(eq(sessions.sid, 'expired-one'));
      expect(left).toHaveLength(0);
    });
  });

  describe('POST /api/auth/logout', () => {
    it('destroys the session and clears the cookie with 204', async () => {
      const user = await createUser(t.database.db, { password: PASSWORD });
      const cookies = cookiesOf(await login({ email: user.email, password: PASSWORD }));
      const response = await call({ method: 'POST', url: '/api/auth/logout', cookies });
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect(sessionCookie(response)?.value).toBe('');
      expect((await currentUser(cookies)).statusCode).toBe(401);
    });

    it('is fine when nobody is signed in', async () => {
      const response = await call({ method: 'POST', url: '/api/auth/logout' });
      expect(response.statusCode).toBe(204);
    });
  });

  describe('GET /api/auth/user', () => {
    it('answers 401 when signed out', async () => {
      const response = await currentUser();
      expect(response.statusCode).toBe(401);
      expect(response.json().code).toBe('UNAUTHORIZED');
    });

    it('returns only the whitelisted fields', async () => {
      const user = await createUser(t.database.db, {
        password: PASSWORD,
        location: 'Sellwood, Portland',
        latitude: 45.46,
        longitude: -122.65,
        googleSub: 'secret-sub',
      });
      const response = await currentUser(await sessionCookiesFor(t.app, user));
      expect(Object.keys(response.json()).sort()).toEqual(
        [
          'email',
          'firstName',
          'id',
          'lastName',
          'latitude',
          'location',
          'longitude',
          'maxTravelDistance',
          'profileImageUrl',
          'isDemo',
          'emailVerified',
          'hasPassword',
          'role',
          'suspendedUntil',
        ].sort(),
      );
      expect(response.json()).toMatchObject({ location: 'Sellwood, Portland', latitude: 45.46 });
      expect(response.body).not.toContain('secret-sub');
    });
  });

  describe('POST /api/demo-login', () => {
    const demo = (name: unknown, cookies?: Record<string, string>) =>
      call({ method: 'POST', url: '/api/demo-login', payload: { name }, ...(cookies ? { cookies } : {}) });
    const demoCookie = (response: LightMyRequestResponse) =>
      response.cookies.find((c) => c.name === DEMO_COOKIE);
    /** What the browser holds after this response: its session and its demo account. */
    const browserAfter = (response: LightMyRequestResponse) => ({
      ...cookiesOf(response),
      [DEMO_COOKIE]: demoCookie(response)?.value ?? '',
    });
    const myItems = (cookies: Record<string, string>) =>
      call({ method: 'GET', url: '/api/items/my', cookies });

    it('creates a demo member without e-mail or password, marked as such, and signs them in', async () => {
      const response = await demo('  Maya   de la Cruz ');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        firstName: 'Maya',
        lastName: 'de la Cruz',
        email: null,
        isDemo: true,
      });
      const [row] = await t.database.db.select().from(users).where(eq(users.id, response.json().id));
      expect(row).toMatchObject({
        demoName: 'Maya de la Cruz',
        isDemo: true,
        passwordHash: null,
        email: null,
      });
      const me = await currentUser(cookiesOf(response));
      expect(me.json()).toMatchObject({ id: response.json().id, isDemo: true });
      expect(demoCookie(response)).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    });

    it("gives every visitor an account of their own: typing Victor's name does not take his over", async () => {
      const victor = await demo('Victor Victim');
      const victorCookies = cookiesOf(victor);
      const bike = await createItem(t.database.db, { userId: victor.json().id, title: "Victor's bike" });

      // Another browser (no cookies) types the same name, in any spelling.
      for (const name of ['Victor Victim', ' victor   VICTIM ']) {
        const intruder = await demo(name);
        expect(intruder.statusCode).toBe(200);
        expect(intruder.json().id).not.toBe(victor.json().id);
        expect(intruder.json().isDemo).toBe(true);
        const intruderCookies = cookiesOf(intruder);
        expect((await myItems(intruderCookies)).json()).toEqual([]);
        const removed = await call({
          method: 'DELETE',
          url: `/api/items/${bike.id}`,
          cookies: intruderCookies,
        });
        expect(removed.statusCode).toBe(404);
      }
      expect((await myItems(victorCookies)).json().map((item: { id: string }) => item.id)).toEqual([bike.id]);
      const demoMembers = await t.database.db.select().from(users).where(eq(users.isDemo, true));
      expect(demoMembers.filter((row) => row.firstName?.toLowerCase() === 'victor')).toHaveLength(3);
    });

    it('signs this browser back into the demo account it made, renamed when another name is typed', async () => {
      const first = await demo('Sam');
      // The session has ended; the browser still holds its demo cookie.
      const browser = { [DEMO_COOKIE]: demoCookie(first)?.value ?? '' };
      const again = await demo('Sam', browser);
      expect(again.json()).toMatchObject({ id: first.json().id, firstName: 'Sam', lastName: null });
      const renamed = await demo('Samantha Stone', browser);
      expect(renamed.json()).toMatchObject({
        id: first.json().id,
        firstName: 'Samantha',
        lastName: 'Stone',
        isDemo: true,
      });
      expect((await currentUser(cookiesOf(renamed))).json().firstName).toBe('Samantha');
    });

    it('never signs into a real account, nor into a demo account named by a cookie it did not sign', async () => {
      const real = await createUser(t.database.db, {
        firstName: 'Rita',
        lastName: 'Real',
        password: PASSWORD,
      });
      const byName = await demo('Rita Real');
      expect(byName.json().id).not.toBe(real.id);
      // Even a correctly signed cookie naming a member who is not a demo account is ignored.
      const signedReal = await demo('Rita Real', { [DEMO_COOKIE]: t.app.signCookie(real.id) });
      expect(signedReal.json().id).not.toBe(real.id);
      expect(signedReal.json()).toMatchObject({ isDemo: true, email: null });

      const olga = await demo('Olga');
      const olgaId: string = olga.json().id;
      for (const forged of [olgaId, `${olgaId}.not-our-signature`, t.app.signCookie('not-a-uuid')]) {
        const response = await demo('Olga', { [DEMO_COOKIE]: forged });
        expect(response.statusCode).toBe(200);
        expect(response.json().id).not.toBe(olgaId);
      }
    });

    it('forgets the demo account at sign-out, so the next person at this computer gets their own', async () => {
      const first = await demo('Pat');
      const out = await call({ method: 'POST', url: '/api/auth/logout', cookies: browserAfter(first) });
      expect(out.statusCode).toBe(204);
      expect(demoCookie(out)?.value).toBe('');
      const next = await demo('Pat');
      expect(next.json().id).not.toBe(first.json().id);
    });

    it('refuses a blank name with the spec message', async () => {
      const response = await demo('   ');
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain('Please enter your name to continue');
    });
  });

  describe('unread counts', () => {
    it('need a signed-in member', async () => {
      for (const url of ['/api/notifications/unread-count', '/api/messages/unread-count']) {
        const response = await call({ method: 'GET', url });
        expect(response.statusCode).toBe(401);
      }
    });

    it('count unread messages to me; notifications are 0 for now', async () => {
      const me = await createUser(t.database.db);
      const other = await createUser(t.database.db);
      await createMessage(t.database.db, { fromUserId: other.id, toUserId: me.id });
      await createMessage(t.database.db, { fromUserId: other.id, toUserId: me.id });
      await createMessage(t.database.db, { fromUserId: other.id, toUserId: me.id, isRead: true });
      await createMessage(t.database.db, { fromUserId: me.id, toUserId: other.id });
      const cookies = await sessionCookiesFor(t.app, me);
      const messages = await call({ method: 'GET', url: '/api/messages/unread-count', cookies });
      expect(messages.statusCode).toBe(200);
      expect(messages.body).toBe('2');
      const notifications = await call({ method: 'GET', url: '/api/notifications/unread-count', cookies });
      expect(notifications.body).toBe('0');
    });
  });

  describe('cross-origin requests', () => {
    const payload = { email: 'nobody@example.com', password: PASSWORD };

    it('refuses a state-changing call from another site with 403 CROSS_ORIGIN', async () => {
      for (const origin of ['https://evil.example', 'null', 'http://localhost:5000.evil.example']) {
        const response = await call({
          method: 'POST',
          url: '/api/auth/login',
          payload,
          headers: { origin },
        });
        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual({ message: expect.any(String), code: 'CROSS_ORIGIN' });
      }
    });

    it('lets our own origin (PUBLIC_URL or the Host) and calls without Origin through', async () => {
      const own = await call({
        method: 'POST',
        url: '/api/auth/login',
        payload,
        headers: { origin: 'http://localhost:5000' },
      });
      expect(own.statusCode).toBe(401);
      const host = await call({
        method: 'POST',
        url: '/api/auth/login',
        payload,
        headers: { origin: 'https://barter.example', host: 'barter.example' },
      });
      expect(host.statusCode).toBe(401);
      expect((await login(payload)).statusCode).toBe(401);
    });

    it('does not apply to reads', async () => {
      const response = await call({
        method: 'GET',
        url: '/api/site',
        headers: { origin: 'https://evil.example' },
      });
      expect(response.statusCode).toBe(200);
    });
  });

  it('never sends a password hash in any response of this file', () => {
    expect(bodies.length).toBeGreaterThan(30);
    for (const body of bodies) {
      expect(body).not.toContain('argon2');
      expect(body).not.toMatch(/password_?hash/i);
    }
  });
});

describe('demo and known-device cookies on an https site', () => {
  it('are named with __Host- (Secure, Path=/) and read back under that name', async () => {
    const t = await buildTestApp({ PUBLIC_URL: 'https://barter.example' });
    try {
      const demo = await t.app.inject({ method: 'POST', url: '/api/demo-login', payload: { name: 'Hana' } });
      const demoCookie = demo.cookies.find((c) => c.name === `__Host-${DEMO_COOKIE}`);
      expect(demoCookie).toMatchObject({ secure: true, path: '/', httpOnly: true });
      expect(demo.cookies.some((c) => c.name === DEMO_COOKIE)).toBe(false);
      const again = await t.app.inject({
        method: 'POST',
        url: '/api/demo-login',
        payload: { name: 'Hana' },
        cookies: { [`__Host-${DEMO_COOKIE}`]: demoCookie?.value ?? '' },
      });
      expect(again.json().id).toBe(demo.json().id);

      const registered = await t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { firstName: 'Ines', email: 'ines@example.com', password: PASSWORD },
      });
      expect(registered.cookies.find((c) => c.name === `__Host-${KNOWN_DEVICE_COOKIE}`)).toMatchObject({
        secure: true,
        path: '/',
        httpOnly: true,
      });
    } finally {
      await t.close();
    }
  });
});

describe('demo login in production', () => {
  const production = { NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32), SITE_PASSWORD: 'own-gate' };

  it('is off unless DEMO_LOGIN=true is set; on by default in development and test', () => {
    expect(loadConfig(production).demoLogin).toBe(false);
    expect(loadConfig({ ...production, DEMO_LOGIN: 'true' }).demoLogin).toBe(true);
    expect(loadConfig({ ...production, NODE_ENV: 'development' }).demoLogin).toBe(true);
    expect(loadConfig({ ...production, NODE_ENV: 'test' }).demoLogin).toBe(true);
    expect(loadConfig({ ...production, NODE_ENV: 'development', DEMO_LOGIN: 'false' }).demoLogin).toBe(false);
  });

  it('answers 404 DEMO_LOGIN_DISABLED on a production server by default', async () => {
    const t = await buildTestApp({ NODE_ENV: 'production' });
    try {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/demo-login',
        payload: { name: 'Sam' },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe('DEMO_LOGIN_DISABLED');
    } finally {
      await t.close();
    }
  });
});

describe('demo login switched off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ DEMO_LOGIN: 'false' });
  });
  afterAll(() => t.close());

  it('answers 404 DEMO_LOGIN_DISABLED, whatever the body', async () => {
    for (const payload of [{ name: 'Sam' }, { name: '' }]) {
      const response = await t.app.inject({ method: 'POST', url: '/api/demo-login', payload });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'Demo login is unavailable.', code: 'DEMO_LOGIN_DISABLED' });
    }
  });
});
