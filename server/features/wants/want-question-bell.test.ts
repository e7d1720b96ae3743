import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notification, UnreadCounts } from '#common/schemas/notifications.ts';
import { memberEvents, notifications } from '../../db/schema/trading';
import { createWant } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { barterKit, type Member } from '../barters/barter-test-kit';

/**
 * "Did this fill your want?" on the bell (issue 30, ADR 073, 078): a completed trade that asks a
 * member about their wants puts one entry on their bell, about that barter (whose page has the Yes
 * and No); once the barter asks them nothing more, the entry goes.
 */
describe('the open want question on the bell', () => {
  let t: TestApp;
  let kit: ReturnType<typeof barterKit>;

  beforeAll(async () => {
    t = await buildTestApp({ BARTER_PROPOSAL_RATE_LIMIT: '100000' });
    kit = barterKit(t);
  });
  afterAll(() => t.close());

  const answer = (who: Member, wantId: number, barterRequestId: number, filled: boolean) =>
    kit.call(who, 'POST', `/api/wants/${wantId}/answer`, { barterRequestId, filled });
  const bell = async (who: Member) =>
    kit.ok<Notification[]>(await kit.call(who, 'GET', '/api/notifications?limit=100'));
  const questionEntries = async (who: Member) =>
    (await bell(who)).filter((entry) => entry.kind === 'want_question');

  /** Ann gives a drill for Ben's lamp; both confirm. */
  async function completedBarter(ann: Member, ben: Member) {
    const drill = await kit.item(ann, { title: 'Cordless drill', category: 'tools' });
    const lamp = await kit.item(ben, { title: 'Brass desk lamp', category: 'household' });
    const barter = kit.ok(await kit.propose(ann, [drill.id], [lamp.id]), 201);
    kit.ok(await kit.act(ben, barter.id, 'accept'));
    kit.ok(await kit.act(ann, barter.id, 'confirm'));
    expect(kit.ok(await kit.act(ben, barter.id, 'confirm')).status).toBe('completed');
    return barter.id;
  }

  it('one entry per barter that asks, opening the barter; answering the last question removes it', async () => {
    const ann = await kit.member('Ann');
    const ben = await kit.member('Ben');
    // Ben wants two things a drill meets; Ann wants nothing a lamp meets.
    const drillWant = await createWant(t.app.db, { userId: ben.id, title: 'Drill', category: 'tools' });
    const toolsWant = await createWant(t.app.db, { userId: ben.id, title: 'Power tools', category: 'tools' });
    await createWant(t.app.db, { userId: ann.id, title: 'Guitar', category: 'music' });
    const barterId = await completedBarter(ann, ben);

    const entries = await questionEntries(ben);
    expect(entries).toEqual([
      expect.objectContaining({ kind: 'want_question', barterRequestId: barterId, actor: null, read: false }),
    ]);
    expect(await questionEntries(ann)).toEqual([]);
    // It came live too.
    const live = await t.app.db
      .select()
      .from(memberEvents)
      .where(and(eq(memberEvents.userId, ben.id), eq(memberEvents.type, 'notification')));
    expect(
      live.some((row) => (row.data as { notification: Notification }).notification.kind === 'want_question'),
    ).toBe(true);

    // One question answered, one still open: the entry stays.
    kit.ok(await answer(ben, toolsWant.id, barterId, false));
    expect(await questionEntries(ben)).toHaveLength(1);
    // The last answered: it goes, and Ben's pages hear the new unread count.
    const before = await t.app.db.select({ id: memberEvents.id }).from(memberEvents);
    const newest = Math.max(0, ...before.map((row) => row.id));
    kit.ok(await answer(ben, drillWant.id, barterId, true));
    expect(await questionEntries(ben)).toEqual([]);
    const counts = await t.app.db
      .select()
      .from(memberEvents)
      .where(and(eq(memberEvents.userId, ben.id), eq(memberEvents.type, 'counts')));
    const after = counts.filter((row) => row.id > newest).map((row) => row.data as UnreadCounts);
    expect(after).toHaveLength(1);
    // Only Ben's entries of that kind went: his barter_completed entry stays.
    const rest = await t.app.db
      .select({ kind: notifications.kind })
      .from(notifications)
      .where(and(eq(notifications.userId, ben.id), eq(notifications.barterRequestId, barterId)));
    expect(rest.map((row) => row.kind)).toContain('barter_completed');
  });

  it('a Yes that answers a want asked about in two barters clears both entries; another member’s stay', async () => {
    const ann = await kit.member('Ann');
    const ben = await kit.member('Ben');
    const cat = await kit.member('Cat');
    const want = await createWant(t.app.db, { userId: ben.id, title: 'Drill', category: 'tools' });
    await createWant(t.app.db, { userId: cat.id, title: 'Drill', category: 'tools' });
    const first = await completedBarter(ann, ben);
    const second = await completedBarter(cat, ben);
    const third = await completedBarter(ann, cat);
    expect((await questionEntries(ben)).map((entry) => entry.barterRequestId).sort()).toEqual(
      [first, second].sort(),
    );
    kit.ok(await answer(ben, want.id, second, true));
    expect(await questionEntries(ben)).toEqual([]);
    expect((await questionEntries(cat)).map((entry) => entry.barterRequestId)).toEqual([third]);
    // The same answer again is refused as before, and touches nothing.
    kit.refused(await answer(ben, want.id, first, true), 404, 'WANT_QUESTION_NOT_FOUND');
    expect((await questionEntries(cat)).map((entry) => entry.barterRequestId)).toEqual([third]);
  });
});
