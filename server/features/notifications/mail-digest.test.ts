import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/users';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { startTestSmtp } from '../../test/smtp';
import { barterKit, type Member } from '../barters/barter-test-kit';
import { markSeen, sendMailDigests } from './mail-digest';

/** E-mail about what a member missed (ADR 026), delivered to a real SMTP server in this process. */
describe('notification digests by e-mail', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
  let kit: ReturnType<typeof barterKit>;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await buildTestApp({
      SMTP_URL: smtp.url,
      PUBLIC_URL: 'http://barter.example',
      BARTER_PROPOSAL_RATE_LIMIT: '100000',
      MESSAGE_RATE_LIMIT: '100000',
    });
    kit = barterKit(t);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  let serial = 0;
  /** A member with a verified address, away since long ago (or never seen). */
  async function verified(name: string): Promise<Member & { email: string }> {
    const member = await kit.member(name);
    serial++;
    const email = `${name.toLowerCase()}${serial}@example.com`;
    await t.app.db
      .update(users)
      .set({ email, emailVerifiedAt: new Date(), mailedUntil: null, lastSeenAt: null })
      .where(eq(users.id, member.id));
    return { ...member, email };
  }
  /** `minutes` pass for the member: their presence, last digest and notifications move back. */
  async function timePasses(member: Member, minutes: number) {
    const back = sql`make_interval(mins => ${minutes})`;
    await t.app.db.execute(
      sql`UPDATE users SET last_seen_at = last_seen_at - ${back}, mailed_until = mailed_until - ${back} WHERE id = ${member.id}::uuid`,
    );
    await t.app.db.execute(
      sql`UPDATE notifications SET created_at = created_at - ${back} WHERE user_id = ${member.id}::uuid`,
    );
  }

  it('mails what an away member missed, once, with one-click unsubscribe per kind', async () => {
    const mia = await verified('Mia');
    const pat = await verified('Pat');
    // Mia had a page open; once she left, Pat proposed and wrote.
    await markSeen(t.app.db, [mia.id]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const { barter } = await kit.pending(pat, mia);
    kit.ok(
      await kit.call(pat, 'POST', `/api/barter-requests/${barter.id}/messages`, {
        content: 'Is it still there?',
      }),
      201,
    );

    // Not yet: Mia was online a minute ago.
    expect(await sendMailDigests(t.app)).toBe(0);
    // Ten minutes away: one mail with both, and the links.
    await timePasses(mia, 11);
    const sentNow = await sendMailDigests(t.app);
    expect(sentNow).toBeGreaterThanOrEqual(1);
    const mail = await smtp.waitFor(mia.email);
    expect(mail.subject).toBe('2 new things on Barterhood');
    expect(mail.text).toContain('Pat T. proposed a barter');
    expect(mail.text).toContain('New message from Pat T.');
    expect(mail.text).toContain(`http://barter.example/barters/${barter.id}`);
    const unsubscribeMessages = mail.links.find((link) => link.includes('k=messages')) ?? '';
    expect(unsubscribeMessages).toMatch(
      /^http:\/\/barter\.example\/unsubscribe\?u=[0-9a-f-]{36}&k=messages&t=[A-Za-z0-9_-]{43}$/,
    );
    // Not again within the hour, even with something new.
    kit.ok(
      await kit.call(pat, 'POST', `/api/barter-requests/${barter.id}/messages`, { content: 'Hello?' }),
      201,
    );
    await timePasses(mia, 20);
    expect(await sendMailDigests(t.app)).toBe(0);

    // One click (the mail app's POST) turns messages off; a forged token turns nothing off.
    const query = new URL(unsubscribeMessages).search;
    const forged = await t.app.inject({
      method: 'POST',
      url: `/api/mail/unsubscribe${query.replace(/t=[^&]+/, `t=${'A'.repeat(43)}`)}`,
    });
    expect(forged.statusCode).toBe(400);
    const other = await t.app.inject({
      method: 'POST',
      url: `/api/mail/unsubscribe${query.replace('k=messages', 'k=proposals')}`,
    });
    expect(other.statusCode).toBe(400);
    const done = await t.app.inject({ method: 'POST', url: `/api/mail/unsubscribe${query}` });
    expect(done.statusCode).toBe(200);
    // Messages now reach her nowhere outside the app; proposals are still mailed (ADR 090).
    expect(kit.ok(await kit.call(mia, 'GET', '/api/account/notification-channels'))).toMatchObject({
      messages: 'none',
      proposals: 'digest',
    });

    // The next digest, an hour on, has the proposal side only.
    await kit.pending(pat, mia);
    await timePasses(mia, 61);
    await sendMailDigests(t.app);
    const next = await smtp.waitFor(mia.email, (m) => m !== mail);
    expect(next.text).toContain('proposed a barter');
    expect(next.text).not.toContain('New message');
  });

  it('never mails an unverified address or a member who turned both off; two sweeps at once mail once', async () => {
    const una = await kit.member('Una'); // no verified address
    const ned = await verified('Ned');
    const ola = await verified('Ola');
    kit.ok(
      await kit.call(ned, 'PUT', '/api/account/notification-channels', {
        proposals: 'none',
        messages: 'push',
      }),
    );
    const sender = await verified('Sam');
    await kit.pending(sender, una);
    await kit.pending(sender, ned);
    await kit.pending(sender, ola);
    const before = smtp.received.length;
    await Promise.all([sendMailDigests(t.app), sendMailDigests(t.app)]);
    // Each run waits until the mail server accepted what it sent: every digest is in by now.
    expect(smtp.to(ola.email)).toHaveLength(1);
    expect(smtp.to(ned.email)).toHaveLength(0);
    expect(smtp.received.slice(before).some((m) => m.to.some((to) => to.startsWith('una')))).toBe(false);
  });
});
