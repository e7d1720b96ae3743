import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountTokens } from '../../db/schema/account';
import { users } from '../../db/schema/users';
import { SESSION_COOKIE } from '../../plugins/session';
import { createUser, sessionCookiesFor } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { startTestSmtp } from '../../test/smtp';

const PASSWORD = 'correct horse';
const NEW_PASSWORD = 'battery staple 42';
const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** Account care through the routes, with mail delivered to a real SMTP server in this process (ADR 024). */
describe('account: e-mail, passwords and sessions', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
  let serial = 0;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await buildTestApp({
      SMTP_URL: smtp.url,
      LOGIN_RATE_LIMIT: '1000',
      LOGIN_ACCOUNT_RATE_LIMIT: '1000',
      REGISTER_RATE_LIMIT: '1000',
      PASSWORD_RESET_RATE_LIMIT: '1000',
      PUBLIC_URL: 'http://barter.example',
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const call = (options: InjectOptions) => t.app.inject(options);
  const cookiesOf = (response: LightMyRequestResponse) => {
    const cookie = response.cookies.find((c) => c.name === SESSION_COOKIE);
    if (!cookie) throw new Error('no session cookie was set');
    return { [SESSION_COOKIE]: cookie.value };
  };
  const me = (cookies: Record<string, string>) => call({ method: 'GET', url: '/api/auth/user', cookies });
  const login = (email: string, password: string, userAgent = CHROME) =>
    call({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password },
      headers: { 'user-agent': userAgent },
    });
  /** A registered member: their address, first session's cookies, and the welcome mail's link. */
  async function registered(firstName = 'Ada') {
    serial++;
    const email = `member${serial}@example.com`;
    const response = await call({
      method: 'POST',
      url: '/api/auth/register',
      payload: { firstName, email, password: PASSWORD },
      headers: { 'user-agent': CHROME },
    });
    expect(response.statusCode).toBe(201);
    return { email, cookies: cookiesOf(response), id: response.json().id as string };
  }
  const tokenOf = (link: string | undefined) => new URL(link ?? 'https://x/').searchParams.get('token') ?? '';
  /**
   * The links of a kind the server has issued the member. Every account mail carries a link issued
   * before the request is answered, and the mail goes out after: a count that stayed the same once the
   * answer is in means no mail was queued, with no waiting for a mail that should not come.
   */
  const linksIssued = async (userId: string, kind: 'verify-email' | 'password-reset') =>
    (
      await t.app.db
        .select({ id: accountTokens.id })
        .from(accountTokens)
        .where(and(eq(accountTokens.userId, userId), eq(accountTokens.kind, kind)))
    ).length;

  describe('verifying the address', () => {
    it('registration mails a link; the member uses the site meanwhile; the link confirms the address once', async () => {
      const member = await registered();
      expect((await me(member.cookies)).json()).toMatchObject({ emailVerified: false, hasPassword: true });
      const mail = await smtp.waitFor(member.email);
      expect(mail.subject).toBe('Confirm your Barterhood email address');
      expect(mail.text).toMatch(/^Hi Ada,/);
      const link = mail.links[0] ?? '';
      expect(link).toMatch(/^http:\/\/barter\.example\/verify-email\?token=[A-Za-z0-9_-]{43}$/);
      const verify = () =>
        call({ method: 'POST', url: '/api/auth/verify-email', payload: { token: tokenOf(link) } });
      // Signed out, as when the link is opened in another browser.
      const first = await verify();
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ email: member.email });
      expect((await me(member.cookies)).json()).toMatchObject({ emailVerified: true });
      const again = await verify();
      expect(again.statusCode).toBe(400);
      expect(again.json()).toMatchObject({ code: 'LINK_INVALID' });
    });

    it('resends at most once a minute, and not at all once verified', async () => {
      const member = await registered();
      await smtp.waitFor(member.email);
      const resend = () =>
        call({ method: 'POST', url: '/api/account/verify-email/resend', cookies: member.cookies });
      expect((await resend()).statusCode).toBe(202);
      // The welcome mail was sent less than a minute ago: nothing more.
      expect(await linksIssued(member.id, 'verify-email')).toBe(1);
      expect(smtp.to(member.email)).toHaveLength(1);
      await t.app.db
        .update(accountTokens)
        .set({ createdAt: new Date(Date.now() - 120_000) })
        .where(eq(accountTokens.userId, member.id));
      expect((await resend()).statusCode).toBe(202);
      await smtp.waitFor(member.email, () => smtp.to(member.email).length === 2);
      const [welcome, second] = smtp.to(member.email);
      // Both links still work until one is used: the newest here.
      expect(tokenOf(second?.links[0])).not.toBe(tokenOf(welcome?.links[0]));
      expect(
        (
          await call({
            method: 'POST',
            url: '/api/auth/verify-email',
            payload: { token: tokenOf(second?.links[0]) },
          })
        ).statusCode,
      ).toBe(200);
      expect((await resend()).statusCode).toBe(202);
      expect(await linksIssued(member.id, 'verify-email')).toBe(2);
      expect(smtp.to(member.email)).toHaveLength(2);
    });
  });

  describe('forgotten password', () => {
    it('mails a link; the new password signs in here; every old session is gone; the link works once', async () => {
      const member = await registered('Bea');
      const other = cookiesOf(await login(member.email, PASSWORD, FIREFOX));
      const asked = await call({
        method: 'POST',
        url: '/api/auth/password-reset',
        payload: { email: member.email.toUpperCase() },
      });
      expect(asked.statusCode).toBe(202);
      const mail = await smtp.waitFor(member.email, (m) => m.subject === 'Set a new Barterhood password');
      expect(mail.text).toContain('within 30 minutes');
      const link = mail.links[0] ?? '';
      expect(link).toMatch(/^http:\/\/barter\.example\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
      const confirm = (password: string) =>
        call({
          method: 'POST',
          url: '/api/auth/password-reset/confirm',
          payload: { token: tokenOf(link), password },
        });

      // A common password is refused and the link still works.
      const common = await confirm('password123');
      expect(common.statusCode).toBe(400);
      expect(common.json()).toMatchObject({ code: 'PASSWORD_TOO_COMMON' });

      const done = await confirm(NEW_PASSWORD);
      expect(done.statusCode).toBe(200);
      expect(done.json()).toMatchObject({ email: member.email, emailVerified: true });
      expect((await me(cookiesOf(done))).statusCode).toBe(200);
      // Both earlier sessions ended at once (no cache window in this process).
      expect((await me(member.cookies)).statusCode).toBe(401);
      expect((await me(other)).statusCode).toBe(401);
      expect((await login(member.email, PASSWORD)).statusCode).toBe(401);
      expect((await login(member.email, NEW_PASSWORD)).statusCode).toBe(200);
      const reused = await confirm('another fine password');
      expect(reused.statusCode).toBe(400);
      expect(reused.json()).toMatchObject({ code: 'LINK_INVALID' });
    });

    it('answers the same for an unknown address and sends nothing; one link a minute per account', async () => {
      const before = smtp.received.length;
      const unknown = await call({
        method: 'POST',
        url: '/api/auth/password-reset',
        payload: { email: 'nobody@example.com' },
      });
      const member = await registered();
      await smtp.waitFor(member.email);
      const known = await call({
        method: 'POST',
        url: '/api/auth/password-reset',
        payload: { email: member.email },
      });
      expect(unknown.statusCode).toBe(202);
      expect(known.statusCode).toBe(202);
      expect(unknown.json()).toEqual(known.json());
      await smtp.waitFor(member.email, (m) => m.subject.includes('new Barterhood password'));
      expect(
        (await call({ method: 'POST', url: '/api/auth/password-reset', payload: { email: member.email } }))
          .statusCode,
      ).toBe(202);
      expect(await linksIssued(member.id, 'password-reset')).toBe(1);
      expect(smtp.to(member.email).filter((m) => m.subject.includes('new Barterhood password'))).toHaveLength(
        1,
      );
      expect(smtp.received.filter((m) => m.to.includes('nobody@example.com'))).toHaveLength(0);
      expect(smtp.received.length).toBe(before + 2);
    });

    it('refuses an expired link, a link of another kind, and a made-up one', async () => {
      const member = await registered();
      const welcome = await smtp.waitFor(member.email);
      await call({ method: 'POST', url: '/api/auth/password-reset', payload: { email: member.email } });
      const reset = await smtp.waitFor(member.email, (m) => m.subject.includes('new Barterhood password'));
      const confirm = (token: string) =>
        call({
          method: 'POST',
          url: '/api/auth/password-reset/confirm',
          payload: { token, password: NEW_PASSWORD },
        });
      // The verification link is no reset link.
      expect((await confirm(tokenOf(welcome.links[0]))).json()).toMatchObject({ code: 'LINK_INVALID' });
      expect((await confirm('A'.repeat(43))).statusCode).toBe(400);
      for (const token of ['', 'short', `${'A'.repeat(42)}=`, '../../etc/passwd', 'A'.repeat(44)]) {
        const response = await confirm(token);
        expect(response.statusCode, token).toBe(400);
      }
      await t.app.db.execute(
        sql`UPDATE account_tokens SET expires_at = now() - interval '1 second' WHERE user_id = ${member.id}::uuid AND kind = 'password-reset'`,
      );
      expect((await confirm(tokenOf(reset.links[0]))).json()).toMatchObject({ code: 'LINK_INVALID' });
      expect((await login(member.email, PASSWORD)).statusCode).toBe(200);
    });

    it('two requests racing with one link: exactly one sets the password', async () => {
      const member = await registered();
      await call({ method: 'POST', url: '/api/auth/password-reset', payload: { email: member.email } });
      const reset = await smtp.waitFor(member.email, (m) => m.subject.includes('new Barterhood password'));
      const token = tokenOf(reset.links[0]);
      const answers = await Promise.all(
        ['first racing password', 'second racing password'].map((password) =>
          call({ method: 'POST', url: '/api/auth/password-reset/confirm', payload: { token, password } }),
        ),
      );
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
    });

    it('without SMTP_URL the mail is written to DATA_DIR/outbox and its link logged', async () => {
      const local = await buildTestApp({ PUBLIC_URL: 'http://barter.example' });
      try {
        const user = await createUser(local.app.db, { email: 'outbox@example.com', passwordHash: null });
        expect(user.id).toBeTruthy();
        const response = await local.app.inject({
          method: 'POST',
          url: '/api/auth/password-reset',
          payload: { email: 'outbox@example.com' },
        });
        expect(response.statusCode).toBe(202);
        const outbox = path.join(local.config.dataDir, 'outbox');
        let files: string[] = [];
        for (let i = 0; i < 100 && files.length === 0; i++) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          try {
            files = readdirSync(outbox).filter((name) => name.endsWith('.eml'));
          } catch {
            files = [];
          }
        }
        expect(files).toHaveLength(1);
        const eml = readFileSync(path.join(outbox, files[0] ?? ''), 'utf8');
        expect(eml).toMatch(/^To: outbox@example\.com$/m);
        expect(eml).toContain('http://barter.example/reset-password?token=');
      } finally {
        await local.close();
      }
    });
  });

  describe('changing the password and the address', () => {
    it('the current password first; the other sessions end, this one stays', async () => {
      const member = await registered();
      const other = cookiesOf(await login(member.email, PASSWORD, FIREFOX));
      const change = (payload: object) =>
        call({ method: 'PUT', url: '/api/account/password', cookies: member.cookies, payload });
      const wrong = await change({ currentPassword: 'not it at all', newPassword: NEW_PASSWORD });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toMatchObject({ code: 'CURRENT_PASSWORD_WRONG' });
      expect((await change({ newPassword: NEW_PASSWORD })).json()).toMatchObject({
        code: 'CURRENT_PASSWORD_WRONG',
      });
      expect((await change({ currentPassword: PASSWORD, newPassword: '12345' })).statusCode).toBe(400);
      expect((await me(other)).statusCode).toBe(200);
      const done = await change({ currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
      expect(done.statusCode).toBe(200);
      expect((await me(member.cookies)).statusCode).toBe(200);
      expect((await me(other)).statusCode).toBe(401);
      expect((await login(member.email, NEW_PASSWORD)).statusCode).toBe(200);
    });

    it('a new address is confirmed from its own inbox; the old one is told; sign-in moves to the new one', async () => {
      const member = await registered('Cleo');
      const taken = await registered();
      const change = (payload: object) =>
        call({ method: 'PUT', url: '/api/account/email', cookies: member.cookies, payload });
      expect((await change({ email: 'new@example.com', password: 'wrong password' })).json()).toMatchObject({
        code: 'CURRENT_PASSWORD_WRONG',
      });
      expect((await change({ email: member.email.toUpperCase(), password: PASSWORD })).json()).toMatchObject({
        code: 'EMAIL_UNCHANGED',
      });
      expect((await change({ email: taken.email, password: PASSWORD })).statusCode).toBe(409);
      // The welcome mail went less than a minute ago: backdate it, as if the member came back later.
      await t.app.db
        .update(accountTokens)
        .set({ createdAt: new Date(Date.now() - 120_000) })
        .where(eq(accountTokens.userId, member.id));
      const newAddress = `cleo${serial}@example.org`;
      const asked = await change({ email: ` ${newAddress.toUpperCase()} `, password: PASSWORD });
      expect(asked.statusCode).toBe(202);
      // Nothing changes until the link is followed.
      expect((await me(member.cookies)).json()).toMatchObject({ email: member.email });
      const mail = await smtp.waitFor(newAddress);
      expect(mail.subject).toBe('Confirm your new Barterhood email address');
      const verified = await call({
        method: 'POST',
        url: '/api/auth/verify-email',
        payload: { token: tokenOf(mail.links[0]) },
      });
      expect(verified.json()).toEqual({ email: newAddress });
      expect((await me(member.cookies)).json()).toMatchObject({ email: newAddress, emailVerified: true });
      // The welcome link to the old address can never switch it back.
      const welcome = await smtp.waitFor(
        member.email,
        (m) => m.subject === 'Confirm your Barterhood email address',
      );
      const stale = await call({
        method: 'POST',
        url: '/api/auth/verify-email',
        payload: { token: tokenOf(welcome.links[0]) },
      });
      expect(stale.json()).toMatchObject({ code: 'LINK_INVALID' });
      expect((await me(member.cookies)).json()).toMatchObject({ email: newAddress });
      const notice = await smtp.waitFor(
        member.email,
        (m) => m.subject === 'Your Barterhood email address was changed',
      );
      expect(notice.text).toContain('support@barterhood.example');
      expect((await login(member.email, PASSWORD)).statusCode).toBe(401);
      expect((await login(newAddress, PASSWORD)).statusCode).toBe(200);
    });

    it('an address taken between the request and the link: 409, and the account keeps its own', async () => {
      const member = await registered();
      await t.app.db
        .update(accountTokens)
        .set({ createdAt: new Date(Date.now() - 120_000) })
        .where(eq(accountTokens.userId, member.id));
      const wanted = `wanted${serial}@example.org`;
      await call({
        method: 'PUT',
        url: '/api/account/email',
        cookies: member.cookies,
        payload: { email: wanted, password: PASSWORD },
      });
      const mail = await smtp.waitFor(wanted);
      await createUser(t.app.db, { email: wanted });
      const response = await call({
        method: 'POST',
        url: '/api/auth/verify-email',
        payload: { token: tokenOf(mail.links[0]) },
      });
      expect(response.statusCode).toBe(409);
      expect((await me(member.cookies)).json()).toMatchObject({ email: member.email });
    });

    it('demo accounts have neither to change', async () => {
      const demo = await createUser(t.app.db, { email: null, passwordHash: null, isDemo: true });
      const cookies = await sessionCookiesFor(t.app, demo);
      const response = await call({
        method: 'PUT',
        url: '/api/account/password',
        cookies,
        payload: { newPassword: NEW_PASSWORD },
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'DEMO_ACCOUNT' });
      const [row] = await t.app.db.select().from(users).where(eq(users.id, demo.id));
      expect(row?.passwordHash).toBeNull();
    });
  });

  describe('sessions', () => {
    it('lists where the member is signed in, signs one out, then everywhere', async () => {
      const member = await registered();
      const firefox = cookiesOf(await login(member.email, PASSWORD, FIREFOX));
      const list = await call({ method: 'GET', url: '/api/account/sessions', cookies: member.cookies });
      expect(list.statusCode).toBe(200);
      const sessions = list.json() as Array<{ id: string; device: string; current: boolean }>;
      expect(sessions.map((s) => [s.device, s.current])).toEqual([
        ['Firefox on Windows', false],
        ['Chrome on Linux', true],
      ]);
      const other = sessions[0]?.id ?? '';
      // Another member cannot end it.
      const stranger = await registered();
      expect(
        (await call({ method: 'DELETE', url: `/api/account/sessions/${other}`, cookies: stranger.cookies }))
          .statusCode,
      ).toBe(404);
      expect((await me(firefox)).statusCode).toBe(200);
      expect(
        (await call({ method: 'DELETE', url: `/api/account/sessions/${other}`, cookies: member.cookies }))
          .statusCode,
      ).toBe(204);
      expect((await me(firefox)).statusCode).toBe(401);
      expect(
        (await call({ method: 'DELETE', url: '/api/account/sessions/..%2F..%2Fx', cookies: member.cookies }))
          .statusCode,
      ).toBe(400);

      const third = cookiesOf(await login(member.email, PASSWORD, FIREFOX));
      const everywhere = await call({
        method: 'POST',
        url: '/api/account/sign-out-everywhere',
        cookies: member.cookies,
      });
      expect(everywhere.statusCode).toBe(204);
      expect((await me(member.cookies)).statusCode).toBe(401);
      expect((await me(third)).statusCode).toBe(401);
      // The stranger's session is theirs alone.
      expect((await me(stranger.cookies)).statusCode).toBe(200);
    });
  });
});
