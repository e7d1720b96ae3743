import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Barter } from '#common/schemas/barters.ts';
import type { Circle } from '#common/schemas/circles.ts';
import type { HandOverPlan } from '#common/schemas/hand-over-plans.ts';
import type { DisputedNoShow } from '#common/schemas/no-shows.ts';
import { handOverPlans } from '../../db/schema/hand-over-plans';
import { noShowReports } from '../../db/schema/no-shows';
import { barterRequests, circles, items, notifications } from '../../db/schema/trading';
import { users } from '../../db/schema/users';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { noShowSettleJob } from '../barters';
import { barterKit, type Member } from '../barters/barter-test-kit';
import { acceptedBy, BIKE, circleTestKit, DRILL, GUITAR, names, TENT } from './circle-test-kit';

// Circles that heal after a no-show (issue 30, ADR 081): an accepted circle's member did not come to a
// hand-over; once that is settled as missed (no answer within 48 hours, or a moderator's "missed"),
// their open hand-overs are cancelled, the circle closes and those left are offered a circle in its
// place, once.

let t: TestApp;
let kit: ReturnType<typeof barterKit>;
let mod: Member;

let circleKit: ReturnType<typeof circleTestKit>;

beforeAll(async () => {
  t = await buildTestApp();
  kit = barterKit(t);
  circleKit = circleTestKit(t, kit);
  mod = await kit.member('Mo');
  await t.app.db.update(users).set({ role: 'moderator' }).where(eq(users.id, mod.id));
});
afterAll(() => t.close());
const settle = () => circleKit.settle();
const town = () => circleKit.town();
const list = (who: Member, box?: string) => circleKit.list(who, box);
const act = (who: Member, id: number, action: 'accept' | 'decline') => circleKit.act(who, id, action);

/**
 * Ann gives the drill to Ben, Ben the tent to Cat, Cat the guitar to Dan, Dan the bike to Ann; all
 * four accept, so the hand-overs are accepted barters (items reserved), and the graph has drained
 * them out. Eve (a bike, wants a guitar) lives nearby.
 */
async function acceptedRingOfFour() {
  const add = town();
  const ann = await add('Ann', DRILL, [BIKE]);
  const ben = await add('Ben', TENT, [DRILL]);
  const cat = await add('Cat', GUITAR, [TENT]);
  const dan = await add('Dan', BIKE, [GUITAR]);
  await settle();
  const [circle] = await list(ann);
  expect(names(circle)).toEqual(['Ann', 'Ben', 'Cat', 'Dan']);
  const id = (circle as Circle).id;
  for (const member of [ann, ben, cat, dan]) kit.ok(await act(member, id, 'accept'));
  const eve = await add('Eve', BIKE, [GUITAR]);
  // The drain sees the reservations: the circle's items leave the graph.
  await settle();
  return { ann, ben, cat, dan, eve, circleId: id };
}

/** The circle's hand-overs, giver to receiver by first letter ("AB": Ann gives to Ben). */
async function handOvers(circleId: number, people: Record<string, Member>) {
  const rows = await t.app.db
    .select()
    .from(barterRequests)
    .where(eq(barterRequests.circleId, circleId))
    .orderBy(asc(barterRequests.id));
  const initial = (userId: string | null) =>
    Object.entries(people).find(([, member]) => member.id === userId)?.[0] ?? '?';
  return new Map(rows.map((row) => [`${initial(row.fromUserId)}${initial(row.toUserId)}`, row]));
}

/** An agreed plan for hand-over `id` whose window has passed (moved in the database), and a report on it. */
async function missedAndReported(id: number, giver: Member, receiver: Member): Promise<number> {
  const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
  const plan = kit.ok<HandOverPlan>(
    await kit.call(giver, 'PUT', `/api/barter-requests/${id}/hand-over-plan`, {
      startsAt: inHours(1),
      endsAt: inHours(2),
      place: 'Central Library',
      replaces: null,
    }),
  );
  kit.ok(
    await kit.call(receiver, 'POST', `/api/barter-requests/${id}/hand-over-plan/accept`, {
      version: plan.version,
    }),
  );
  await t.app.db
    .update(handOverPlans)
    .set({ startsAt: sql`now() - interval '3 hours'`, endsAt: sql`now() - interval '2 hours'` })
    .where(eq(handOverPlans.barterRequestId, id));
  kit.ok(
    await kit.call(receiver, 'POST', `/api/barter-requests/${id}/attendance/report`, {
      version: plan.version,
    }),
  );
  const [row] = await t.app.db
    .select({ id: noShowReports.id })
    .from(noShowReports)
    .where(eq(noShowReports.barterRequestId, id));
  return (row as { id: number }).id;
}

/** The 48 hours to answer pass (the report moved back in the database). */
const answerTimePasses = (reportId: number) =>
  t.app.db
    .update(noShowReports)
    .set({ createdAt: sql`now() - interval '49 hours'` })
    .where(eq(noShowReports.id, reportId));

const runJob = () => noShowSettleJob.run(t.app);

const reservedBy = async (itemId: number) => {
  const [row] = await t.app.db
    .select({ reserved: items.reservedByRequestId })
    .from(items)
    .where(eq(items.id, itemId));
  return row?.reserved ?? null;
};

const healedCircles = (oldId: number) => t.app.db.select().from(circles).where(eq(circles.replacesId, oldId));

describe('a circle that heals after a no-show', () => {
  it('unanswered for 48 hours: the job cancels the open hand-overs, releases the items and offers a replacement once', async () => {
    const { ann, ben, cat, dan, eve, circleId } = await acceptedRingOfFour();
    const people = { A: ann, B: ben, C: cat, D: dan };
    const before = await handOvers(circleId, people);
    expect([...before.keys()].sort()).toEqual(['AB', 'BC', 'CD', 'DA']);
    const da = before.get('DA') as { id: number; fromItemId: number | null };
    const reportId = await missedAndReported(da.id, dan, ann);

    // Reported, not settled: Dan may still answer. Nothing changes, even after the job runs.
    await runJob();
    expect((await healedCircles(circleId)).length).toBe(0);
    expect((await handOvers(circleId, people)).get('DA')?.status).toBe('accepted');

    await answerTimePasses(reportId);
    await runJob();
    // Every open hand-over of the circle is cancelled and its item free again; the circle closed.
    const after = await handOvers(circleId, people);
    for (const key of ['AB', 'BC', 'CD', 'DA']) expect(after.get(key)?.status, key).toBe('cancelled');
    for (const row of after.values()) expect(await reservedBy(row.fromItemId as number)).toBeNull();
    const [old] = await t.app.db.select().from(circles).where(eq(circles.id, circleId));
    expect(old).toMatchObject({ status: 'cancelled', closedById: dan.id });

    // Those left are offered, at once, the circle with Eve in Dan's place; Ben's two hand-overs
    // (the drill from Ann, the tent to Cat) are unchanged, so his acceptance stays.
    const healed = await healedCircles(circleId);
    expect(healed).toHaveLength(1);
    const [offered] = await list(cat);
    expect(offered?.id).toBe(healed[0]?.id);
    expect(offered?.replacesId).toBe(circleId);
    expect(names(offered)).toEqual(['Ann', 'Ben', 'Cat', 'Eve']);
    expect(acceptedBy(offered as Circle)).toEqual(['Ben']);
    expect(await list(dan)).toEqual([]);
    for (const member of [ann, ben, cat, eve]) {
      const kinds = await t.app.db
        .select({ kind: notifications.kind })
        .from(notifications)
        .where(and(eq(notifications.userId, member.id), eq(notifications.circleId, offered?.id as number)));
      expect(kinds.map((row) => row.kind)).toEqual(['circle_proposed']);
    }
    // Ann's page of the missed hand-over says it was cancelled, by nobody: a member missed it.
    const annsBarter = kit.ok<Barter>(await kit.get(ann, da.id));
    expect(annsBarter).toMatchObject({ status: 'cancelled', closedBy: null, circleId });

    // The next run heals nothing again.
    await runJob();
    expect(await healedCircles(circleId)).toHaveLength(1);
    const [report] = await t.app.db.select().from(noShowReports).where(eq(noShowReports.id, reportId));
    expect(report?.healedAt).not.toBeNull();

    // The offered circle trades like any other: accepted, its hand-overs reserve the items anew.
    for (const member of [ann, cat, eve]) kit.ok(await act(member, offered?.id as number, 'accept'));
    const fresh = await handOvers(offered?.id as number, { ...people, E: eve });
    expect([...fresh.keys()].sort()).toEqual(['AB', 'BC', 'CE', 'EA']);
    for (const row of fresh.values()) {
      expect(row.status).toBe('accepted');
      expect(await reservedBy(row.fromItemId as number)).toBe(row.id);
    }
  });

  it('offers a shorter circle among those left when nobody can take the place of the one who missed', async () => {
    // Ann also wants Cat's guitar; nobody nearby has a bike for her and wants a guitar.
    const add = town();
    const ann = await add('Ann', DRILL, [BIKE, GUITAR]);
    const ben = await add('Ben', TENT, [DRILL]);
    const cat = await add('Cat', GUITAR, [TENT]);
    const dan = await add('Dan', BIKE, [GUITAR]);
    await settle();
    const [circle] = await list(ann);
    expect(names(circle)).toEqual(['Ann', 'Ben', 'Cat', 'Dan']);
    const circleId = (circle as Circle).id;
    for (const member of [ann, ben, cat, dan]) kit.ok(await act(member, circleId, 'accept'));
    await settle();
    const da = (await handOvers(circleId, { A: ann, B: ben, C: cat, D: dan })).get('DA') as { id: number };
    await answerTimePasses(await missedAndReported(da.id, dan, ann));
    await runJob();
    const [offered] = await list(ben);
    expect(offered?.replacesId).toBe(circleId);
    expect(names(offered)).toEqual(['Ann', 'Ben', 'Cat']);
    // Ben's hand-overs (the drill from Ann, the tent to Cat) stay, and so does his acceptance.
    expect(acceptedBy(offered as Circle)).toEqual(['Ben']);
    expect(await list(dan)).toEqual([]);
  });

  it('an answered report ("I was there") does not heal; a moderator\'s "missed" heals at once, and only once', async () => {
    const { ann, ben, cat, dan, circleId } = await acceptedRingOfFour();
    const people = { A: ann, B: ben, C: cat, D: dan };
    const da = (await handOvers(circleId, people)).get('DA') as { id: number };
    const reportId = await missedAndReported(da.id, dan, ann);
    kit.ok(
      await kit.call(dan, 'POST', `/api/barter-requests/${da.id}/attendance/answer`, { answer: 'was_there' }),
    );
    await answerTimePasses(reportId);
    await runJob();
    expect(await healedCircles(circleId)).toHaveLength(0);
    expect((await handOvers(circleId, people)).get('DA')?.status).toBe('accepted');

    const queue = kit.ok<DisputedNoShow[]>(await kit.call(mod, 'GET', '/api/moderation/no-shows'));
    expect(queue.some((row) => row.id === reportId)).toBe(true);
    const decided = await kit.call(mod, 'POST', `/api/moderation/no-shows/${reportId}/decision`, {
      decision: 'missed',
    });
    expect(decided.statusCode, decided.body).toBe(204);
    expect(await healedCircles(circleId)).toHaveLength(1);
    expect((await handOvers(circleId, people)).get('AB')?.status).toBe('cancelled');
    await runJob();
    expect(await healedCircles(circleId)).toHaveLength(1);
  });

  it('a hand-over already completed stays completed; "kept" heals nothing', async () => {
    const { ann, ben, cat, dan, circleId } = await acceptedRingOfFour();
    const people = { A: ann, B: ben, C: cat, D: dan };
    const legs = await handOvers(circleId, people);
    const bc = legs.get('BC') as { id: number; fromItemId: number | null };
    kit.ok(await kit.act(ben, bc.id, 'confirm'));
    kit.ok(await kit.act(cat, bc.id, 'confirm'));
    const da = legs.get('DA') as { id: number };
    const reportId = await missedAndReported(da.id, dan, ann);
    kit.ok(
      await kit.call(dan, 'POST', `/api/barter-requests/${da.id}/attendance/answer`, {
        answer: 'rescheduled',
      }),
    );
    expect(
      (await kit.call(mod, 'POST', `/api/moderation/no-shows/${reportId}/decision`, { decision: 'kept' }))
        .statusCode,
    ).toBe(204);
    expect((await handOvers(circleId, people)).get('DA')?.status).toBe('accepted');

    // A second report, on the next plan, decided missed.
    await t.app.db.delete(noShowReports).where(eq(noShowReports.id, reportId));
    await t.app.db.delete(handOverPlans).where(eq(handOverPlans.barterRequestId, da.id));
    const again = await missedAndReported(da.id, dan, ann);
    kit.ok(
      await kit.call(dan, 'POST', `/api/barter-requests/${da.id}/attendance/answer`, { answer: 'was_there' }),
    );
    expect(
      (await kit.call(mod, 'POST', `/api/moderation/no-shows/${again}/decision`, { decision: 'missed' }))
        .statusCode,
    ).toBe(204);
    const after = await handOvers(circleId, people);
    expect(after.get('BC')?.status).toBe('completed');
    for (const key of ['AB', 'CD', 'DA']) expect(after.get(key)?.status, key).toBe('cancelled');
    // Ben's tent changed hands for good: not released, not listed.
    const [tent] = await t.app.db
      .select()
      .from(items)
      .where(eq(items.id, bc.fromItemId as number));
    expect(tent).toMatchObject({ reservedByRequestId: null, isActive: false });
    for (const key of ['AB', 'CD', 'DA'])
      expect(await reservedBy(after.get(key)?.fromItemId as number), key).toBeNull();
    const [old] = await t.app.db.select().from(circles).where(eq(circles.id, circleId));
    expect(old?.status).toBe('cancelled');
  });

  it('races: the job and a moderator settling two reports about one member of one circle heal it once', async () => {
    for (let round = 0; round < 2; round++) {
      const { ann, ben, cat, dan, circleId } = await acceptedRingOfFour();
      const people = { A: ann, B: ben, C: cat, D: dan };
      const legs = await handOvers(circleId, people);
      // Ann says Dan did not bring the bike; Cat says Dan did not come for the guitar.
      const fromDan = await missedAndReported((legs.get('DA') as { id: number }).id, dan, ann);
      const toDan = await missedAndReported((legs.get('CD') as { id: number }).id, cat, dan);
      // That second report is about Cat (the reporter is the receiver): make it about Dan.
      await t.app.db
        .update(noShowReports)
        .set({ reporterId: cat.id, reportedId: dan.id })
        .where(eq(noShowReports.id, toDan));
      kit.ok(
        await kit.call(
          dan,
          'POST',
          `/api/barter-requests/${(legs.get('CD') as { id: number }).id}/attendance/answer`,
          {
            answer: 'was_there',
          },
        ),
      );
      await answerTimePasses(fromDan);
      const [, decided] = await Promise.all([
        runJob(),
        kit.call(mod, 'POST', `/api/moderation/no-shows/${toDan}/decision`, { decision: 'missed' }),
      ]);
      expect(decided.statusCode, decided.body).toBe(204);
      expect(await healedCircles(circleId)).toHaveLength(1);
      const after = await handOvers(circleId, people);
      for (const key of ['AB', 'BC', 'CD', 'DA']) expect(after.get(key)?.status, key).toBe('cancelled');
      const settled = await t.app.db
        .select({ healedAt: noShowReports.healedAt })
        .from(noShowReports)
        .where(eq(noShowReports.reportedId, dan.id));
      expect(settled.every((row) => row.healedAt !== null)).toBe(true);
    }
  });
});
