import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PENDING_EXPIRY_MS } from '#common/barter-machine.ts';
import type { Barter } from '#common/schemas/barters.ts';
import { barterRequests, notifications } from '../../db/schema/trading';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { expireDueProposals } from './barter-expiry';
import { barterKit, type Member } from './barter-test-kit';

describe('expiry of pending proposals', () => {
  let t: TestApp;
  let kit: ReturnType<typeof barterKit>;
  let ann: Member;
  let ben: Member;

  beforeAll(async () => {
    t = await buildTestApp({ BARTER_PROPOSAL_RATE_LIMIT: '100000' });
    kit = barterKit(t);
    ann = await kit.member('Ann');
    ben = await kit.member('Ben');
  });
  afterAll(() => t.close());

  const setExpiry = (id: number, at: Date) =>
    kit.db().update(barterRequests).set({ expiresAt: at }).where(eq(barterRequests.id, id));
  const statusOf = async (id: number) =>
    (
      await kit
        .db()
        .select({ status: barterRequests.status })
        .from(barterRequests)
        .where(eq(barterRequests.id, id))
    )[0]?.status;
  const expiredNotices = (id: number) =>
    kit
      .db()
      .select({ userId: notifications.userId, actorId: notifications.actorId })
      .from(notifications)
      .where(and(eq(notifications.barterRequestId, id), eq(notifications.kind, 'proposal_expired')));

  it('is off in tests unless asked (the setting defaults to 0 there)', () => {
    expect(t.config.barterExpirySweepSeconds).toBe(0);
  });

  it('reads as expired once due, before the sweep: in past, refusing everything but messages', async () => {
    const { barter, offered, requested } = await kit.pending(ann, ben);
    await setExpiry(barter.id, new Date(Date.now() - 1000));
    const seen = kit.ok(await kit.get(ben, barter.id));
    expect(seen).toMatchObject({ status: 'expired', expiresAt: null, allowedActions: ['message'] });
    const box = async (who: Member, name: string) =>
      kit
        .ok<Barter[]>(await kit.call(who, 'GET', `/api/barter-requests?box=${name}&limit=100`))
        .map((b) => b.id);
    expect(await box(ben, 'incoming')).not.toContain(barter.id);
    expect(await box(ann, 'outgoing')).not.toContain(barter.id);
    expect(await box(ben, 'past')).toContain(barter.id);
    expect(await box(ann, 'past')).toContain(barter.id);
    for (const [who, action] of [
      [ben, 'accept'],
      [ben, 'decline'],
      [ann, 'withdraw'],
    ] as const) {
      expect(kit.refused(await kit.act(who, barter.id, action), 409, 'BARTER_TRANSITION').message).toMatch(
        /expired/,
      );
    }
    expect(
      (await kit.call(ann, 'POST', `/api/barter-requests/${barter.id}/messages`, { content: 'Oh well' }))
        .statusCode,
    ).toBe(201);
    expect(await statusOf(barter.id)).toBe('pending');
    // The same proposal can be made again: the expired one no longer counts as pending.
    kit.ok(await kit.propose(ann, [offered.id], [requested.id]), 201);
  });

  it('marks due proposals expired once and notifies both members; running again does nothing', async () => {
    await expireDueProposals(t.app.db); // what earlier tests left due
    const due = [(await kit.pending(ann, ben)).barter, (await kit.pending(ben, ann)).barter];
    const notDue = (await kit.pending(ann, ben)).barter;
    const now = new Date();
    for (const barter of due) await setExpiry(barter.id, new Date(now.getTime() - 60_000));
    const accepted = (await kit.pending(ann, ben)).barter;
    kit.ok(await kit.act(ben, accepted.id, 'accept'));

    expect(await expireDueProposals(t.app.db, now)).toBe(2);
    for (const barter of due) {
      expect(await statusOf(barter.id)).toBe('expired');
      const notices = await expiredNotices(barter.id);
      expect(notices.map((n) => n.userId).sort()).toEqual([ann.id, ben.id].sort());
      expect(notices.every((n) => n.actorId === null)).toBe(true);
      expect((await kit.barterEventsFor([ann.id, ben.id], barter.id)).length).toBe(4);
      expect(kit.ok(await kit.get(ann, barter.id))).toMatchObject({
        status: 'expired',
        allowedActions: ['message'],
      });
    }
    expect(await statusOf(notDue.id)).toBe('pending');
    expect(await statusOf(accepted.id)).toBe('accepted');

    expect(await expireDueProposals(t.app.db, now)).toBe(0);
    for (const barter of due) expect(await expiredNotices(barter.id)).toHaveLength(2);
  });

  it('expires a proposal once its 14 days are over by the clock it is given, batch after batch', async () => {
    const fresh = [];
    for (let i = 0; i < 5; i++) fresh.push((await kit.pending(ann, ben)).barter);
    const ids = fresh.map((barter) => barter.id);
    // A day before the end nothing happens; after it, every one expires, two per transaction.
    expect(await expireDueProposals(t.app.db, new Date(Date.now() + PENDING_EXPIRY_MS - 86_400_000))).toBe(0);
    expect(
      await expireDueProposals(t.app.db, new Date(Date.now() + PENDING_EXPIRY_MS + 1000), 2),
    ).toBeGreaterThanOrEqual(5);
    const rows = await kit
      .db()
      .select({ status: barterRequests.status })
      .from(barterRequests)
      .where(inArray(barterRequests.id, ids));
    expect(rows.map((row) => row.status)).toEqual(ids.map(() => 'expired'));
  });

  it('several sweeps at once expire and notify each proposal exactly once', async () => {
    const due = [];
    for (let i = 0; i < 6; i++) due.push((await kit.pending(ann, ben)).barter);
    for (const barter of due) await setExpiry(barter.id, new Date(Date.now() - 1000));
    const counts = await Promise.all([1, 2, 3].map(() => expireDueProposals(t.app.db, new Date(), 2)));
    expect(counts.reduce((sum, n) => sum + n, 0)).toBe(6);
    for (const barter of due) expect(await expiredNotices(barter.id)).toHaveLength(2);
  });
  // Scheduled every BARTER_EXPIRY_SWEEP_SECONDS and run through its queue: server/jobs/periodic-jobs.test.ts.
});
