import { readFileSync } from 'node:fs';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedItem } from '#common/schemas/feed.ts';
import {
  ITEM_ERROR_CODES,
  type Item,
  WANT_ERROR_CODES,
  type Want,
  type WantQuestion,
} from '#common/schemas/listings.ts';
import type { MemberWant } from '#common/schemas/members.ts';
import type { TradeStats } from '#common/schemas/trades.ts';
import { barterRequests, circleMembers, circles, items, wantQuestions, wants } from '../../db/schema/trading';
import { createWant } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { barterKit, type Member } from '../barters/barter-test-kit';
import { requestGraph, settleMatchGraph } from '../match-graph';
import { swapDayKit } from '../swap-days/swap-day-test-kit';

/**
 * Items and wants after a trade (issue 30, ADR 073): a completed barter marks its items traded for
 * good and meets the receivers' wants (fulfilled when the trade named them, asked about otherwise).
 */
describe('items and wants after a trade', () => {
  let t: TestApp;
  let kit: ReturnType<typeof barterKit>;

  beforeAll(async () => {
    t = await buildTestApp({ BARTER_PROPOSAL_RATE_LIMIT: '100000' });
    kit = barterKit(t);
  });
  afterAll(() => t.close());

  const myItems = async (who: Member) =>
    kit.ok<Item[]>(await kit.call(who, 'GET', '/api/items/my?limit=100'));
  const myWants = async (who: Member) =>
    kit.ok<Want[]>(await kit.call(who, 'GET', '/api/wants/my?limit=100'));
  const questions = async (who: Member, barterId?: number) =>
    kit.ok<WantQuestion[]>(
      await kit.call(who, 'GET', `/api/wants/questions${barterId ? `?barterRequestId=${barterId}` : ''}`),
    );
  const answer = (who: Member, wantId: number, barterRequestId: number, filled: boolean) =>
    kit.call(who, 'POST', `/api/wants/${wantId}/answer`, { barterRequestId, filled });

  /** Ann gives a drill for Ben's lamp; both confirm. The barter id and items. */
  async function completedBarter(ann: Member, ben: Member, drillTitle = 'Cordless drill') {
    const drill = await kit.item(ann, { title: drillTitle, category: 'tools' });
    const lamp = await kit.item(ben, { title: 'Brass desk lamp', category: 'household' });
    const barter = kit.ok(await kit.propose(ann, [drill.id], [lamp.id]), 201);
    kit.ok(await kit.act(ben, barter.id, 'accept'));
    kit.ok(await kit.act(ann, barter.id, 'confirm'));
    const done = kit.ok(await kit.act(ben, barter.id, 'confirm'));
    expect(done.status).toBe('completed');
    return { barterId: barter.id, drill, lamp };
  }

  async function barterMatchTitles(who: Member): Promise<string[]> {
    await requestGraph(t.app.db, who.id);
    await settleMatchGraph(t.app.db);
    const feed = kit.ok<FeedItem[]>(await kit.call(who, 'GET', '/api/feed/barter-match?distance=50'));
    return feed.map((item) => item.title);
  }

  it('a traded item reads "Traded to <name>", cannot be shown again or edited, and counts in the history', async () => {
    const ann = await kit.member('Ann');
    const ben = await kit.member('Ben');
    const { barterId, drill, lamp } = await completedBarter(ann, ben);

    const annItems = await myItems(ann);
    const traded = annItems.find((item) => item.id === drill.id);
    expect(traded).toMatchObject({
      isActive: false,
      isReserved: false,
      allowedActions: ['delete'],
      traded: { barterRequestId: barterId, to: { id: ben.id }, swapDay: null },
    });
    expect(traded?.traded?.to.displayName).toMatch(/^Ben /);
    const benItems = await myItems(ben);
    expect(benItems.find((item) => item.id === lamp.id)?.traded?.to.displayName).toMatch(/^Ann /);

    // Showing it again or editing it: 409 ITEM_TRADED, and nothing changes.
    kit.refused(
      await kit.call(ann, 'PATCH', `/api/items/${drill.id}`, { isActive: true }),
      409,
      ITEM_ERROR_CODES.traded,
    );
    kit.refused(
      await kit.call(ann, 'PATCH', `/api/items/${drill.id}`, { title: 'New title' }),
      409,
      ITEM_ERROR_CODES.traded,
    );
    kit.refused(
      await kit.call(ann, 'PATCH', `/api/items/${drill.id}`, { isActive: false }),
      409,
      ITEM_ERROR_CODES.traded,
    );
    const [row] = await t.app.db.select().from(items).where(eq(items.id, drill.id));
    expect(row).toMatchObject({ isActive: false, title: 'Cordless drill', tradedInRequestId: barterId });
    // Someone else probing it learns nothing more than of a missing item.
    kit.refused(await kit.call(ben, 'PATCH', `/api/items/${drill.id}`, { isActive: true }), 404, 'NOT_FOUND');

    // No path may list it again: the database refuses too.
    await expect(
      t.app.db.update(items).set({ isActive: true }).where(eq(items.id, drill.id)),
    ).rejects.toMatchObject({
      cause: expect.objectContaining({ code: '23514', constraint: 'items_traded_inactive' }),
    });

    // Never offered again: a new proposal naming it is refused.
    const cat = await kit.member('Cat');
    const catItem = await kit.item(cat);
    kit.refused(await kit.propose(cat, [catItem.id], [drill.id]), 409, 'BARTER_ITEM_UNAVAILABLE');

    // It counts in both members' history.
    for (const who of [ann, ben]) {
      const stats = kit.ok<TradeStats>(await kit.call(who, 'GET', `/api/users/${who.id}/trade-stats`));
      expect(stats.totalTrades).toBe(1);
    }

    // The owner may still take it off their list; the history keeps it.
    expect((await kit.call(ann, 'DELETE', `/api/items/${drill.id}`)).statusCode).toBe(204);
    const stats = kit.ok<TradeStats>(await kit.call(ann, 'GET', `/api/users/${ann.id}/trade-stats`));
    expect(stats.totalTrades).toBe(1);
  });

  it('asks the receiver "Did this fill your want?" for a matching want; yes fulfils it and it stops matching', async () => {
    const ann = await kit.member('Ann');
    const ben = await kit.member('Ben');
    const drillWant = await createWant(t.app.db, {
      userId: ben.id,
      title: 'Cordless drill',
      category: 'tools',
    });
    const guitarWant = await createWant(t.app.db, {
      userId: ben.id,
      title: 'Guitar',
      category: 'music instr',
    });
    const annWant = await createWant(t.app.db, { userId: ann.id, title: 'Road bike', category: 'bikes' });
    // Another drill nearby: Barter Match shows it to Ben while his want is open.
    const dan = await kit.member('Dan');
    await kit.item(dan, { title: 'Cordless drill 18V', category: 'tools' });
    expect(await barterMatchTitles(ben)).toContain('Cordless drill 18V');

    const { barterId } = await completedBarter(ann, ben);
    // Only Ben's drill want: the guitar matches nothing he received, Ann's bike nothing she received.
    expect(await questions(ben, barterId)).toEqual([
      { barterRequestId: barterId, wantId: drillWant.id, title: 'Cordless drill' },
    ]);
    expect(await questions(ben)).toEqual([
      { barterRequestId: barterId, wantId: drillWant.id, title: 'Cordless drill' },
    ]);
    expect(await questions(ann, barterId)).toEqual([]);
    // Not asked yet: still active and matching.
    expect((await myWants(ben)).find((want) => want.id === drillWant.id)).toMatchObject({
      isActive: true,
      fulfilledAt: null,
    });

    // Someone else cannot answer it, nor Ben about a want it did not ask.
    kit.refused(await answer(ann, drillWant.id, barterId, true), 404, WANT_ERROR_CODES.questionNotFound);
    kit.refused(await answer(ben, guitarWant.id, barterId, true), 404, WANT_ERROR_CODES.questionNotFound);
    kit.refused(await answer(ann, annWant.id, barterId, true), 404, WANT_ERROR_CODES.questionNotFound);

    const fulfilled = kit.ok<Want>(await answer(ben, drillWant.id, barterId, true));
    expect(fulfilled).toMatchObject({ id: drillWant.id, isActive: false });
    expect(fulfilled.fulfilledAt).not.toBeNull();
    // The same answer again: the question is gone.
    kit.refused(await answer(ben, drillWant.id, barterId, true), 404, WANT_ERROR_CODES.questionNotFound);
    expect(await questions(ben)).toEqual([]);
    const [stored] = await t.app.db.select().from(wants).where(eq(wants.id, drillWant.id));
    expect(stored).toMatchObject({ isActive: false, fulfilledByRequestId: barterId });

    // It stops matching: Barter Match, the member page's "Looking for", other members' cards.
    expect(await barterMatchTitles(ben)).not.toContain('Cordless drill 18V');
    const page = kit.ok<MemberWant[]>(await kit.call(dan, 'GET', `/api/members/${ben.id}/wants`));
    expect(page.map((want) => want.title)).toEqual(['Guitar']);

    // "I want more of these": active again, matching again.
    const reopened = kit.ok<Want>(await kit.call(ben, 'POST', `/api/wants/${drillWant.id}/keep-open`));
    expect(reopened).toMatchObject({ isActive: true, fulfilledAt: null });
    expect(await barterMatchTitles(ben)).toContain('Cordless drill 18V');
    // Not anyone's to reopen; a missing want is the same 404.
    kit.refused(await kit.call(ann, 'POST', `/api/wants/${drillWant.id}/keep-open`), 404, 'NOT_FOUND');
    kit.refused(await kit.call(ann, 'POST', '/api/wants/2147483647/keep-open'), 404, 'NOT_FOUND');
  });

  it('"no" only takes the question away; a want paused meanwhile is not asked about', async () => {
    const ann = await kit.member('Ann');
    const ben = await kit.member('Ben');
    const drillWant = await createWant(t.app.db, { userId: ben.id, title: 'Drill', category: 'tools' });
    const toolsWant = await createWant(t.app.db, { userId: ben.id, title: 'Any tools', category: 'tools' });
    const { barterId } = await completedBarter(ann, ben);
    expect((await questions(ben, barterId)).map((q) => q.wantId).sort()).toEqual(
      [drillWant.id, toolsWant.id].sort(),
    );

    const kept = kit.ok<Want>(await answer(ben, drillWant.id, barterId, false));
    expect(kept).toMatchObject({ isActive: true, fulfilledAt: null });
    kit.ok(await kit.call(ben, 'PATCH', `/api/wants/${toolsWant.id}`, { isActive: false }));
    expect(await questions(ben, barterId)).toEqual([]);
  });

  it('refuses hostile input with 400s', async () => {
    const ben = await kit.member('Ben');
    const want = await createWant(t.app.db, { userId: ben.id, title: 'Drill', category: 'tools' });
    for (const body of [
      {},
      { barterRequestId: 1 },
      { barterRequestId: '1', filled: true },
      { barterRequestId: 0, filled: true },
      { barterRequestId: 2_147_483_648, filled: true },
      { barterRequestId: 1.5, filled: true },
      { barterRequestId: 1, filled: 'yes' },
      { barterRequestId: 1, filled: true, extra: 1 },
    ]) {
      const response = await kit.call(ben, 'POST', `/api/wants/${want.id}/answer`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    for (const query of [
      'barterRequestId=abc',
      'barterRequestId=0',
      'barterRequestId=1e3',
      'barterRequestId=99999999999',
      'other=1',
    ]) {
      expect((await kit.call(ben, 'GET', `/api/wants/questions?${query}`)).statusCode, query).toBe(400);
    }
    for (const id of ['0', 'abc', '-1', '99999999999']) {
      expect((await kit.call(ben, 'POST', `/api/wants/${id}/keep-open`)).statusCode, id).toBe(400);
      expect(
        (await kit.call(ben, 'POST', `/api/wants/${id}/answer`, { barterRequestId: 1, filled: true }))
          .statusCode,
      ).toBe(400);
    }
    expect((await kit.call(null, 'GET', '/api/wants/questions')).statusCode).toBe(401);
    expect((await kit.call(null, 'POST', `/api/wants/${want.id}/keep-open`)).statusCode).toBe(401);
  });

  it('a circle hand-over fulfils the want it was matched to at once, without asking', async () => {
    const ann = await kit.member('Ann');
    const ben = await kit.member('Ben');
    const drillWant = await createWant(t.app.db, {
      userId: ben.id,
      title: 'Cordless drill',
      category: 'tools',
    });
    const lampWant = await createWant(t.app.db, {
      userId: ann.id,
      title: 'Desk lamp',
      category: 'household',
    });
    const { barterId } = await completedBarterInCircle(ann, ben, drillWant.id, lampWant.id);
    const [drillNow] = await t.app.db.select().from(wants).where(eq(wants.id, drillWant.id));
    expect(drillNow).toMatchObject({ isActive: false, fulfilledByRequestId: barterId });
    expect(await questions(ben)).toEqual([]);
    // Ann's hand-over is still open: her want waits.
    const [lampNow] = await t.app.db.select().from(wants).where(eq(wants.id, lampWant.id));
    expect(lampNow).toMatchObject({ isActive: true, fulfilledAt: null });
  });

  /**
   * A circle of two as the finder stores one (ADR 029), accepted: Ann gives her drill to Ben (his
   * want `benWantId`), Ben his lamp to Ann (her want `annWantId`). Ann's hand-over completed.
   */
  async function completedBarterInCircle(ann: Member, ben: Member, benWantId: number, annWantId: number) {
    const drill = await kit.item(ann, { title: 'Cordless drill', category: 'tools' });
    const lamp = await kit.item(ben, { title: 'Desk lamp', category: 'household' });
    const [circle] = await t.app.db
      .insert(circles)
      .values({ size: 2, expiresAt: new Date(Date.now() + 86_400_000) })
      .returning();
    if (!circle) throw new Error('no circle');
    const steps = [
      { member: ann, item: drill, wantId: benWantId },
      { member: ben, item: lamp, wantId: annWantId },
    ];
    await t.app.db.insert(circleMembers).values(
      steps.map((step, position) => ({
        circleId: circle.id,
        position,
        memberId: step.member.id,
        itemId: step.item.id,
        title: step.item.title,
        category: step.item.category,
        isService: false,
        wantId: step.wantId,
      })),
    );
    for (const who of [ann, ben]) kit.ok(await kit.call(who, 'POST', `/api/circles/${circle.id}/accept`));
    const [annStep] = await t.app.db
      .select({ barterId: circleMembers.barterRequestId })
      .from(circleMembers)
      .where(and(eq(circleMembers.circleId, circle.id), eq(circleMembers.position, 0)));
    const barterId = annStep?.barterId ?? 0;
    kit.ok(await kit.act(ann, barterId, 'confirm'));
    expect(kit.ok(await kit.act(ben, barterId, 'confirm')).status).toBe('completed');
    return { barterId };
  }

  it('a swap day hand-over reads "Given at <swap day>" and asks about the want it met', async () => {
    const days = swapDayKit(t);
    const ann = await days.member('GAnn');
    const ben = await days.member('GBen');
    const drill = await days.item(ann, { title: 'Cordless drill', category: 'tools' });
    const kettle = await days.item(ben, { title: 'Kettle', category: 'household' });
    const want = await createWant(t.app.db, { userId: ben.id, title: 'Drill', category: 'tools' });
    const day = await days.organise(ann, { name: 'Elm Street swap' });
    await days.bring(ann, day.id, [drill.id]);
    await days.bring(ben, day.id, [kettle.id]);
    days.ok(await days.rank(ann, day.id, drill.id, [kettle.id]));
    days.ok(await days.rank(ben, day.id, kettle.id, [drill.id]));
    await days.passDeadline(day.id);
    await days.closeAndSettle(ann, day.id);
    const [handOver] = await t.app.db
      .select({ id: barterRequests.id })
      .from(barterRequests)
      .innerJoin(circles, eq(circles.id, barterRequests.circleId))
      .where(and(eq(circles.swapDayId, day.id), eq(barterRequests.fromUserId, ann.id)));
    const barterId = handOver?.id ?? 0;
    kit.ok(await kit.act(ann, barterId, 'confirm'));
    kit.ok(await kit.act(ben, barterId, 'confirm'));
    const given = (await myItems(ann)).find((item) => item.id === drill.id);
    expect(given?.traded).toMatchObject({
      barterRequestId: barterId,
      swapDay: { id: day.id, name: 'Elm Street swap' },
    });
    expect(given?.allowedActions).toEqual(['delete']);
    // The trade history says where too (the trades' shape names an e-mail field, null for others).
    const history = kit.ok<Array<{ id: number; swapDay: unknown }>>(
      await t.app.inject({ method: 'GET', url: `/api/users/${ann.id}/trades`, cookies: ben.cookies }),
    );
    expect(history.find((trade) => trade.id === barterId)?.swapDay).toEqual({
      id: day.id,
      name: 'Elm Street swap',
    });
    expect(await questions(ben, barterId)).toEqual([
      { barterRequestId: barterId, wantId: want.id, title: 'Drill' },
    ]);
  });

  it('the migration marks items that went through a completed barter before it as traded', async () => {
    const ann = await kit.member('MAnn');
    const ben = await kit.member('MBen');
    const { barterId, drill, lamp } = await completedBarter(ann, ben);
    const untouched = await kit.item(ann, { title: 'Never traded', isActive: false });
    // As the rows were before migration 0030: inactive, no trade recorded; one was shown again since.
    await t.app.db
      .update(items)
      .set({ tradedAt: null, tradedInRequestId: null })
      .where(sql`${items.id} IN (${drill.id}, ${lamp.id})`);
    await t.app.db.update(items).set({ isActive: true }).where(eq(items.id, lamp.id));
    const migration = readFileSync(
      new URL('../../../drizzle/0030_traded-items-fulfilled-wants.sql', import.meta.url),
      'utf8',
    );
    const backfill = migration.split('--> statement-breakpoint').at(-1) ?? '';
    expect(backfill).toContain('UPDATE "items"');
    await t.app.db.execute(sql.raw(backfill));
    const rows = await t.app.db
      .select({ id: items.id, active: items.isActive, tradedIn: items.tradedInRequestId })
      .from(items)
      .where(sql`${items.id} IN (${drill.id}, ${lamp.id}, ${untouched.id})`)
      .orderBy(items.id);
    expect(rows).toEqual([
      { id: drill.id, active: false, tradedIn: barterId },
      { id: lamp.id, active: false, tradedIn: barterId },
      { id: untouched.id, active: false, tradedIn: null },
    ]);
    const lampNow = (await myItems(ben)).find((item) => item.id === lamp.id);
    expect(lampNow?.allowedActions).toEqual(['delete']);
  });

  describe('races', () => {
    const statuses = (responses: Array<{ statusCode: number }>) => responses.map((r) => r.statusCode).sort();

    it('both members confirming at once: completed once, items traded once, each want asked once', async () => {
      for (let round = 0; round < 3; round++) {
        const ann = await kit.member(`RAnn${round}`);
        const ben = await kit.member(`RBen${round}`);
        await createWant(t.app.db, { userId: ben.id, title: 'Cordless drill', category: 'tools' });
        const drill = await kit.item(ann, { title: 'Cordless drill', category: 'tools' });
        const lamp = await kit.item(ben, { title: 'Lamp', category: 'household' });
        const barter = kit.ok(await kit.propose(ann, [drill.id], [lamp.id]), 201);
        kit.ok(await kit.act(ben, barter.id, 'accept'));
        const responses = await Promise.all([
          kit.act(ann, barter.id, 'confirm'),
          kit.act(ben, barter.id, 'confirm'),
        ]);
        expect(statuses(responses)).toEqual([200, 200]);
        const after = kit.ok(await kit.get(ann, barter.id));
        expect(after.status).toBe('completed');
        const traded = await t.app.db
          .select({ id: items.id, tradedIn: items.tradedInRequestId, active: items.isActive })
          .from(items)
          .where(sql`${items.id} IN (${drill.id}, ${lamp.id})`);
        expect(traded.every((row) => row.tradedIn === barter.id && !row.active)).toBe(true);
        const asked = await t.app.db
          .select()
          .from(wantQuestions)
          .where(eq(wantQuestions.barterRequestId, barter.id));
        expect(asked).toHaveLength(1);
      }
    });

    it('"show" and the completing confirm at once: the item ends traded and hidden either way', async () => {
      for (let round = 0; round < 3; round++) {
        const ann = await kit.member(`SAnn${round}`);
        const ben = await kit.member(`SBen${round}`);
        const drill = await kit.item(ann, { title: 'Drill', category: 'tools' });
        const lamp = await kit.item(ben, { title: 'Lamp', category: 'household' });
        const barter = kit.ok(await kit.propose(ann, [drill.id], [lamp.id]), 201);
        kit.ok(await kit.act(ben, barter.id, 'accept'));
        kit.ok(await kit.act(ann, barter.id, 'confirm'));
        const [show, confirm] = await Promise.all([
          kit.call(ann, 'PATCH', `/api/items/${drill.id}`, { isActive: true }),
          kit.act(ben, barter.id, 'confirm'),
        ]);
        expect(confirm.statusCode, confirm.body).toBe(200);
        // Reserved (not completed yet) or traded (completed first): refused either way.
        expect(show.statusCode, show.body).toBe(409);
        expect([ITEM_ERROR_CODES.traded, 'CONFLICT']).toContain(show.json().code);
        const [row] = await t.app.db.select().from(items).where(eq(items.id, drill.id));
        expect(row).toMatchObject({ isActive: false, tradedInRequestId: barter.id });
      }
    });

    it('answering yes twice at once: fulfilled once, the other 404', async () => {
      const ann = await kit.member('QAnn');
      const ben = await kit.member('QBen');
      const want = await createWant(t.app.db, { userId: ben.id, title: 'Cordless drill', category: 'tools' });
      const { barterId } = await completedBarter(ann, ben);
      const responses = await Promise.all([
        answer(ben, want.id, barterId, true),
        answer(ben, want.id, barterId, true),
      ]);
      expect(statuses(responses)).toEqual([200, 404]);
    });
  });
});
