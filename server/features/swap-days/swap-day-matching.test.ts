import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Barter } from '#common/schemas/barters.ts';
import type { Notification } from '#common/schemas/notifications.ts';
import { SWAP_DAY_ERROR_CODES, type SwapDay, type SwapDaySheet } from '#common/schemas/swap-days.ts';
import type { Trade } from '#common/schemas/trades.ts';
import { buildApp } from '../../app';
import { memberBlocks } from '../../db/schema/safety';
import {
  barterRequests,
  circleMembers,
  circles,
  items,
  memberEvents,
  swapDays,
} from '../../db/schema/trading';
import { buildTestApp, deferred, type TestApp } from '../../test/helpers';
import type { Member } from '../barters/barter-test-kit';
import { swapDaySolver, sweepSwapDays } from './swap-day-match';
import { swapDayKit } from './swap-day-test-kit';

const codes = SWAP_DAY_ERROR_CODES;

/** "title > member" pairs of a result's gives or gets, sorted. */
const lines = (
  rows: SwapDay['result'] extends infer R ? (R extends { gives: infer G } ? G : never) : never,
) => rows.map((row) => `${row.item.title} ${row.member.displayName}`).sort();

/**
 * Hold every solve the match job starts until `release` (then each runs the real engine), so a test
 * can look at a swap day while it is being matched; the solver is put back on release.
 */
const realSolve = swapDaySolver.solve;
/** Lets a held solve go on (the afterEach of a test that failed while holding one). */
let releaseHeld = () => {};

function holdSolves(): { started: Promise<void>; release: () => void } {
  const real = swapDaySolver.solve;
  const gate = deferred();
  releaseHeld = gate.resolve;
  const started = deferred();
  swapDaySolver.solve = async (graph, options) => {
    started.resolve();
    await gate.promise;
    return real(graph, options);
  };
  return {
    started: started.promise,
    release: () => {
      swapDaySolver.solve = real;
      gate.resolve();
    },
  };
}

describe('matching a swap day', () => {
  let t: TestApp;
  let kit: ReturnType<typeof swapDayKit>;

  beforeAll(async () => {
    t = await buildTestApp();
    kit = swapDayKit(t);
  });
  afterAll(() => t.close());
  // A test that failed while it held or replaced the solver leaves the real one to the next.
  afterEach(() => {
    swapDaySolver.solve = realSolve;
    releaseHeld();
  });

  /**
   * Five neighbors (ADR 030's example). Ann and Ben bring two things each. Five items can trade two
   * ways: Ann and Ben swap a pair while Ann, Ben and Cal go around (3 members, every first choice),
   * or all five go around one loop (5 members, two second choices). Items first, then members: the
   * five-loop. Ann gives her camping stove to Eve and gets Ben's drill.
   */
  async function fiveNeighbours(prefix: string) {
    const ann = await kit.member(`${prefix}Ann`);
    const ben = await kit.member(`${prefix}Ben`);
    const cal = await kit.member(`${prefix}Cal`);
    const dee = await kit.member(`${prefix}Dee`);
    const eve = await kit.member(`${prefix}Eve`);
    const stove = await kit.item(ann, { title: 'Camping stove', estimatedValue: 40 });
    const game = await kit.item(ann, { title: 'Board game' });
    const drill = await kit.item(ben, { title: 'Cordless drill' });
    const racket = await kit.item(ben, { title: 'Tennis racket' });
    const breadMaker = await kit.item(cal, { title: 'Bread maker' });
    const guitar = await kit.item(dee, { title: 'Guitar' });
    const riceCooker = await kit.item(eve, { title: 'Rice cooker' });
    const day = await kit.organise(ann, { name: `${prefix} street swap` });
    await kit.bring(ann, day.id, [stove.id, game.id]);
    await kit.bring(ben, day.id, [drill.id, racket.id]);
    await kit.bring(cal, day.id, [breadMaker.id]);
    await kit.bring(dee, day.id, [guitar.id]);
    await kit.bring(eve, day.id, [riceCooker.id]);
    const rankings: Array<[Member, number, number[]]> = [
      [ann, stove.id, [racket.id, drill.id]],
      [ann, game.id, [drill.id]],
      [ben, drill.id, [breadMaker.id]],
      [ben, racket.id, [stove.id]],
      [cal, breadMaker.id, [game.id, guitar.id]],
      [dee, guitar.id, [riceCooker.id]],
      [eve, riceCooker.id, [stove.id]],
    ];
    for (const [who, offerId, wanted] of rankings) kit.ok(await kit.rank(who, day.id, offerId, wanted));
    return {
      day,
      members: { ann, ben, cal, dee, eve },
      items: { stove, game, drill, racket, breadMaker, guitar, riceCooker },
    };
  }

  it('five neighbors: the most items, then the most members (one five-loop), hand-overs as accepted barters', async () => {
    const { day, members, items: it5 } = await fiveNeighbours('F');
    const { ann, ben, cal, dee, eve } = members;
    const eventsBefore = await kit.swapDayEventCount(dee.id, day.id);

    const solved = await kit.closeAndSettle(ann, day.id);
    expect(solved).toMatchObject({ status: 'solved', allowedActions: [] });
    expect(solved.result).toMatchObject({ itemsTraded: 5, membersTrading: 5 });
    expect(lines(solved.result?.gives ?? [])).toEqual([`Camping stove ${eve.user.firstName} T.`]);
    expect(lines(solved.result?.gets ?? [])).toEqual([`Cordless drill ${ben.user.firstName} T.`]);

    // Everyone sees what they give and get.
    const expected: Array<[Member, string, string, string, string]> = [
      [ben, 'Cordless drill', 'FAnn', 'Bread maker', 'FCal'],
      [cal, 'Bread maker', 'FBen', 'Guitar', 'FDee'],
      [dee, 'Guitar', 'FCal', 'Rice cooker', 'FEve'],
      [eve, 'Rice cooker', 'FDee', 'Camping stove', 'FAnn'],
    ];
    for (const [who, gives, to, gets, from] of expected) {
      const view = kit.ok<SwapDay>(await kit.getSwapDay(who, day.id));
      expect(view.result?.gives.map((g) => [g.item.title, g.member.displayName, g.loop])).toEqual([
        [gives, `${to} T.`, 1],
      ]);
      expect(view.result?.gets.map((g) => [g.item.title, g.member.displayName, g.loop])).toEqual([
        [gets, `${from} T.`, 1],
      ]);
    }

    // One accepted circle of five, stored in giving order, its values kept.
    const loops = await kit.db().select().from(circles).where(eq(circles.swapDayId, day.id));
    expect(loops).toHaveLength(1);
    expect(loops[0]).toMatchObject({ status: 'accepted', size: 5 });
    const steps = await kit
      .db()
      .select()
      .from(circleMembers)
      .where(eq(circleMembers.circleId, loops[0]?.id ?? 0))
      .orderBy(circleMembers.position);
    const names = new Map([ann, ben, cal, dee, eve].map((m) => [m.id, m.user.firstName]));
    const order = steps.map((step) => names.get(step.memberId ?? ''));
    // Each gives to the next: Ann -> Eve -> Dee -> Cal -> Ben -> Ann (from wherever it starts).
    const rotated = [...order, ...order].join(' ');
    expect(rotated).toContain('FAnn FEve FDee FCal FBen');
    expect(steps.find((step) => step.itemId === it5.stove.id)?.value).toBe(40);

    // Every hand-over is an accepted barter from giver to receiver, holding its item.
    const annGive = solved.result?.gives[0];
    const barter = kit.ok<Barter>(await kit.get(ann, annGive?.barterId ?? 0));
    expect(barter).toMatchObject({
      status: 'accepted',
      role: 'sender',
      circleId: loops[0]?.id,
      offeredItems: [expect.objectContaining({ title: 'Camping stove', available: true })],
      requestedItems: [],
    });
    expect(barter.otherMember.displayName).toBe('FEve T.');
    // Labelled as the swap day's (issue 30), in the page and the lists.
    expect(barter.swapDay).toEqual({ id: day.id, name: 'F street swap' });
    const active = kit.ok<Barter[]>(await kit.call(ann, 'GET', '/api/barter-requests?box=active'));
    // Both of Ann's hand-overs: she gives to Eve and gets from Ben.
    expect(active.map((row) => row.swapDay)).toEqual([
      { id: day.id, name: 'F street swap' },
      { id: day.id, name: 'F street swap' },
    ]);
    expect(barter.allowedActions).toEqual(expect.arrayContaining(['confirm', 'cancel', 'message']));
    const held = await kit
      .db()
      .select({ id: items.id, reserved: items.reservedByRequestId })
      .from(items)
      .where(
        inArray(
          items.id,
          Object.values(it5).map((item) => item.id),
        ),
      );
    const reserved = new Map(held.map((row) => [row.id, row.reserved]));
    expect(reserved.get(it5.stove.id)).toBe(annGive?.barterId);
    expect(reserved.get(it5.game.id)).toBeNull();
    expect(reserved.get(it5.racket.id)).toBeNull();
    const legs = await kit
      .db()
      .select()
      .from(barterRequests)
      .where(eq(barterRequests.circleId, loops[0]?.id ?? 0));
    expect(legs.map((leg) => leg.status)).toEqual([
      'accepted',
      'accepted',
      'accepted',
      'accepted',
      'accepted',
    ]);

    // Each member was told once, about their own hand-over; every member's page heard of it.
    for (const who of [ann, ben, cal, dee, eve]) {
      const notices = await kit.solvedNotices(who.id);
      const view = kit.ok<SwapDay>(await kit.getSwapDay(who, day.id));
      expect(notices).toEqual([{ barterRequestId: view.result?.gives[0]?.barterId, circleId: loops[0]?.id }]);
    }
    // Closing, each stage (gathering, solving, saving) and the result: five page refreshes.
    expect(await kit.swapDayEventCount(dee.id, day.id)).toBe(eventsBefore + 5);

    // The organizer's pick-up sheet has every hand-over by giver; a member's only their own lines.
    const sheet = kit.ok<SwapDaySheet>(await kit.sheet(ann, day.id));
    expect(sheet).toMatchObject({ complete: true, itemsTraded: 5, membersTrading: 5 });
    expect(sheet.swapDay).toMatchObject({ id: day.id, name: 'F street swap' });
    expect(kit.sheetLines(sheet)).toEqual([
      'FAnn T. > FEve T.: Camping stove (loop 1)',
      'FBen T. > FAnn T.: Cordless drill (loop 1)',
      'FCal T. > FBen T.: Bread maker (loop 1)',
      'FDee T. > FCal T.: Guitar (loop 1)',
      'FEve T. > FDee T.: Rice cooker (loop 1)',
    ]);
    const calSheet = kit.ok<SwapDaySheet>(await kit.sheet(cal, day.id));
    expect(calSheet.complete).toBe(false);
    expect(kit.sheetLines(calSheet)).toEqual([
      'FCal T. > FBen T.: Bread maker (loop 1)',
      'FDee T. > FCal T.: Guitar (loop 1)',
    ]);
    const stranger = await kit.member('Stranger');
    kit.refused(await kit.sheet(stranger, day.id), 404, 'NOT_FOUND');

    // Matched: nothing changes any more.
    const matched = 'This swap day was already matched.';
    for (const response of [
      await kit.swapDayAct(stranger, day.id, 'join'),
      await kit.swapDayAct(ben, day.id, 'leave'),
      await kit.offer(ben, day.id, [it5.racket.id]),
      await kit.rank(ben, day.id, it5.racket.id, []),
      await kit.withdraw(ben, day.id, it5.racket.id),
      await kit.swapDayAct(ann, day.id, 'close'),
      await kit.swapDayAct(ann, day.id, 'cancel'),
    ]) {
      expect(kit.refused(response, 409, codes.closed).message).toBe(matched);
    }
    kit.refused(await kit.swapDayAct(ben, day.id, 'close'), 403, codes.organiserOnly);

    // Ann and Eve meet and both confirm: it lands in their Trade History like any barter.
    kit.ok(await kit.act(ann, annGive?.barterId ?? 0, 'confirm'));
    const done = kit.ok<Barter>(await kit.act(eve, annGive?.barterId ?? 0, 'confirm'));
    expect(done.status).toBe('completed');
    // The trade history's shape has an e-mail field (null for others), so it is read past the kit's check.
    const historyResponse = await t.app.inject({ url: `/api/users/${eve.id}/trades`, cookies: ben.cookies });
    expect(historyResponse.body).not.toMatch(/@example\.test/);
    const history = kit.ok<Trade[]>(historyResponse);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({
      fromUserId: ann.id,
      toUserId: eve.id,
      fromItem: { title: 'Camping stove' },
      toItem: null,
      status: 'completed',
    });
    // Every bell entry about the day's hand-overs names the day, so it opens the day's page (issue 30).
    const bell = kit.ok<Notification[]>(await kit.call(eve, 'GET', '/api/notifications'));
    expect(bell.map((entry) => [entry.kind, entry.swapDay])).toEqual([
      ['barter_completed', { id: day.id, name: 'F street swap' }],
      ['completion_requested', { id: day.id, name: 'F street swap' }],
      ['swap_day_solved', { id: day.id, name: 'F street swap' }],
    ]);
    const pushed = await kit
      .db()
      .select({ data: memberEvents.data })
      .from(memberEvents)
      .where(and(eq(memberEvents.userId, eve.id), eq(memberEvents.type, 'notification')));
    expect(pushed.map((row) => (row.data as { notification: Notification }).notification.swapDay)).toEqual([
      { id: day.id, name: 'F street swap' },
      { id: day.id, name: 'F street swap' },
      { id: day.id, name: 'F street swap' },
    ]);
    const eveView = kit.ok<SwapDay>(await kit.getSwapDay(eve, day.id));
    expect(eveView.result?.gets[0]?.barterStatus).toBe('completed');
    expect(eveView.result?.gives[0]?.barterStatus).toBe('accepted');
  });

  it('more items beat more members: six items among four, Eve left out', async () => {
    const eve = await kit.member('MEve');
    const [ann, ben, cal, dee] = [
      await kit.member('MAnn'),
      await kit.member('MBen'),
      await kit.member('MCal'),
      await kit.member('MDee'),
    ] as const;
    const a1 = await kit.item(ann, { title: 'A1' });
    const a2 = await kit.item(ann, { title: 'A2' });
    const b1 = await kit.item(ben, { title: 'B1' });
    const b2 = await kit.item(ben, { title: 'B2' });
    const c1 = await kit.item(cal, { title: 'C1' });
    const d1 = await kit.item(dee, { title: 'D1' });
    const e1 = await kit.item(eve, { title: 'E1' });
    const day = await kit.organise(eve, { name: 'More items' });
    await kit.bring(ann, day.id, [a1.id, a2.id]);
    await kit.bring(ben, day.id, [b1.id, b2.id]);
    await kit.bring(cal, day.id, [c1.id]);
    await kit.bring(dee, day.id, [d1.id]);
    await kit.bring(eve, day.id, [e1.id]);
    for (const [who, offerId, wanted] of [
      [ann, a1.id, [b2.id, b1.id]],
      [ann, a2.id, [b1.id]],
      [ben, b1.id, [a2.id, c1.id]],
      [ben, b2.id, [a1.id]],
      [cal, c1.id, [d1.id]],
      [dee, d1.id, [c1.id, e1.id]],
      [eve, e1.id, [a1.id]],
    ] as Array<[Member, number, number[]]>) {
      kit.ok(await kit.rank(who, day.id, offerId, wanted));
    }
    const solved = await kit.closeAndSettle(eve, day.id);
    expect(solved.result).toMatchObject({ itemsTraded: 6, membersTrading: 4, gives: [], gets: [] });
    const sheet = kit.ok<SwapDaySheet>(await kit.sheet(eve, day.id));
    expect(
      kit
        .sheetLines(sheet)
        .map((line) => line.replace(/ \(loop \d\)/, ''))
        .sort(),
    ).toEqual([
      'MAnn T. > MBen T.: A1',
      'MAnn T. > MBen T.: A2',
      'MBen T. > MAnn T.: B1',
      'MBen T. > MAnn T.: B2',
      'MCal T. > MDee T.: C1',
      'MDee T. > MCal T.: D1',
    ]);
    expect(await kit.solvedNotices(eve.id)).toEqual([]);
  });

  it('leaves out items reserved or hidden since they were offered, and members who block each other', async () => {
    const ann = await kit.member('RAnn');
    const ben = await kit.member('RBen');
    const cat = await kit.member('RCat');
    const lamp = await kit.item(ann, { title: 'Lamp' });
    const tent = await kit.item(ben, { title: 'Tent' });
    const drill = await kit.item(ben, { title: 'Drill' });
    const radio = await kit.item(ben, { title: 'Radio' });
    const kettle = await kit.item(cat, { title: 'Kettle' });
    const day = await kit.organise(ann, { name: 'Reserved elsewhere' });
    await kit.bring(ann, day.id, [lamp.id]);
    await kit.bring(ben, day.id, [tent.id, drill.id, radio.id]);
    await kit.bring(cat, day.id, [kettle.id]);
    // Ann would rather have the tent, then the radio, then the drill; Ben takes the lamp for any.
    kit.ok(await kit.rank(ann, day.id, lamp.id, [tent.id, radio.id, drill.id]));
    for (const offerId of [tent.id, drill.id, radio.id])
      kit.ok(await kit.rank(ben, day.id, offerId, [lamp.id]));
    // Cat and Ben would swap kettle and drill, but Cat blocks Ben.
    kit.ok(await kit.rank(cat, day.id, kettle.id, [drill.id]));
    await kit.db().insert(memberBlocks).values({ blockerId: cat.id, blockedId: ben.id });

    // Meanwhile the tent is promised to someone else in an accepted barter, and the radio is hidden.
    const dan = await kit.member('RDan');
    const danItem = await kit.item(dan);
    const elsewhere = kit.ok<Barter>(await kit.propose(dan, [danItem.id], [tent.id]), 201);
    kit.ok(await kit.act(ben, elsewhere.id, 'accept'));
    await kit.db().update(items).set({ isActive: false }).where(eq(items.id, radio.id));
    const before = kit.ok<SwapDay>(await kit.getSwapDay(ann, day.id));
    expect(
      before.offers
        .filter((o) => !o.item.available)
        .map((o) => o.item.title)
        .sort(),
    ).toEqual(['Radio', 'Tent']);

    const solved = await kit.closeAndSettle(ann, day.id);
    expect(solved.result).toMatchObject({ itemsTraded: 2, membersTrading: 2 });
    expect(lines(solved.result?.gets ?? [])).toEqual(['Drill RBen T.']);
    const [tentRow] = await kit.db().select().from(items).where(eq(items.id, tent.id));
    expect(tentRow?.reservedByRequestId).toBe(elsewhere.id);
    const catView = kit.ok<SwapDay>(await kit.getSwapDay(cat, day.id));
    expect(catView.result).toMatchObject({ gives: [], gets: [] });
  });

  it('two closes at once: one 202, one 409 while it is matched; the same swap day never matched twice', async () => {
    for (let round = 0; round < 3; round++) {
      const { day, members } = await fiveNeighbours(`R${round}`);
      const hold = holdSolves();
      const responses = await Promise.all([
        kit.swapDayAct(members.ann, day.id, 'close'),
        kit.swapDayAct(members.ann, day.id, 'close'),
      ]);
      expect(responses.map((response) => response.statusCode).sort()).toEqual([202, 409]);
      const loser = responses.find((response) => response.statusCode === 409);
      expect(loser?.json()).toMatchObject({ code: codes.closed, message: 'This swap day is being matched.' });
      hold.release();
      expect(await kit.settled(day.id)).toMatchObject({ status: 'solved', itemsTraded: 5 });
      const loops = await kit.db().select().from(circles).where(eq(circles.swapDayId, day.id));
      expect(loops).toHaveLength(1);
      expect(await kit.solvedNotices(members.ben.id)).toHaveLength(1);
    }
  });

  it('the sweep hands due swap days to the job (never solving itself), once, even when several sweeps run at once', async () => {
    const { day, members } = await fiveNeighbours('S');
    const other = await fiveNeighbours('T');
    expect(await sweepSwapDays(t.app)).toBe(0);
    await kit.passDeadline(day.id);
    await kit.passDeadline(other.day.id);
    expect(kit.ok<SwapDay>(await kit.getSwapDay(members.cal, day.id)).status).toBe('closed');

    const hold = holdSolves();
    const counts = await Promise.all([sweepSwapDays(t.app), sweepSwapDays(t.app), sweepSwapDays(t.app)]);
    expect(counts.reduce((sum, n) => sum + n, 0)).toBe(2);
    expect(await sweepSwapDays(t.app)).toBe(0);
    // The sweeps are over and nothing is solved: both wait for (or are in) the job.
    for (const id of [day.id, other.day.id]) expect((await kit.row(id)).status).toBe('matching');
    const waiting = kit.ok<SwapDay>(await kit.getSwapDay(members.cal, day.id));
    expect(waiting).toMatchObject({ status: 'matching', allowedActions: [], result: null });
    expect(['waiting', 'gathering', 'solving']).toContain(waiting.matchStage);
    hold.release();
    for (const id of [day.id, other.day.id]) {
      expect(await kit.settled(id)).toMatchObject({ status: 'solved', itemsTraded: 5, membersTrading: 5 });
      expect(await kit.db().select().from(circles).where(eq(circles.swapDayId, id))).toHaveLength(1);
    }
    const view = kit.ok<SwapDay>(await kit.getSwapDay(members.cal, day.id));
    expect(view.result?.gives.map((g) => g.item.title)).toEqual(['Bread maker']);
    expect(view.matchStage).toBeNull();
    expect(await kit.solvedNotices(members.cal.id)).toHaveLength(1);
  });

  it('a swap day nobody can trade at is matched with nothing; an item no longer its offerer’s is left out', async () => {
    const ann = await kit.member('NAnn');
    const lamp = await kit.item(ann, { title: 'Lonely lamp' });
    const day = await kit.organise(ann, { name: 'Quiet swap' });
    kit.ok(await kit.offer(ann, day.id, [lamp.id]));
    const solved = await kit.closeAndSettle(ann, day.id);
    expect(solved.result).toMatchObject({ itemsTraded: 0, membersTrading: 0, gives: [], gets: [] });
    expect(kit.ok<SwapDaySheet>(await kit.sheet(ann, day.id)).givers).toEqual([]);

    // Dee's guitar now belongs to Cal (as a moderator's fix or a data repair could make it): Dee's
    // offer no longer counts, so the five-loop is gone and only Ann, Ben and Cal's loop stays.
    const moved = await fiveNeighbours('X');
    await kit.passDeadline(moved.day.id);
    await kit
      .db()
      .update(items)
      .set({ userId: moved.members.cal.id })
      .where(eq(items.id, moved.items.guitar.id));
    expect(await sweepSwapDays(t.app)).toBe(1);
    expect(await kit.settled(moved.day.id)).toMatchObject({ status: 'solved' });
    const deeView = kit.ok<SwapDay>(await kit.getSwapDay(moved.members.dee, moved.day.id));
    expect(deeView.result).toMatchObject({ itemsTraded: 5, membersTrading: 3, gives: [], gets: [] });
  });
  it('closing answers 202 at once: committed as matching, its stages seen by members, then the result', async () => {
    const { day, members, items: offered } = await fiveNeighbours('Q');
    const { ann, ben } = members;
    const hold = holdSolves();
    const closing = kit.ok<SwapDay>(await kit.swapDayAct(ann, day.id, 'close'), 202);
    expect(closing).toMatchObject({
      status: 'matching',
      allowedActions: [],
      result: null,
      matchFailure: null,
    });
    expect(['waiting', 'gathering', 'solving']).toContain(closing.matchStage);
    await hold.started;
    // The solve is running: the swap day is committed as matching and every member sees the stage.
    expect(await kit.row(day.id)).toMatchObject({ status: 'matching', matchStage: 'solving' });
    const during = kit.ok<SwapDay>(await kit.getSwapDay(ben, day.id));
    expect(during).toMatchObject({
      status: 'matching',
      matchStage: 'solving',
      result: null,
      allowedActions: [],
    });
    kit.refused(await kit.swapDayAct(ann, day.id, 'cancel'), 409, codes.closed);
    kit.refused(await kit.offer(ben, day.id, [offered.racket.id]), 409, codes.closed);
    kit.refused(await kit.sheet(ann, day.id), 409, codes.notSolved);
    const eventsDuring = await kit.swapDayEventCount(ben.id, day.id);
    hold.release();
    expect(await kit.settled(day.id)).toMatchObject({ status: 'solved', itemsTraded: 5, membersTrading: 5 });
    // Saving and the result reached Ben's page; the result is there without another close.
    expect(await kit.swapDayEventCount(ben.id, day.id)).toBe(eventsDuring + 2);
    const after = kit.ok<SwapDay>(await kit.getSwapDay(ben, day.id));
    expect(after).toMatchObject({ status: 'solved', matchStage: null });
    expect(after.result?.gives).toHaveLength(1);
    expect(await kit.solvedNotices(ben.id)).toHaveLength(1);
  });

  it('a loop whose item a barter took between the snapshot and the store is dropped, the rest stored', async () => {
    const ann = await kit.member('LAnn');
    const ben = await kit.member('LBen');
    const cal = await kit.member('LCal');
    const dee = await kit.member('LDee');
    const eve = await kit.member('LEve');
    const lamp = await kit.item(ann, { title: 'Lamp' });
    const tent = await kit.item(ben, { title: 'Tent' });
    const kettle = await kit.item(cal, { title: 'Kettle' });
    const drill = await kit.item(dee, { title: 'Drill' });
    const eveItem = await kit.item(eve, { title: 'Bike pump' });
    const day = await kit.organise(ann, { name: 'Taken meanwhile' });
    await kit.bring(ann, day.id, [lamp.id]);
    await kit.bring(ben, day.id, [tent.id]);
    await kit.bring(cal, day.id, [kettle.id]);
    await kit.bring(dee, day.id, [drill.id]);
    kit.ok(await kit.rank(ann, day.id, lamp.id, [tent.id]));
    kit.ok(await kit.rank(ben, day.id, tent.id, [lamp.id]));
    kit.ok(await kit.rank(cal, day.id, kettle.id, [drill.id]));
    kit.ok(await kit.rank(dee, day.id, drill.id, [kettle.id]));
    // While the engine works on the snapshot (both pairs in it), Dee accepts Eve's offer for the drill.
    let taken = 0;
    swapDaySolver.solve = async (graph, options) => {
      const solution = await realSolve(graph, options);
      const barter = kit.ok<Barter>(await kit.propose(eve, [eveItem.id], [drill.id]), 201);
      kit.ok(await kit.act(dee, barter.id, 'accept'));
      taken = barter.id;
      return solution;
    };
    const solved = await kit.closeAndSettle(ann, day.id);
    expect(solved.result).toMatchObject({ itemsTraded: 2, membersTrading: 2 });
    expect(lines(solved.result?.gets ?? [])).toEqual(['Tent LBen T.']);
    const loops = await kit.db().select().from(circles).where(eq(circles.swapDayId, day.id));
    expect(loops.map((loop) => loop.size)).toEqual([2]);
    const [drillRow] = await kit.db().select().from(items).where(eq(items.id, drill.id));
    expect(drillRow?.reservedByRequestId).toBe(taken);
    const [kettleRow] = await kit.db().select().from(items).where(eq(items.id, kettle.id));
    expect(kettleRow?.reservedByRequestId).toBeNull();
    expect(await kit.solvedNotices(cal.id)).toEqual([]);
    expect(kit.ok<SwapDay>(await kit.getSwapDay(dee, day.id)).result).toMatchObject({ gives: [], gets: [] });
  });

  it('a members stage out of time falls back to the most items; a solve that fails leaves a clear, retryable state', async () => {
    const first = await fiveNeighbours('O');
    const calls: Array<{ metric?: string; timeLimitSeconds?: number }> = [];
    swapDaySolver.solve = async (graph, options) => {
      calls.push({ metric: options.metric, timeLimitSeconds: options.timeLimitSeconds });
      if (options.metric === 'items-users')
        throw new Error('the solver stopped without an optimum (status 13)');
      return realSolve(graph, options);
    };
    const fallback = await kit.closeAndSettle(first.members.ann, first.day.id);
    expect(fallback).toMatchObject({ status: 'solved', matchFailure: null });
    expect(fallback.result?.itemsTraded).toBe(5);
    // Two thirds of SWAP_DAY_MATCH_SECONDS (30) for the members stage, the rest for the fallback.
    expect(calls).toEqual([
      { metric: 'items-users', timeLimitSeconds: 20 },
      { metric: 'items', timeLimitSeconds: expect.any(Number) },
    ]);
    expect(calls[1]?.timeLimitSeconds).toBeLessThanOrEqual(30);

    const second = await fiveNeighbours('P');
    const { ann, ben } = second.members;
    swapDaySolver.solve = async () => {
      throw new Error('HiGHS ran out of memory');
    };
    kit.ok<SwapDay>(await kit.swapDayAct(ann, second.day.id, 'close'), 202);
    expect(await kit.settled(second.day.id)).toMatchObject({ status: 'failed', matchFailure: 'error' });
    expect(await kit.db().select().from(circles).where(eq(circles.swapDayId, second.day.id))).toEqual([]);
    const organiserView = kit.ok<SwapDay>(await kit.getSwapDay(ann, second.day.id));
    expect(organiserView).toMatchObject({
      status: 'failed',
      matchFailure: 'error',
      matchStage: null,
      result: null,
    });
    expect(organiserView.allowedActions.sort()).toEqual(['cancel', 'close']);
    const memberView = kit.ok<SwapDay>(await kit.getSwapDay(ben, second.day.id));
    expect(memberView).toMatchObject({ status: 'failed', matchFailure: 'error', allowedActions: [] });
    kit.refused(await kit.swapDayAct(ben, second.day.id, 'close'), 403, codes.organiserOnly);
    kit.refused(await kit.offer(ben, second.day.id, [second.items.racket.id]), 409, codes.closed);
    // The organizer tries again, and this time the engine answers.
    swapDaySolver.solve = realSolve;
    const retried = await kit.closeAndSettle(ann, second.day.id);
    expect(retried).toMatchObject({ status: 'solved', matchFailure: null });
    expect(retried.result).toMatchObject({ itemsTraded: 5, membersTrading: 5 });
  });

  it('a swap day left matching by a process that stopped is matched when the server starts again', async () => {
    const { day, members } = await fiveNeighbours('Z');
    // As a process that died in the middle of solving leaves it: matching, no job anywhere.
    await kit
      .db()
      .update(swapDays)
      .set({ status: 'matching', matchStage: 'solving' })
      .where(eq(swapDays.id, day.id));
    const restarted = await buildApp({ config: t.config, database: t.database });
    try {
      await restarted.ready();
      expect(await kit.settled(day.id)).toMatchObject({
        status: 'solved',
        itemsTraded: 5,
        membersTrading: 5,
      });
    } finally {
      await restarted.close();
    }
    expect(await kit.db().select().from(circles).where(eq(circles.swapDayId, day.id))).toHaveLength(1);
    expect(await kit.solvedNotices(members.eve.id)).toHaveLength(1);
  });
});
