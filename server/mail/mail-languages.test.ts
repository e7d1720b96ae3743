import { eq, sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountTokens } from '../db/schema/account';
import { users } from '../db/schema/users';
import { barterKit, type Member } from '../features/barters/barter-test-kit';
import { markSeen, sendMailDigests } from '../features/notifications';
import { requestLocale as requestLanguage } from '../lib/request-locale';
import { SESSION_COOKIE } from '../plugins/session';
import { buildTestApp, type TestApp } from '../test/helpers';
import { startTestSmtp } from '../test/smtp';
import { mailI18n } from './mail-i18n';
import { MAIL_TEXT } from './mail-messages';

const PASSWORD = 'correct horse battery';
const SPANISH = { 'accept-language': 'es-MX,es;q=0.9,en;q=0.5' };
const ENGLISH = { 'accept-language': 'en-US,en;q=0.9' };

/**
 * Every e-mail the server sends, in English and in Spanish (ADR 060), through the routes and a real
 * SMTP server in this process: the member's stored language, else the asking request's.
 */
describe('e-mail in the member’s language', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
  let kit: ReturnType<typeof barterKit>;
  let serial = 0;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await buildTestApp({
      SMTP_URL: smtp.url,
      LOGIN_RATE_LIMIT: '1000',
      REGISTER_RATE_LIMIT: '1000',
      PASSWORD_RESET_RATE_LIMIT: '1000',
      BARTER_PROPOSAL_RATE_LIMIT: '100000',
      MESSAGE_RATE_LIMIT: '100000',
      PUBLIC_URL: 'http://barter.example',
    });
    kit = barterKit(t);
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
  async function register(headers: Record<string, string>, firstName = 'Lucía') {
    serial++;
    const email = `lang${serial}@example.com`;
    const response = await call({
      method: 'POST',
      url: '/api/auth/register',
      payload: { firstName, email, password: PASSWORD },
      headers,
    });
    expect(response.statusCode).toBe(201);
    return { email, id: response.json().id as string, cookies: cookiesOf(response) };
  }
  const localeOf = async (id: string) =>
    (await t.app.db.select({ locale: users.locale }).from(users).where(eq(users.id, id)))[0]?.locale;
  /** The account mail sent less than a minute ago would hold the next one back: backdate it. */
  const later = (id: string) =>
    t.app.db
      .update(accountTokens)
      .set({ createdAt: new Date(Date.now() - 120_000) })
      .where(eq(accountTokens.userId, id));

  it('registering in Spanish keeps Spanish and confirms the address in Spanish; in English, English', async () => {
    const ana = await register(SPANISH, 'Ana');
    expect(await localeOf(ana.id)).toBe('es');
    const welcome = await smtp.waitFor(ana.email);
    expect(welcome.subject).toBe('Confirma tu correo electrónico de Barterhood');
    expect(welcome.text).toMatch(/^Hola, Ana:\n/);
    expect(welcome.text).toContain('¡Te damos la bienvenida a Barterhood!');
    expect(welcome.text).toContain('¡Felices trueques!');
    expect(welcome.links[0]).toMatch(/^http:\/\/barter\.example\/verify-email\?token=/);

    const bob = await register(ENGLISH, 'Bob');
    expect(await localeOf(bob.id)).toBe('en');
    const english = await smtp.waitFor(bob.email);
    expect(english.subject).toBe('Confirm your Barterhood email address');
    expect(english.text).toMatch(/^Hi Bob,\n/);
    expect(english.text).toContain('Happy trading,');
  });

  it('a password reset goes in the member’s language, whatever language asks for it', async () => {
    const ana = await register(SPANISH, 'Ana');
    await later(ana.id);
    // Asked from an English browser: Ana reads Spanish.
    await call({
      method: 'POST',
      url: '/api/auth/password-reset',
      payload: { email: ana.email },
      headers: ENGLISH,
    });
    const reset = await smtp.waitFor(ana.email, (m) =>
      m.links.some((link) => link.includes('reset-password')),
    );
    expect(reset.subject).toBe('Elige una nueva contraseña de Barterhood');
    expect(reset.text).toContain('Sigue este enlace en los próximos 30 minutos para elegirla.');
    expect(reset.text).toContain('Si no lo pediste, ignora este correo');
    expect(reset.text.replace(/https?:\/\/\S+/g, '')).not.toMatch(/password|Follow this link|Hi /);

    const bob = await register(ENGLISH, 'Bob');
    await later(bob.id);
    await call({
      method: 'POST',
      url: '/api/auth/password-reset',
      payload: { email: bob.email },
      headers: SPANISH,
    });
    const english = await smtp.waitFor(bob.email, (m) =>
      m.links.some((link) => link.includes('reset-password')),
    );
    expect(english.subject).toBe('Set a new Barterhood password');
    expect(english.text).toContain('Follow this link within 30 minutes to choose one.');
  });

  it('mail the member asks for while signed in follows the language of the page they ask from', async () => {
    const ana = await register(SPANISH, 'Ana');
    await smtp.waitFor(ana.email);
    await later(ana.id);
    // Ana switched the app to English (the language menu's cookie) and asks for the link again.
    const resent = await call({
      method: 'POST',
      url: '/api/account/verify-email/resend',
      cookies: { ...ana.cookies, barterhood_locale: 'en' },
      headers: SPANISH,
    });
    expect(resent.statusCode).toBe(202);
    const english = await smtp.waitFor(
      ana.email,
      (m) => m.subject === 'Confirm your Barterhood email address',
    );
    expect(english.text).toMatch(/^Hi Ana,\n/);
  });

  it('a member whose language is not known yet is written to in the asking request’s language', async () => {
    const member = await register(ENGLISH, 'Cleo');
    await t.app.db.update(users).set({ locale: null }).where(eq(users.id, member.id));
    await later(member.id);
    await call({
      method: 'POST',
      url: '/api/auth/password-reset',
      payload: { email: member.email },
      cookies: { barterhood_locale: 'es' },
      headers: ENGLISH,
    });
    const reset = await smtp.waitFor(member.email, (m) =>
      m.links.some((link) => link.includes('reset-password')),
    );
    expect(reset.subject).toBe('Elige una nueva contraseña de Barterhood');
  });

  it('changing the address: the confirmation and the notice to the old address, in each language', async () => {
    for (const [headers, expected] of [
      [
        SPANISH,
        {
          confirm: 'Confirma tu nuevo correo electrónico de Barterhood',
          notice: 'Se cambió tu correo electrónico de Barterhood',
          support: /Si no fuiste tú, escribe de inmediato a support@barterhood\.example\./,
        },
      ],
      [
        ENGLISH,
        {
          confirm: 'Confirm your new Barterhood email address',
          notice: 'Your Barterhood email address was changed',
          support: /If you didn't do this, write to support@barterhood\.example straight away\./,
        },
      ],
    ] as const) {
      const member = await register(headers, 'Dana');
      await later(member.id);
      const newAddress = `moved${serial}@example.org`;
      const asked = await call({
        method: 'PUT',
        url: '/api/account/email',
        cookies: member.cookies,
        payload: { email: newAddress, password: PASSWORD },
        headers,
      });
      expect(asked.statusCode).toBe(202);
      const confirm = await smtp.waitFor(newAddress);
      expect(confirm.subject).toBe(expected.confirm);
      await call({
        method: 'POST',
        url: '/api/auth/verify-email',
        payload: { token: new URL(confirm.links[0] ?? 'http://x').searchParams.get('token') },
      });
      const notice = await smtp.waitFor(member.email, (m) => m.subject === expected.notice);
      expect(notice.text).toMatch(expected.support);
    }
  });

  describe('the digest', () => {
    async function away(name: string, locale: 'en' | 'es' | null): Promise<Member & { email: string }> {
      const member = await kit.member(name);
      serial++;
      const email = `${name.toLowerCase()}${serial}@example.com`;
      await t.app.db
        .update(users)
        .set({ email, emailVerifiedAt: new Date(), mailedUntil: null, lastSeenAt: null, locale })
        .where(eq(users.id, member.id));
      return { ...member, email };
    }
    async function timePasses(member: Member, minutes: number) {
      const back = sql`make_interval(mins => ${minutes})`;
      await t.app.db.execute(
        sql`UPDATE users SET last_seen_at = last_seen_at - ${back}, mailed_until = mailed_until - ${back} WHERE id = ${member.id}::uuid`,
      );
      await t.app.db.execute(
        sql`UPDATE notifications SET created_at = created_at - ${back} WHERE user_id = ${member.id}::uuid`,
      );
    }

    it('lists what a Spanish-speaking member missed in Spanish, and an English one’s in English', async () => {
      const mia = await away('Mia', 'es');
      const ned = await away('Ned', null);
      const pat = await away('Pat', 'en');
      for (const member of [mia, ned]) {
        // The page they had open was Spanish for Mia (kept by the event stream), English for Ned.
        await markSeen(t.app.db, [member.id], member === mia ? 'es' : 'en');
        const { barter } = await kit.pending(pat, member);
        for (const content of ['¿Sigue disponible?', '¿Hola?']) {
          kit.ok(await kit.call(pat, 'POST', `/api/barter-requests/${barter.id}/messages`, { content }), 201);
        }
        await timePasses(member, 11);
      }
      expect(await sendMailDigests(t.app)).toBeGreaterThanOrEqual(2);
      const spanish = await smtp.waitFor(mia.email);
      expect(spanish.subject).toBe('Hay 2 novedades en Barterhood');
      expect(spanish.text).toMatch(/^Hola, Mia:\n\nMientras no estabas:\n/);
      expect(spanish.text).toContain('- Pat T. te propuso un trueque: http://barter.example/barters/');
      expect(spanish.text).toContain('- 2 mensajes nuevos de Pat T.:');
      expect(spanish.text).toContain('Abrir Barterhood: http://barter.example/barters');
      expect(spanish.text).toMatch(
        /Dejar de recibir correos sobre mensajes nuevos: http:\/\/barter\.example\/unsubscribe\?/,
      );
      expect(spanish.text).toMatch(
        /Dejar de recibir correos sobre propuestas nuevas, recordatorios de entrega y avisos de ausencia: http:\/\/barter\.example\/unsubscribe\?/,
      );

      const english = await smtp.waitFor(ned.email);
      expect(english.subject).toBe('2 new things on Barterhood');
      expect(english.text).toMatch(/^Hi Ned,\n\nWhile you were away:\n/);
      expect(english.text).toContain('- Pat T. proposed a barter:');
      expect(english.text).toContain('- 2 new messages from Pat T.:');
      expect(english.text).toContain('Stop emails about new messages: http://barter.example/unsubscribe?');
    });
  });

  it('every sentence of the e-mail has its Spanish in the catalogue', () => {
    const spanish = mailI18n('es');
    const english = mailI18n('en');
    for (const message of Object.values(MAIL_TEXT)) {
      expect(spanish.messages[message.id], message.id).toBeDefined();
      expect(english.messages[message.id], message.id).toBeDefined();
      const values = { name: 'Ana', count: 2, link: 'http://x', supportEmail: 's@x' };
      expect(spanish._(message.id, values)).not.toBe(english._(message.id, values));
    }
  });

  it('a request’s language: the chosen one (cookie), else the browser’s, else English', () => {
    expect(requestLanguage({ cookies: { barterhood_locale: 'es' }, headers: ENGLISH })).toBe('es');
    expect(requestLanguage({ cookies: {}, headers: { 'accept-language': 'fr-FR,es;q=0.8' } })).toBe('es');
    expect(requestLanguage({ cookies: {}, headers: {} })).toBe('en');
  });
});
