import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { items } from '../../db/schema/trading';
import { users } from '../../db/schema/users';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { hashPassword } from '../auth';
import { barterKit, type Member } from '../barters/barter-test-kit';

const PASSWORD = 'thistle harbor 17';

/** Download my data, and delete my account (ADR 025), through the routes. */
describe('the member’s own data', () => {
  let t: TestApp;
  let kit: ReturnType<typeof barterKit>;

  beforeAll(async () => {
    t = await buildTestApp({ BARTER_PROPOSAL_RATE_LIMIT: '100000', MESSAGE_RATE_LIMIT: '100000' });
    kit = barterKit(t);
  });
  afterAll(() => t.close());

  const own = (who: Member, method: 'GET' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, cookies: who.cookies, ...(payload ? { payload } : {}) });

  async function withPassword(member: Member) {
    const email = `${member.user.firstName?.toLowerCase()}-${member.id.slice(0, 8)}@example.com`;
    await t.app.db
      .update(users)
      .set({ email, passwordHash: await hashPassword(PASSWORD) })
      .where(eq(users.id, member.id));
    return email;
  }

  /** A completed trade between `a` and `b`, with a message from each. */
  async function completedTrade(a: Member, b: Member) {
    const { barter, offered, requested } = await kit.pending(a, b);
    kit.ok(await kit.act(b, barter.id, 'accept'));
    kit.ok(
      await kit.call(a, 'POST', `/api/barter-requests/${barter.id}/messages`, { content: 'See you at noon' }),
      201,
    );
    kit.ok(
      await kit.call(b, 'POST', `/api/barter-requests/${barter.id}/messages`, { content: 'Noon works' }),
      201,
    );
    kit.ok(await kit.act(a, barter.id, 'confirm'));
    kit.ok(await kit.act(b, barter.id, 'confirm'));
    return { barter, offered, requested };
  }

  it('downloads everything the member made, their barters and messages, as one JSON file', async () => {
    const ann = await kit.member('Ann');
    const ben = await kit.member('Ben');
    const email = await withPassword(ann);
    const { barter } = await completedTrade(ann, ben);
    kit.ok(await kit.call(ann, 'POST', '/api/wants', { title: 'Tent', category: 'rvs+camp' }), 201);
    const response = await own(ann, 'GET', '/api/account/export');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="barterhood-data-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const data = response.json();
    expect(data.account).toMatchObject({ id: ann.id, email });
    expect(data.items.length).toBeGreaterThanOrEqual(1);
    expect(data.wants.map((w: { title: string }) => w.title)).toContain('Tent');
    expect(data.barters.find((b: { id: number }) => b.id === barter.id)).toMatchObject({
      status: 'completed',
      role: 'proposer',
      otherMemberId: ben.id,
    });
    expect(data.messages.map((m: { content: string; fromMe: boolean }) => [m.content, m.fromMe])).toEqual([
      ['See you at noon', true],
      ['Noon works', false],
    ]);
    // Other members by id only: none of Ben's names or e-mail.
    expect(response.body).not.toContain(ben.user.lastName ?? 'never');
    expect(response.body).not.toContain('password');
  });

  it('exports the member’s own hand-over codes and their plans, never the other member’s code (ADR 078)', async () => {
    const ann = await kit.member('Ann');
    const ben = await kit.member('Ben');
    const { barter } = await kit.pending(ann, ben);
    kit.ok(await kit.act(ben, barter.id, 'accept'));
    const codeOf = async (who: Member) =>
      kit.ok<{ code: string }>(await kit.call(who, 'GET', `/api/barter-requests/${barter.id}/hand-over-code`))
        .code;
    const annCode = await codeOf(ann);
    const benCode = await codeOf(ben);
    // Ann types her own code once (refused, not counted); a wrong one is counted.
    const wrong = annCode === 'ABCDEF' || benCode === 'ABCDEF' ? 'ABCDEG' : 'ABCDEF';
    kit.refused(
      await kit.call(ann, 'POST', `/api/barter-requests/${barter.id}/hand-over-code`, { code: wrong }),
      400,
      'HAND_OVER_CODE_WRONG',
    );
    const startsAt = new Date(Math.ceil((Date.now() + 30 * 3_600_000) / 60_000) * 60_000);
    const endsAt = new Date(startsAt.getTime() + 3_600_000);
    const plan = kit.ok<{ version: number }>(
      await kit.call(ben, 'PUT', `/api/barter-requests/${barter.id}/hand-over-plan`, {
        startsAt: startsAt.toISOString(),
        endsAt: endsAt.toISOString(),
        place: 'Central Library',
        replaces: null,
      }),
    );
    kit.ok(
      await kit.call(ann, 'POST', `/api/barter-requests/${barter.id}/hand-over-plan/accept`, {
        version: plan.version,
      }),
    );

    const response = await own(ann, 'GET', '/api/account/export');
    expect(response.statusCode).toBe(200);
    const data = response.json();
    expect(data.handOverCodes).toEqual([
      expect.objectContaining({
        barterRequestId: barter.id,
        code: annCode,
        usedAt: null,
        wrongCodesEntered: 1,
      }),
    ]);
    expect(data.handOverPlans).toEqual([
      expect.objectContaining({
        barterRequestId: barter.id,
        version: 1,
        proposedBy: 'other',
        startsAt: startsAt.toISOString(),
        endsAt: endsAt.toISOString(),
        place: 'Central Library',
        agreedAt: expect.any(String),
        runningLate: null,
        remindedDayAt: null,
        remindedHourAt: null,
      }),
    ]);
    // Ben's code is his alone: nowhere in Ann's file.
    expect(response.body).not.toContain(benCode);
    // And Ben's export has his code, not Ann's.
    const his = await own(ben, 'GET', '/api/account/export');
    expect(his.json().handOverCodes).toEqual([
      expect.objectContaining({ code: benCode, wrongCodesEntered: 0 }),
    ]);
    expect(his.body).not.toContain(annCode);
    expect(his.json().handOverPlans[0]).toMatchObject({ proposedBy: 'me' });
  });

  it('deletes the account: unfinished barters go, completed trades and messages stay for the other side as "Former member"', async () => {
    const ada = await kit.member('Ada');
    const bob = await kit.member('Bob');
    const cat = await kit.member('Cat');
    const dan = await kit.member('Dan');
    const email = await withPassword(ada);
    const trade = await completedTrade(ada, bob);
    const pendingWithCat = await kit.pending(ada, cat);
    const acceptedWithDan = await kit.pending(dan, ada);
    kit.ok(await kit.act(ada, acceptedWithDan.barter.id, 'accept'));
    // Dan's item is reserved by the accepted barter.
    const [reserved] = await t.app.db.select().from(items).where(eq(items.id, acceptedWithDan.offered.id));
    expect(reserved?.reservedByRequestId).toBe(acceptedWithDan.barter.id);

    const wrong = await own(ada, 'DELETE', '/api/account', { password: 'not it' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'CURRENT_PASSWORD_WRONG' });
    expect((await own(ada, 'DELETE', '/api/account', {})).statusCode).toBe(400);
    const done = await own(ada, 'DELETE', '/api/account', { password: PASSWORD });
    expect(done.statusCode).toBe(204);

    // Her session stops at once; signing in finds no account.
    expect((await own(ada, 'GET', '/api/auth/user')).statusCode).toBe(401);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: PASSWORD },
    });
    expect(login.json()).toMatchObject({ code: 'USER_NOT_FOUND' });
    expect(await t.app.db.select().from(items).where(eq(items.userId, ada.id))).toEqual([]);

    // Bob's history keeps the trade, with a former member on the other side.
    // (Straight to the route: Bob's own side of his history carries his own e-mail, by design.)
    const history = kit.ok<Array<{ id: number; fromUserId: string | null; fromUser: unknown }>>(
      await own(bob, 'GET', `/api/users/${bob.id}/trades`),
    );
    expect(history.find((row) => row.id === trade.barter.id)).toMatchObject({
      fromUserId: null,
      fromUser: null,
    });
    const barter = kit.ok<{ otherMember: { id: string | null; displayName: string } }>(
      await kit.get(bob, trade.barter.id),
    );
    expect(barter.otherMember).toEqual({ id: null, displayName: 'Former member', profileImageUrl: null });
    // Her messages stay in Bob's conversation, without her name.
    const thread = kit.ok<Array<{ content: string; fromUserId: string | null; fromMe: boolean }>>(
      await kit.call(bob, 'GET', `/api/barter-requests/${trade.barter.id}/messages`),
    );
    expect(thread.map((m) => [m.content, m.fromUserId, m.fromMe])).toEqual([
      ['See you at noon', null, false],
      ['Noon works', bob.id, true],
    ]);
    // Unfinished barters are closed, and Dan's item is free again.
    expect(kit.ok<{ status: string }>(await kit.get(cat, pendingWithCat.barter.id)).status).toBe('withdrawn');
    expect(kit.ok<{ status: string }>(await kit.get(dan, acceptedWithDan.barter.id)).status).toBe(
      'cancelled',
    );
    const [released] = await t.app.db.select().from(items).where(eq(items.id, acceptedWithDan.offered.id));
    expect(released?.reservedByRequestId).toBeNull();
  });
});
