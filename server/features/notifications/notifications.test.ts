import { and, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notification } from '#common/schemas/notifications.ts';
import { memberEvents, notifications } from '../../db/schema/trading';
import type { UserRow } from '../../db/schema/users';
import { users } from '../../db/schema/users';
import { createBarterRequest, createMessage, createUser, sessionCookiesFor } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { notifyMember } from './notify';

describe('notifications API', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  /** A member with a session, and a call made as them. */
  const signedIn = async (values: Partial<UserRow> = {}) => {
    const member = await createUser(t.app.db, values);
    const cookies = await sessionCookiesFor(t.app, member);
    const call = (options: InjectOptions) => t.app.inject({ cookies, ...options });
    return { member, call };
  };
  const notify = (
    userId: string,
    actorId: string | null,
    kind: Notification['kind'],
    barterRequestId: number | null,
  ) => t.app.db.transaction((tx) => notifyMember(tx, { userId, actorId, kind, barterRequestId }));
  const countsEvents = (userId: string) =>
    t.app.db
      .select({ data: memberEvents.data })
      .from(memberEvents)
      .where(and(eq(memberEvents.userId, userId), eq(memberEvents.type, 'counts')))
      .orderBy(memberEvents.id);

  it('lists the member’s notifications newest first, the actor as "Ann R." without an e-mail', async () => {
    const { member, call } = await signedIn();
    const ann = await createUser(t.app.db, {
      firstName: 'Ann',
      lastName: 'Reed',
      profileImageUrl: '/photos/a.webp',
    });
    const trade = await createBarterRequest(t.app.db, { fromUserId: ann.id, toUserId: member.id });
    await notify(member.id, ann.id, 'proposal_received', trade.id);
    await notify(member.id, null, 'proposal_expired', trade.id);
    await notify(ann.id, member.id, 'proposal_accepted', trade.id);

    const response = await call({ method: 'GET', url: '/api/notifications' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-total-count']).toBe('2');
    expect(response.headers['cache-control']).toBe('no-store');
    const list = response.json<Notification[]>();
    expect(list).toEqual([
      {
        id: expect.any(Number),
        kind: 'proposal_expired',
        barterRequestId: trade.id,
        circleId: null,
        swapDay: null,
        actor: null,
        count: 1,
        handOver: null,
        createdAt: expect.any(String),
        read: false,
      },
      {
        id: expect.any(Number),
        kind: 'proposal_received',
        barterRequestId: trade.id,
        circleId: null,
        swapDay: null,
        actor: { id: ann.id, displayName: 'Ann R.', profileImageUrl: '/photos/a.webp' },
        count: 1,
        handOver: null,
        createdAt: expect.any(String),
        read: false,
      },
    ]);
    expect((list[0] as Notification).id).toBeGreaterThan((list[1] as Notification).id);
    expect(response.body).not.toContain(ann.email);
    expect(response.body).not.toContain('@');
  });

  it('pages with limit and offset and counts them all in X-Total-Count', async () => {
    const { member, call } = await signedIn();
    for (let i = 0; i < 5; i++) await notify(member.id, null, 'proposal_expired', null);
    const first = await call({ method: 'GET', url: '/api/notifications?limit=2' });
    const third = await call({ method: 'GET', url: '/api/notifications?limit=2&offset=4' });
    expect(first.headers['x-total-count']).toBe('5');
    expect(third.headers['x-total-count']).toBe('5');
    const ids = [...first.json<Notification[]>(), ...third.json<Notification[]>()].map((n) => n.id);
    expect(ids).toHaveLength(3);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const bad = await call({ method: 'GET', url: '/api/notifications?limit=0' });
    expect(bad.statusCode).toBe(400);
  });

  it('shows no actor once the actor’s account is deleted', async () => {
    const { member, call } = await signedIn();
    const gone = await createUser(t.app.db);
    await notify(member.id, gone.id, 'rating_received', null);
    await t.app.db.delete(users).where(eq(users.id, gone.id));
    const [entry] = (await call({ method: 'GET', url: '/api/notifications' })).json<Notification[]>();
    // The actor column is set null with the account: the entry reads as from nobody in particular.
    expect(entry?.actor).toBeNull();
  });

  it('marks one read, answers the counts, and tells the member’s other pages', async () => {
    const { member, call } = await signedIn();
    await createMessage(t.app.db, { toUserId: member.id });
    await notify(member.id, null, 'proposal_expired', null);
    await notify(member.id, null, 'proposal_expired', null);
    const [newest] = (await call({ method: 'GET', url: '/api/notifications' })).json<Notification[]>();
    expect((await call({ method: 'GET', url: '/api/notifications/unread-count' })).json()).toBe(2);

    const read = await call({ method: 'POST', url: `/api/notifications/${newest?.id}/read` });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ notifications: 1, messages: 1 });
    expect(await countsEvents(member.id)).toEqual([{ data: { notifications: 1, messages: 1 } }]);
    expect((await call({ method: 'GET', url: '/api/notifications/unread-count' })).json()).toBe(1);
    const list = (await call({ method: 'GET', url: '/api/notifications' })).json<Notification[]>();
    expect(list.map((n) => n.read)).toEqual([true, false]);

    // Again: the same answer, and nothing new for the other pages.
    const again = await call({ method: 'POST', url: `/api/notifications/${newest?.id}/read` });
    expect(again.json()).toEqual({ notifications: 1, messages: 1 });
    expect(await countsEvents(member.id)).toHaveLength(1);
  });

  it('answers 404 for another member’s notification or an unknown id, and changes nothing', async () => {
    const { call } = await signedIn();
    const other = await createUser(t.app.db);
    await notify(other.id, null, 'proposal_expired', null);
    const [theirs] = await t.app.db.select().from(notifications).where(eq(notifications.userId, other.id));
    for (const id of [theirs?.id, 2_147_483_647]) {
      const response = await call({ method: 'POST', url: `/api/notifications/${id}/read` });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
    const [still] = await t.app.db.select().from(notifications).where(eq(notifications.userId, other.id));
    expect(still?.readAt).toBeNull();
    expect(await countsEvents(other.id)).toEqual([]);
    expect((await call({ method: 'POST', url: '/api/notifications/abc/read' })).statusCode).toBe(400);
  });

  it('marks all read, answers the counts, and tells the other pages once', async () => {
    const { member, call } = await signedIn();
    const other = await createUser(t.app.db);
    await notify(member.id, null, 'proposal_expired', null);
    await notify(member.id, null, 'proposal_expired', null);
    await notify(other.id, null, 'proposal_expired', null);
    const response = await call({ method: 'POST', url: '/api/notifications/read-all' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ notifications: 0, messages: 0 });
    expect(await countsEvents(member.id)).toEqual([{ data: { notifications: 0, messages: 0 } }]);
    const list = (await call({ method: 'GET', url: '/api/notifications' })).json<Notification[]>();
    expect(list.every((n) => n.read)).toBe(true);
    // Another member's stay unread.
    const [theirs] = await t.app.db.select().from(notifications).where(eq(notifications.userId, other.id));
    expect(theirs?.readAt).toBeNull();

    expect((await call({ method: 'POST', url: '/api/notifications/read-all' })).json()).toEqual({
      notifications: 0,
      messages: 0,
    });
    expect(await countsEvents(member.id)).toHaveLength(1);
  });

  it('marks read up to what the opened bell showed (upTo), not an entry that came after (issue 28)', async () => {
    const { member, call } = await signedIn();
    const other = await createUser(t.app.db);
    await notify(member.id, null, 'proposal_expired', null);
    await notify(member.id, null, 'proposal_expired', null);
    await notify(other.id, null, 'proposal_expired', null);
    const shown = (await call({ method: 'GET', url: '/api/notifications' })).json<Notification[]>();
    const newest = shown[0]?.id ?? 0;
    await notify(member.id, null, 'proposal_expired', null); // arrives after the bell opened

    const markShown = () => call({ method: 'POST', url: `/api/notifications/read-all?upTo=${newest}` });
    const response = await markShown();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ notifications: 1, messages: 0 });
    const list = (await call({ method: 'GET', url: '/api/notifications' })).json<Notification[]>();
    expect(list.map((n) => n.read)).toEqual([false, true, true]);
    // Idempotent: again, nothing changes and no other page is told.
    const events = (await countsEvents(member.id)).length;
    expect((await markShown()).json()).toEqual({ notifications: 1, messages: 0 });
    expect(await countsEvents(member.id)).toHaveLength(events);
    // Member-scoped: another member's entry with a lower id stays unread.
    const [theirs] = await t.app.db.select().from(notifications).where(eq(notifications.userId, other.id));
    expect(theirs?.readAt).toBeNull();

    for (const upTo of ['0', 'abc', '-1', '1.5']) {
      const refused = await call({ method: 'POST', url: `/api/notifications/read-all?upTo=${upTo}` });
      expect(refused.statusCode).toBe(400);
    }
  });

  it('answers 401 signed out', async () => {
    for (const [method, url] of [
      ['GET', '/api/notifications'],
      ['POST', '/api/notifications/read-all'],
      ['POST', '/api/notifications/1/read'],
    ] as const) {
      expect((await t.app.inject({ method, url })).statusCode).toBe(401);
    }
  });
});
