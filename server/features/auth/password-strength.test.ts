import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AUTH_MESSAGES, PASSWORD_STRENGTH_MESSAGES } from '#common/schemas/auth.ts';
import { SESSION_COOKIE } from '../../plugins/session';
import { buildTestApp, injectHonouringRetryAfter, type TestApp } from '../../test/helpers';
import { issueToken } from '../account';
import { ESTIMATE_MAX_LENGTH, judgePasswordHere, passwordRefusal } from './password-strength';

const STRONG = 'tidal walnut 97';
const OTHER_STRONG = 'quiet heron lamp';
const MARIA = { firstName: 'María', lastName: 'López' };

/**
 * The probe's weak passwords (issue 27), each with the reason the member is shown, for a member named
 * María López with the address maria.lopez@example.com.
 */
const WEAK: [string, { message: string; code: string }][] = [
  ['aaaaaa', { message: PASSWORD_STRENGTH_MESSAGES.simpleRepeat, code: 'PASSWORD_TOO_WEAK' }],
  ['abcdef', { message: PASSWORD_STRENGTH_MESSAGES.sequences, code: 'PASSWORD_TOO_WEAK' }],
  ['123123123', { message: PASSWORD_STRENGTH_MESSAGES.extendedRepeat, code: 'PASSWORD_TOO_WEAK' }],
  ['Barter123', { message: PASSWORD_STRENGTH_MESSAGES.userInputs, code: 'PASSWORD_TOO_WEAK' }],
  ['barterhood', { message: PASSWORD_STRENGTH_MESSAGES.userInputs, code: 'PASSWORD_TOO_WEAK' }],
  ['the own address', { message: PASSWORD_STRENGTH_MESSAGES.containsEmail, code: 'PASSWORD_PERSONAL' }],
];

/** Case 'the own address' stands for the member's own e-mail, which differs per test. */
const passwordFor = (example: string, email: string) => (example === 'the own address' ? email : example);

describe('new passwords are judged by zxcvbn, the member name and address (ADR 055)', () => {
  let t: TestApp;
  let serial = 0;

  beforeAll(async () => {
    t = await buildTestApp({
      LOGIN_RATE_LIMIT: '1000',
      LOGIN_ACCOUNT_RATE_LIMIT: '1000',
      REGISTER_RATE_LIMIT: '1000',
      PASSWORD_RESET_RATE_LIMIT: '1000',
    });
  });
  afterAll(() => t.close());

  // Every call here hashes a password, the costliest kind of request, shed first (ADR 051) while the
  // embedded database is slow, as it is on a loaded host while a new app sets up its jobs. What this
  // file checks is the answer once the work runs: a 503 is sent again after the Retry-After it names,
  // as a member told "Please try again shortly" does.
  const call = (options: InjectOptions) => injectHonouringRetryAfter(t.app, options, 6);
  const cookiesOf = (response: LightMyRequestResponse) => {
    const cookie = response.cookies.find((c) => c.name === SESSION_COOKIE);
    if (!cookie) throw new Error('no session cookie was set');
    return { [SESSION_COOKIE]: cookie.value };
  };
  const nextEmail = () => {
    serial++;
    return `maria.lopez${serial}@example.com`;
  };
  const register = (payload: Record<string, unknown>) =>
    call({ method: 'POST', url: '/api/auth/register', payload });
  async function member() {
    const email = nextEmail();
    const response = await register({ ...MARIA, email, password: STRONG });
    expect(response.statusCode).toBe(201);
    return { email, id: response.json().id as string, cookies: cookiesOf(response) };
  }

  describe('sign-up', () => {
    it.each(WEAK)('refuses %s with its reason, and makes no account', async (example, refusal) => {
      const email = nextEmail();
      const response = await register({ ...MARIA, email, password: passwordFor(example, email) });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(refusal);
      expect(response.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
      const again = await register({ ...MARIA, email, password: STRONG });
      expect(again.statusCode).toBe(201);
    });

    it('refuses the name and the address in any letter case, with or without accents', async () => {
      const email = nextEmail();
      for (const [password, message] of [
        ['Lopez-rocks-99', PASSWORD_STRENGTH_MESSAGES.containsName],
        ['harbor MARÍA 1987', PASSWORD_STRENGTH_MESSAGES.containsName],
        [`${email.toUpperCase()}!`, PASSWORD_STRENGTH_MESSAGES.containsEmail],
      ] as const) {
        const response = await register({ ...MARIA, email, password });
        expect(response.json(), password).toEqual({ message, code: 'PASSWORD_PERSONAL' });
      }
      // The address's local part on its own, for a member whose name is not in it.
      const quokka = await register({
        firstName: 'Sam',
        email: 'quokka.fan@example.com',
        password: 'Quokka.Fan harbor 9',
      });
      expect(quokka.json()).toEqual({
        message: PASSWORD_STRENGTH_MESSAGES.containsEmail,
        code: 'PASSWORD_PERSONAL',
      });
    });

    it('a short name is not refused outright: "Al" may use a password with "al" in it', async () => {
      const response = await register({
        firstName: 'Al',
        lastName: 'Wu',
        email: 'al@example.com',
        password: 'al-salty-walnut-9',
      });
      expect(response.statusCode).toBe(201);
    });

    it('the common list still answers first, and a strong password passes', async () => {
      const common = await register({ ...MARIA, email: nextEmail(), password: 'Password1' });
      expect(common.json()).toEqual({
        message: AUTH_MESSAGES.passwordTooCommon,
        code: 'PASSWORD_TOO_COMMON',
      });
      const strong = await register({ ...MARIA, email: nextEmail(), password: STRONG });
      expect(strong.statusCode).toBe(201);
    });
  });

  describe('password change', () => {
    it.each(WEAK)('refuses %s with its reason and keeps the old password', async (example, refusal) => {
      const maria = await member();
      const response = await call({
        method: 'PUT',
        url: '/api/account/password',
        cookies: maria.cookies,
        payload: { currentPassword: STRONG, newPassword: passwordFor(example, maria.email) },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(refusal);
      const login = await call({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: maria.email, password: STRONG },
      });
      expect(login.statusCode).toBe(200);
    });

    it('refuses the member name, and takes a strong password', async () => {
      const maria = await member();
      const change = (newPassword: string) =>
        call({
          method: 'PUT',
          url: '/api/account/password',
          cookies: maria.cookies,
          payload: { currentPassword: STRONG, newPassword },
        });
      expect((await change('maria lopez harbor')).json()).toEqual({
        message: PASSWORD_STRENGTH_MESSAGES.containsName,
        code: 'PASSWORD_PERSONAL',
      });
      expect((await change(OTHER_STRONG)).statusCode).toBe(200);
    });
  });

  describe('password reset', () => {
    it.each(WEAK)('refuses %s with its reason and the link still works', async (example, refusal) => {
      const maria = await member();
      const token = await issueToken(t.app.db, maria.id, 'password-reset', maria.email);
      const confirm = (password: string) =>
        call({ method: 'POST', url: '/api/auth/password-reset/confirm', payload: { token, password } });
      const refused = await confirm(passwordFor(example, maria.email));
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual(refusal);
      const done = await confirm(OTHER_STRONG);
      expect(done.statusCode).toBe(200);
    });

    it('a made-up link is refused as such, whatever the password', async () => {
      const response = await call({
        method: 'POST',
        url: '/api/auth/password-reset/confirm',
        payload: { token: 'A'.repeat(43), password: 'aaaaaa' },
      });
      expect(response.json()).toMatchObject({ code: 'LINK_INVALID' });
    });
  });

  describe('the estimator', () => {
    const owner = { email: 'maria.lopez@example.com', ...MARIA };

    it(`looks at the first ${ESTIMATE_MAX_LENGTH} characters of a long password`, async () => {
      expect(await passwordRefusal('a'.repeat(200), owner)).toMatchObject({ code: 'PASSWORD_TOO_WEAK' });
      const long = `${STRONG} ${'a'.repeat(180)}`;
      expect(await passwordRefusal(long, owner)).toBeNull();
      // The name and address are looked for in the whole password.
      expect(await passwordRefusal(`${'x'.repeat(150)} lopez`, owner)).toMatchObject({
        code: 'PASSWORD_PERSONAL',
      });
    });

    it('weighs short name parts and the site words as guessable words', async () => {
      const al = { email: 'al@example.com', firstName: 'Al', lastName: 'Wu' };
      expect(await passwordRefusal('Al2024', al)).toMatchObject({ code: 'PASSWORD_TOO_WEAK' });
      expect(await passwordRefusal('Swapday123', al)).toEqual(
        expect.objectContaining({ message: PASSWORD_STRENGTH_MESSAGES.userInputs }),
      );
      expect(await passwordRefusal('maple lantern 42', al)).toBeNull();
    });

    it('judges in the worker pool and answers as on this thread (ADR 093)', async () => {
      for (const [example, refusal] of WEAK) {
        const password = passwordFor(example, owner.email);
        expect(await passwordRefusal(password, owner), example).toMatchObject(refusal);
        expect(await judgePasswordHere(password, owner), example).toEqual(refusal);
      }
      expect(await passwordRefusal(STRONG, owner)).toBeNull();
      expect(await judgePasswordHere(STRONG, owner)).toBeNull();
    });
  });
});

describe('a password the worker pool cannot judge (ADR 093)', () => {
  it('is answered 503, neither taken nor refused', async () => {
    vi.resetModules();
    const actual = await vi.importActual<typeof import('../../workers/pool')>('../../workers/pool');
    vi.doMock('../../workers/pool', () => ({
      ...actual,
      runInPool: () => Promise.reject(new actual.WorkerPoolError('task judgePassword failed', 'crashed')),
    }));
    try {
      const strength = await import('./password-strength');
      await expect(strength.passwordRefusal(STRONG, { email: 'ann@example.com' })).rejects.toMatchObject({
        statusCode: 503,
        code: 'SERVICE_UNAVAILABLE',
      });
    } finally {
      vi.doUnmock('../../workers/pool');
      vi.resetModules();
    }
  });
});
