import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CurrentUser } from '#common/schemas/auth.ts';
import type { FeedItem } from '#common/schemas/feed.ts';
import type { ModerationCase } from '#common/schemas/safety.ts';
import { ratings } from '../../db/schema/trading';
import { users } from '../../db/schema/users';
import { createRating } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { hashPassword } from '../auth';
import { barterKit, type Member } from '../barters/barter-test-kit';
import { liftEndedSuspensions, setModerator } from './moderation-service';

/** Reports, blocks and moderation through the routes (ADR 025). */
describe('trust and safety', () => {
  let t: TestApp;
  let kit: ReturnType<typeof barterKit>;

  beforeAll(async () => {
    t = await buildTestApp({ BARTER_PROPOSAL_RATE_LIMIT: '100000', MESSAGE_RATE_LIMIT: '100000' });
    kit = barterKit(t);
  });
  afterAll(() => t.close());

  /** The member's own account (it holds their e-mail, which kit.call rightly refuses to see). */
  const ownAccount = (who: Member) =>
    t.app.inject({ method: 'GET', url: '/api/auth/user', cookies: who.cookies });
  const noContent = (response: { statusCode: number; body: string }) =>
    expect(response.statusCode, response.body).toBe(204);
  const feedIds = async (who: Member, path = '/api/feed/everything?radius=50&limit=50') =>
    kit.ok<FeedItem[]>(await kit.call(who, 'GET', path)).map((item) => item.id);
  const moderatorOf = async (name: string) => {
    const member = await kit.member(name);
    const email = `${name.toLowerCase()}-${member.id.slice(0, 8)}@example.com`;
    await t.app.db.update(users).set({ email }).where(eq(users.id, member.id));
    await setModerator(t.app.db, email, true);
    return member;
  };

  describe('blocks', () => {
    it("hide each other's listings, pages and items, refuse proposals and messages, and withdraw pending ones", async () => {
      const bea = await kit.member('Bea');
      const cal = await kit.member('Cal');
      const calsDrill = await kit.item(cal, { title: 'Cal drill', category: 'tools' });
      const beasSaw = await kit.item(bea, { title: 'Bea saw', category: 'tools' });
      const pending = kit.ok(await kit.propose(cal, [(await kit.item(cal)).id], [beasSaw.id]), 201);
      // An accepted barter between them, before the block, with a conversation.
      const accepted = await kit.pending(bea, cal);
      kit.ok(await kit.act(cal, accepted.barter.id, 'accept'));

      expect(await feedIds(bea)).toContain(calsDrill.id);
      expect((await kit.call(bea, 'POST', `/api/saved-items/${calsDrill.id}`)).statusCode).toBeLessThan(300);
      const saved = async () =>
        kit.ok<Array<{ id: number }>>(await kit.call(bea, 'GET', '/api/saved-items')).map((item) => item.id);
      expect(await saved()).toContain(calsDrill.id);
      expect((await kit.call(bea, 'POST', `/api/members/${cal.id}/block`)).statusCode).toBe(204);
      expect(await saved()).not.toContain(calsDrill.id);
      // Twice is fine.
      expect((await kit.call(bea, 'POST', `/api/members/${cal.id}/block`)).statusCode).toBe(204);

      for (const [viewer, other, item] of [
        [bea, cal, calsDrill.id],
        [cal, bea, beasSaw.id],
      ] as const) {
        expect(await feedIds(viewer)).not.toContain(item);
        expect(
          await feedIds(viewer, `/api/feed/everything?q=${viewer === bea ? 'drill' : 'saw'}&radius=50`),
        ).not.toContain(item);
        expect(await feedIds(viewer, '/api/feed/everything?sort=distance&radius=50&limit=50')).not.toContain(
          item,
        );
        expect(await feedIds(viewer, '/api/feed/random-barter?radius=50&limit=50')).not.toContain(item);
        expect((await kit.call(viewer, 'GET', `/api/items/${item}`)).statusCode).toBe(404);
        // The blocker is told they blocked them (issue 28); the blocked member learns nothing new.
        for (const path of ['', '/items']) {
          const page = await kit.call(viewer, 'GET', `/api/members/${other.id}${path}`);
          if (viewer === bea) kit.refused(page, 403, 'MEMBER_BLOCKED_BY_YOU');
          else kit.refused(page, 404, 'NOT_FOUND');
        }
      }
      kit.refused(await kit.propose(bea, [beasSaw.id], [calsDrill.id]), 403, 'MEMBER_BLOCKED');
      kit.refused(await kit.propose(cal, [calsDrill.id], [beasSaw.id]), 403, 'MEMBER_BLOCKED');
      kit.refused(
        await kit.call(cal, 'POST', `/api/barter-requests/${accepted.barter.id}/messages`, {
          content: 'Hello?',
        }),
        403,
        'MEMBER_BLOCKED',
      );
      expect(kit.ok(await kit.get(bea, pending.id)).status).toBe('withdrawn');

      const blocked = kit.ok<Array<{ id: string; name: string }>>(
        await kit.call(bea, 'GET', '/api/account/blocks'),
      );
      expect(blocked).toEqual([{ id: cal.id, name: 'Cal T.', blockedAt: expect.any(String) }]);
      expect((await kit.call(bea, 'DELETE', `/api/members/${cal.id}/block`)).statusCode).toBe(204);
      expect(await feedIds(bea)).toContain(calsDrill.id);
      expect((await kit.call(cal, 'GET', `/api/members/${bea.id}`)).statusCode).toBe(200);
    });

    it('refuses blocking yourself or nobody', async () => {
      const dee = await kit.member('Dee');
      expect((await kit.call(dee, 'POST', `/api/members/${dee.id}/block`)).statusCode).toBe(400);
      expect(
        (await kit.call(dee, 'POST', '/api/members/00000000-0000-4000-8000-000000000000/block')).statusCode,
      ).toBe(404);
      expect((await kit.call(dee, 'POST', '/api/members/..%2F..%2Fetc/block')).statusCode).toBe(404);
    });
  });

  describe('reports', () => {
    it('one open report per reporter and target; not your own; only what you can see', async () => {
      const ann = await kit.member('Ann');
      const ben = await kit.member('Ben');
      const eve = await kit.member('Eve');
      const item = await kit.item(ben, { title: 'Suspicious lamp' });
      const report = (who: Member, body: object) => kit.call(who, 'POST', '/api/reports', body);
      kit.ok(
        await report(ann, {
          targetKind: 'item',
          targetId: String(item.id),
          reason: 'scam',
          note: 'Asks for cash.',
        }),
        201,
      );
      kit.refused(
        await report(ann, { targetKind: 'item', targetId: String(item.id), reason: 'other' }),
        409,
        'REPORT_EXISTS',
      );
      kit.ok(await report(eve, { targetKind: 'item', targetId: String(item.id), reason: 'explicit' }), 201);
      expect(
        (await report(ben, { targetKind: 'item', targetId: String(item.id), reason: 'scam' })).statusCode,
      ).toBe(400);
      expect(
        (await report(ann, { targetKind: 'member', targetId: ben.id, reason: 'dating' })).statusCode,
      ).toBe(201);
      for (const body of [
        { targetKind: 'item', targetId: '999999', reason: 'scam' },
        { targetKind: 'item', targetId: '1 OR 1=1', reason: 'scam' },
        { targetKind: 'member', targetId: 'not-a-uuid', reason: 'scam' },
      ]) {
        expect((await report(ann, body)).statusCode, JSON.stringify(body)).toBe(404);
      }
      for (const body of [
        { targetKind: 'item', targetId: String(item.id), reason: 'boring' },
        { targetKind: 'barter', targetId: '1', reason: 'scam' },
        { targetKind: 'item', targetId: String(item.id), reason: 'scam', note: 'x'.repeat(501) },
        { targetKind: 'item', targetId: String(item.id), reason: 'scam', extra: true },
      ]) {
        expect((await report(eve, body)).statusCode, JSON.stringify(body)).toBe(400);
      }
      // A message only the two members of its conversation may report.
      const { barter } = await kit.pending(ann, ben);
      const message = kit.ok<{ id: number }>(
        await kit.call(ann, 'POST', `/api/barter-requests/${barter.id}/messages`, {
          content: 'Meet at the park?',
        }),
        201,
      );
      expect(
        (await report(eve, { targetKind: 'message', targetId: String(message.id), reason: 'scam' }))
          .statusCode,
      ).toBe(404);
      expect(
        (await report(ben, { targetKind: 'message', targetId: String(message.id), reason: 'scam' }))
          .statusCode,
      ).toBe(201);
    });
  });

  describe('automatic refusals', () => {
    it('are recorded with who and why, and listed to moderators only', async () => {
      const mod = await moderatorOf('Rae');
      const zed = await kit.member('Zed');
      const refused = await kit.call(zed, 'POST', '/api/items', {
        title: 'Bike for sale',
        description: 'Call me on 503-555-0199 to buy',
        category: 'bikes',
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'CONTENT_NOT_ALLOWED' });
      const list = kit.ok<Array<{ kind: string; reason: string; excerpt: string; memberId: string }>>(
        await kit.call(mod, 'GET', '/api/moderation/refusals'),
      );
      expect(list.find((row) => row.memberId === zed.id)).toMatchObject({
        kind: 'item',
        reason: 'contact-details',
        excerpt: expect.stringContaining('Bike for sale'),
      });
      kit.refused(await kit.call(zed, 'GET', '/api/moderation/refusals'), 403, 'NOT_MODERATOR');
    });
  });

  describe('moderators', () => {
    it('only moderators reach the moderation screen', async () => {
      const member = await kit.member('Max');
      for (const [method, url] of [
        ['GET', '/api/moderation/reports'],
        ['GET', '/api/moderation/audit'],
        ['POST', '/api/moderation/reports/1/resolve'],
      ] as const) {
        kit.refused(
          await kit.call(
            member,
            method,
            url,
            method === 'POST' ? { action: 'dismiss', reason: 'x' } : undefined,
          ),
          403,
          'NOT_MODERATOR',
        );
      }
      expect((await kit.call(null, 'GET', '/api/moderation/reports')).statusCode).toBe(401);
    });

    it('remove and suspend: gone from feeds at once; the member may only read their account and appeal; all in the audit log', async () => {
      const mod = await moderatorOf('Mia');
      const ava = await kit.member('Ava');
      const bob = await kit.member('Bob');
      const bad = await kit.item(ava, { title: 'Questionable bottle', category: 'tools' });
      const other = await kit.item(ava, { title: 'Garden rake', category: 'tools' });
      kit.ok(
        await kit.call(bob, 'POST', '/api/reports', {
          targetKind: 'item',
          targetId: String(bad.id),
          reason: 'drugs-alcohol',
        }),
        201,
      );

      const cases = kit.ok<ModerationCase[]>(await kit.call(mod, 'GET', '/api/moderation/reports'));
      const found = cases.find((c) => c.targetKind === 'item' && c.targetId === String(bad.id));
      expect(found).toMatchObject({
        title: 'Questionable bottle',
        owner: { id: ava.id, banned: false, suspendedUntil: null },
        reports: [{ reason: 'drugs-alcohol', reporterName: 'Bob T.' }],
      });
      const resolve = (action: string, extra: object = {}) =>
        kit.call(mod, 'POST', `/api/moderation/reports/${found?.reportId}/resolve`, {
          action,
          reason: 'Sells alcohol',
          ...extra,
        });
      expect((await resolve('suspend')).statusCode).toBe(400); // how many days?
      expect((await resolve('remove')).statusCode).toBe(204);
      expect(await feedIds(bob)).not.toContain(bad.id);
      expect(await feedIds(bob)).toContain(other.id);
      // The same report cannot be acted on twice; a second one on Ava herself can.
      expect((await resolve('dismiss')).statusCode).toBe(404);
      kit.ok(
        await kit.call(bob, 'POST', '/api/reports', {
          targetKind: 'member',
          targetId: ava.id,
          reason: 'drugs-alcohol',
        }),
        201,
      );
      const memberCase = kit
        .ok<ModerationCase[]>(await kit.call(mod, 'GET', '/api/moderation/reports'))
        .find((c) => c.targetKind === 'member' && c.targetId === ava.id);
      noContent(
        await kit.call(mod, 'POST', `/api/moderation/reports/${memberCase?.reportId}/resolve`, {
          action: 'suspend',
          days: 7,
          reason: 'Repeated alcohol listings',
        }),
      );
      // Her other listings vanish at once, and her session is limited at once.
      expect(await feedIds(bob)).not.toContain(other.id);
      const me = kit.ok<CurrentUser>(await ownAccount(ava));
      expect(Date.parse(me.suspendedUntil ?? '')).toBeGreaterThan(Date.now() + 6 * 24 * 3600_000);
      kit.refused(await kit.call(ava, 'GET', '/api/feed/everything'), 403, 'ACCOUNT_SUSPENDED');
      kit.refused(
        await kit.call(ava, 'POST', '/api/items', { title: 'x', description: 'y', category: 'tools' }),
        403,
        'ACCOUNT_SUSPENDED',
      );
      kit.refused(
        await kit.call(ava, 'PATCH', `/api/items/${bad.id}`, { isActive: true }),
        403,
        'ACCOUNT_SUSPENDED',
      );
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/account/sessions', cookies: ava.cookies }))
          .statusCode,
      ).toBe(200);
      kit.ok(await kit.call(ava, 'POST', '/api/account/appeal', { text: 'It was vinegar, honestly.' }), 201);
      const appeal = kit
        .ok<ModerationCase[]>(await kit.call(mod, 'GET', '/api/moderation/reports'))
        .find((c) => c.targetKind === 'appeal' && c.targetId === ava.id);
      expect(appeal?.reports[0]?.note).toBe('It was vinegar, honestly.');
      // An appeal upheld lifts the suspension at once (her other listing shows again; the removed one
      // stays removed); then the same again, to see the days run out on their own below.
      noContent(
        await kit.call(mod, 'POST', `/api/moderation/reports/${appeal?.reportId}/resolve`, {
          action: 'lift',
          reason: 'Appeal upheld',
        }),
      );
      expect((await kit.call(ava, 'GET', '/api/feed/everything')).statusCode).toBe(200);
      expect(await feedIds(bob)).toContain(other.id);
      expect(await feedIds(bob)).not.toContain(bad.id);
      kit.ok(
        await kit.call(bob, 'POST', '/api/reports', {
          targetKind: 'member',
          targetId: ava.id,
          reason: 'other',
        }),
        201,
      );
      const again = kit
        .ok<ModerationCase[]>(await kit.call(mod, 'GET', '/api/moderation/reports'))
        .find((c) => c.targetKind === 'member' && c.targetId === ava.id);
      noContent(
        await kit.call(mod, 'POST', `/api/moderation/reports/${again?.reportId}/resolve`, {
          action: 'suspend',
          days: 7,
          reason: 'Repeated alcohol listings',
        }),
      );
      expect(await feedIds(bob)).not.toContain(other.id);

      const audit = kit.ok<
        Array<{ action: string; moderatorName: string; reason: string; days: number | null }>
      >(await kit.call(mod, 'GET', '/api/moderation/audit'));
      expect(audit.slice(0, 2)).toMatchObject([
        { action: 'suspend', days: 7, reason: 'Repeated alcohol listings' },
        { action: 'lift', reason: 'Appeal upheld' },
      ]);

      expect(audit[0]?.moderatorName).toMatch(/^Mia /);
      expect(audit).toContainEqual(expect.objectContaining({ action: 'remove', reason: 'Sells alcohol' }));
      // The days pass: the listings the suspension hid return; the removed one stays removed.
      await t.app.db
        .update(users)
        .set({ suspendedUntil: new Date(Date.now() - 1000) })
        .where(eq(users.id, ava.id));
      expect(await liftEndedSuspensions(t.app.db)).toBeGreaterThanOrEqual(1);
      expect(await feedIds(bob)).toContain(other.id);
      expect(await feedIds(bob)).not.toContain(bad.id);
      kit.refused(
        await kit.call(ava, 'PATCH', `/api/items/${bad.id}`, { isActive: true }),
        403,
        'REMOVED_BY_MODERATOR',
      );
    });

    it('appeals: only a running suspension, once per suspension; never from a warned or unsanctioned member', async () => {
      const mod = await moderatorOf('Moe');
      const reporter = await kit.member('Rex');
      const dan = await kit.member('Dan');
      const eve = await kit.member('Eve');
      // Appeals are limited to 5 an hour per member: each member here sends at most 5.
      const appeal = (who: Member, text = 'Please look again.') =>
        kit.call(who, 'POST', '/api/account/appeal', { text });
      /** Rex reports the member; the moderator acts on the case. */
      const sanction = async (who: Member, action: string, extra: object = {}) => {
        kit.ok(
          await kit.call(reporter, 'POST', '/api/reports', {
            targetKind: 'member',
            targetId: who.id,
            reason: 'other',
          }),
          201,
        );
        const found = kit
          .ok<ModerationCase[]>(await kit.call(mod, 'GET', '/api/moderation/reports'))
          .find((c) => c.targetKind === 'member' && c.targetId === who.id);
        noContent(
          await kit.call(mod, 'POST', `/api/moderation/reports/${found?.reportId}/resolve`, {
            action,
            reason: 'Checking appeals',
            ...extra,
          }),
        );
      };
      const openAppeals = async (who: Member) =>
        kit
          .ok<ModerationCase[]>(await kit.call(mod, 'GET', '/api/moderation/reports'))
          .filter((c) => c.targetKind === 'appeal' && c.targetId === who.id);
      const decide = async (who: Member) => {
        const [waiting] = await openAppeals(who);
        noContent(
          await kit.call(mod, 'POST', `/api/moderation/reports/${waiting?.reportId}/resolve`, {
            action: 'dismiss',
            reason: 'Suspension stands',
          }),
        );
      };

      // Never sanctioned, then only warned: nothing to appeal.
      kit.refused(await appeal(dan), 403, 'NOT_SUSPENDED');
      await sanction(dan, 'warn');
      kit.refused(await appeal(dan), 403, 'NOT_SUSPENDED');
      expect(await openAppeals(dan)).toEqual([]);
      // Suspended: one appeal, not a second while it waits, nor another once it was decided.
      await sanction(dan, 'suspend', { days: 3 });
      kit.ok(await appeal(dan), 201);
      kit.refused(await appeal(dan, 'And again.'), 409, 'REPORT_EXISTS');
      await decide(dan);
      kit.refused(await appeal(dan, 'Third try.'), 409, 'REPORT_EXISTS');
      expect(await openAppeals(dan)).toEqual([]);

      // A new suspension may be appealed once more; an ended one not at all.
      await sanction(eve, 'suspend', { days: 3 });
      kit.ok(await appeal(eve, 'The first one.'), 201);
      await decide(eve);
      await sanction(eve, 'suspend', { days: 5 });
      kit.ok(await appeal(eve, 'This one is new.'), 201);
      expect((await openAppeals(eve))[0]?.reports.map((r) => r.note)).toEqual(['This one is new.']);
      await decide(eve);
      await t.app.db
        .update(users)
        .set({ suspendedUntil: new Date(Date.now() - 1000) })
        .where(eq(users.id, eve.id));
      await liftEndedSuspensions(t.app.db);
      kit.refused(await appeal(eve, 'Late.'), 403, 'NOT_SUSPENDED');
    });

    it('ban: every session ends at once and signing in is refused; removed messages and ratings disappear', async () => {
      const mod = await moderatorOf('Moe');
      const cy = await kit.member('Cy');
      const dot = await kit.member('Dot');
      const { barter } = await kit.pending(cy, dot);
      const message = kit.ok<{ id: number }>(
        await kit.call(cy, 'POST', `/api/barter-requests/${barter.id}/messages`, {
          content: 'Pay me by wire first',
        }),
        201,
      );
      kit.ok(
        await kit.call(dot, 'POST', '/api/reports', {
          targetKind: 'message',
          targetId: String(message.id),
          reason: 'scam',
        }),
        201,
      );
      const rating = await createRating(t.app.db, { raterId: cy.id, rateeId: dot.id, comment: 'Rude words' });
      kit.ok(
        await kit.call(dot, 'POST', '/api/reports', {
          targetKind: 'rating',
          targetId: String(rating.id),
          reason: 'other',
        }),
        201,
      );
      const cases = kit.ok<ModerationCase[]>(await kit.call(mod, 'GET', '/api/moderation/reports'));
      const messageCase = cases.find((c) => c.targetKind === 'message' && c.targetId === String(message.id));
      expect(messageCase?.text).toBe('Pay me by wire first');
      const ratingCase = cases.find((c) => c.targetKind === 'rating' && c.targetId === String(rating.id));
      noContent(
        await kit.call(mod, 'POST', `/api/moderation/reports/${messageCase?.reportId}/resolve`, {
          action: 'remove',
          reason: 'Scam',
        }),
      );
      noContent(
        await kit.call(mod, 'POST', `/api/moderation/reports/${ratingCase?.reportId}/resolve`, {
          action: 'remove',
          reason: 'Abuse',
        }),
      );
      const thread = kit.ok<Array<{ id: number; content: string }>>(
        await kit.call(dot, 'GET', `/api/barter-requests/${barter.id}/messages`),
      );
      expect(thread.find((m) => m.id === message.id)?.content).toBe(
        'This message was removed by a moderator.',
      );
      const [stored] = await t.app.db.select().from(ratings).where(eq(ratings.id, rating.id));
      expect(stored?.removedAt).not.toBeNull();
      const received = kit.ok<Array<{ id: number }>>(
        await kit.call(cy, 'GET', `/api/members/${dot.id}/ratings`),
      );
      expect(received.map((r) => r.id)).not.toContain(rating.id);

      kit.ok(
        await kit.call(dot, 'POST', '/api/reports', {
          targetKind: 'member',
          targetId: cy.id,
          reason: 'scam',
        }),
        201,
      );
      const memberCase = kit
        .ok<ModerationCase[]>(await kit.call(mod, 'GET', '/api/moderation/reports'))
        .find((c) => c.targetKind === 'member' && c.targetId === cy.id);
      expect((await ownAccount(cy)).statusCode).toBe(200);
      noContent(
        await kit.call(mod, 'POST', `/api/moderation/reports/${memberCase?.reportId}/resolve`, {
          action: 'ban',
          reason: 'Scams',
        }),
      );
      expect((await ownAccount(cy)).statusCode).toBe(401);
      await t.app.db
        .update(users)
        .set({
          email: `cy-${cy.id.slice(0, 8)}@example.com`,
          passwordHash: await hashPassword('cy password 1'),
        })
        .where(eq(users.id, cy.id));
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: `cy-${cy.id.slice(0, 8)}@example.com`, password: 'cy password 1' },
      });
      expect(login.statusCode).toBe(403);
      expect(login.json()).toMatchObject({ code: 'ACCOUNT_BANNED' });
    });
  });
});
