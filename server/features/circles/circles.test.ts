import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Barter, ChatMessage } from '#common/schemas/barters.ts';
import { type Circle, circleSentence } from '#common/schemas/circles.ts';
import type { FeedItem } from '#common/schemas/feed.ts';
import {
  barterRequests,
  circleChanges,
  circleMembers,
  circles,
  items,
  notifications,
} from '../../db/schema/trading';
import { users } from '../../db/schema/users';
import { createWant } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { barterKit, type Member } from '../barters/barter-test-kit';
import { requestGraph, settleMatchGraph } from '../match-graph';
import { unreadCounts } from '../notifications';
import { drainCircleChanges } from './circles-plugin';
import { findCircleViews, markCircleChanges } from './circles-repository';
import { expireDueCircleProposals, findAndPropose } from './circles-service';

let t: TestApp;
let kit: ReturnType<typeof barterKit>;

beforeAll(async () => {
  t = await buildTestApp();
  kit = barterKit(t);
});
afterAll(() => t.close());

/** The graph and the finder brought up to date, as the jobs would in the background. */
async function settle() {
  await settleMatchGraph(t.app.db);
  await drainCircleChanges(t.app.db);
}

const THINGS = [
  { title: 'Cordless drill', category: 'tools' },
  { title: 'Camping tent', category: 'rvs+camp' },
  { title: 'Acoustic guitar', category: 'music instr' },
  { title: 'Road bike', category: 'bikes' },
] as const;

interface Ring {
  members: Member[];
  items: Array<{ id: number; title: string }>;
}

/**
 * Members in a ring: member i offers thing i and wants thing i-1 (so member i gets from i-1 and
 * gives to i+1); nobody wants what the one they give to offers, so no two of them form a pair.
 */
let rings = 0;
async function ring(
  size: number,
  options: { values?: number[]; names?: string[]; before?: (members: Member[]) => Promise<void> } = {},
): Promise<Ring> {
  // Each ring in its own town, 100 miles from the others: rings never mix.
  const place = { latitude: 40 + rings++ * 1.5, longitude: -100 };
  const members: Member[] = [];
  for (let i = 0; i < size; i++) members.push(await kit.member(options.names?.[i] ?? `M${i}`, place));
  const made = [];
  for (const [i, member] of members.entries()) {
    const thing = THINGS[i] as (typeof THINGS)[number];
    made.push(
      await kit.item(member, {
        title: thing.title,
        category: thing.category,
        estimatedValue: options.values?.[i] ?? null,
      }),
    );
  }
  for (const [i, member] of members.entries()) {
    const wanted = THINGS[(i + size - 1) % size] as (typeof THINGS)[number];
    await createWant(t.app.db, { userId: member.id, title: wanted.title, category: wanted.category });
    await requestGraph(t.app.db, member.id);
  }
  await options.before?.(members);
  await settle();
  return { members, items: made.map((item) => ({ id: item.id, title: item.title })) };
}

const list = async (who: Member, box = 'proposed') =>
  kit.ok<Circle[]>(await kit.call(who, 'GET', `/api/circles?box=${box}`));
const circleAct = (who: Member, id: number, action: 'accept' | 'decline') =>
  kit.call(who, 'POST', `/api/circles/${id}/${action}`);

async function circleKinds(userId: string, circleId: number) {
  const rows = await t.app.db
    .select({ kind: notifications.kind })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.circleId, circleId)));
  return rows.map((row) => row.kind);
}

describe('a circle of three neighbours', () => {
  it('is found, proposed to each, accepted by all and traded through barters', async () => {
    const { members, items: things } = await ring(3, { names: ['Ann', 'Ben', 'Cat'] });
    const [ann, ben, cat] = members as [Member, Member, Member];
    const [drill, tent, guitar] = things as [(typeof things)[0], (typeof things)[0], (typeof things)[0]];

    // Each sees the one circle, from their own seat.
    const [seen] = await list(ann);
    expect(seen).toBeDefined();
    const circle = seen as Circle;
    expect(circle.status).toBe('proposed');
    expect(circle.steps.map((step) => step.gives.title)).toHaveLength(3);
    expect(circle.give.item.title).toBe(drill.title);
    expect(circle.give.to.displayName).toMatch(/^Ben /);
    expect(circle.get.item.title).toBe(guitar.title);
    expect(circle.get.from.displayName).toMatch(/^Cat /);
    expect(circleSentence(circle)).toBe(
      `You give your Cordless drill to ${circle.give.to.displayName}; you get Acoustic guitar from ${circle.get.from.displayName}.`,
    );
    expect(circle.allowedActions).toEqual(['accept', 'decline']);
    const expires = Date.parse(circle.expiresAt ?? '');
    expect(expires - Date.now()).toBeGreaterThan(3 * 24 * 3600_000 - 60_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(3 * 24 * 3600_000);
    for (const member of members) {
      const [theirs] = await list(member);
      expect(theirs?.id).toBe(circle.id);
      expect(await circleKinds(member.id, circle.id)).toEqual(['circle_proposed']);
    }
    const [bens] = await list(ben);
    expect(bens?.give.item.title).toBe(tent.title);
    expect(bens?.get.item.title).toBe(drill.title);

    // Barter Match shows Ann the guitar "in a circle", with the loop in words; the others are not.
    const feed = kit.ok<FeedItem[]>(await kit.call(ann, 'GET', '/api/feed/barter-match'));
    const inCircle = feed.filter((item) => item.match?.circle);
    expect(inCircle.map((item) => item.id)).toEqual([guitar.id]);
    expect(inCircle[0]?.match?.circle).toEqual({
      circleId: circle.id,
      path: `You give Cordless drill to ${circle.give.to.displayName}, ${circle.give.to.displayName} gives Camping tent to ${circle.get.from.displayName}, ${circle.get.from.displayName} gives Acoustic guitar to you`,
    });

    // An outsider learns nothing.
    const outsider = await kit.member('Dan');
    kit.refused(await kit.call(outsider, 'GET', `/api/circles/${circle.id}`), 404, 'NOT_FOUND');
    kit.refused(await circleAct(outsider, circle.id, 'accept'), 404, 'NOT_FOUND');

    // Accepting one by one; nothing is reserved until the last.
    const afterAnn = kit.ok<Circle>(await circleAct(ann, circle.id, 'accept'));
    expect(afterAnn.allowedActions).toEqual(['decline']);
    expect(afterAnn.steps.find((step) => step.me)?.accepted).toBe(true);
    kit.refused(await circleAct(ann, circle.id, 'accept'), 409, 'CIRCLE_TRANSITION');
    kit.ok(await circleAct(ben, circle.id, 'accept'));
    const reservedBefore = await t.app.db
      .select({ id: items.id })
      .from(items)
      .where(and(inArray(items.id, [drill.id, tent.id, guitar.id]), sql`reserved_by_request_id IS NOT NULL`));
    expect(reservedBefore).toEqual([]);
    const accepted = kit.ok<Circle>(await circleAct(cat, circle.id, 'accept'));
    expect(accepted.status).toBe('accepted');
    expect(accepted.allowedActions).toEqual([]);
    expect(accepted.giveBarterId).not.toBeNull();
    expect(accepted.getBarterId).not.toBeNull();
    for (const member of members)
      expect(await circleKinds(member.id, circle.id)).toContain('circle_accepted');
    expect(await list(ann)).toEqual([]);

    // Every hand-over is an accepted barter: the giver sends one item, nothing on the other side.
    const handOvers = await t.app.db
      .select()
      .from(barterRequests)
      .where(eq(barterRequests.circleId, circle.id));
    expect(handOvers).toHaveLength(3);
    expect(new Set(handOvers.map((row) => row.threadId)).size).toBe(1);
    const annView = kit.ok<Circle>(await kit.call(ann, 'GET', `/api/circles/${circle.id}`));
    const annGives = kit.ok<Barter>(await kit.get(ann, annView.giveBarterId ?? 0));
    expect(annGives).toMatchObject({
      status: 'accepted',
      role: 'sender',
      circleId: circle.id,
      requestedItems: [],
    });
    expect(annGives.offeredItems.map((item) => item.title)).toEqual([drill.title]);
    expect(annGives.otherMember.displayName).toMatch(/^Ben /);
    expect(annGives.allowedActions).toEqual(['cancel', 'confirm', 'message']);
    const reserved = await t.app.db
      .select({ id: items.id, by: items.reservedByRequestId })
      .from(items)
      .where(inArray(items.id, [drill.id, tent.id, guitar.id]));
    expect(reserved.every((row) => row.by !== null)).toBe(true);

    // One conversation for the three of them: each reads every message once.
    const bensGive = (await list(ben, 'past'))[0]?.giveBarterId ?? 0;
    const sent = kit.ok<ChatMessage>(
      await kit.call(ann, 'POST', `/api/barter-requests/${annGives.id}/messages`, {
        content: 'Saturday at 10?',
      }),
      201,
    );
    expect(sent.fromMe).toBe(true);
    kit.ok(
      await kit.call(cat, 'POST', `/api/barter-requests/${accepted.getBarterId}/messages`, {
        content: 'Works for me',
      }),
      201,
    );
    for (const [member, own] of [
      [ann, annGives.id],
      [ben, bensGive],
      [cat, accepted.getBarterId ?? 0],
    ] as const) {
      const conversation = kit.ok<ChatMessage[]>(
        await kit.call(member, 'GET', `/api/barter-requests/${own}/messages`),
      );
      expect(conversation.map((message) => message.content)).toEqual(['Saturday at 10?', 'Works for me']);
    }
    expect((await unreadCounts(t.app.db, ben.id)).messages).toBe(2);
    kit.ok(await kit.call(ben, 'POST', `/api/barter-requests/${bensGive}/messages/read`));
    expect((await unreadCounts(t.app.db, ben.id)).messages).toBe(0);
    const bensEntries = await t.app.db
      .select({ id: notifications.id })
      .from(notifications)
      .where(
        and(
          eq(notifications.userId, ben.id),
          eq(notifications.kind, 'message_received'),
          sql`read_at IS NULL`,
        ),
      );
    expect(bensEntries).toEqual([]);

    // Both sides of each hand-over confirm; the last completes the circle.
    for (const row of handOvers) {
      const giver = members.find((member) => member.id === row.fromUserId) as Member;
      const taker = members.find((member) => member.id === row.toUserId) as Member;
      kit.ok(await kit.act(giver, row.id, 'confirm'));
      kit.ok(await kit.act(taker, row.id, 'confirm'));
    }
    const [done] = await t.app.db
      .select({ status: circles.status })
      .from(circles)
      .where(eq(circles.id, circle.id));
    expect(done?.status).toBe('completed');
    const retired = await t.app.db
      .select({ active: items.isActive })
      .from(items)
      .where(inArray(items.id, [drill.id, tent.id, guitar.id]));
    expect(retired.every((row) => !row.active)).toBe(true);

    // Each member's Trade History has their two hand-overs.
    for (const member of members) {
      // (The history shows the member their own e-mail, so it is read without the privacy check.)
      const trades = kit.ok<Array<{ fromUserId: string; fromItem: { title: string } | null }>>(
        await t.app.inject({ method: 'GET', url: `/api/users/${member.id}/trades`, cookies: member.cookies }),
      );
      expect(trades).toHaveLength(2);
      const gave = trades.find((trade) => trade.fromUserId === member.id);
      const got = trades.find((trade) => trade.fromUserId !== member.id);
      const index = members.indexOf(member);
      expect(gave?.fromItem?.title).toBe(things[index]?.title);
      expect(got?.fromItem?.title).toBe(things[(index + 2) % 3]?.title);
    }
  });

  it('dissolves when one declines, tells the others, and is not proposed again', async () => {
    const { members } = await ring(3);
    const [a, b, c] = members as [Member, Member, Member];
    const [circle] = await list(a);
    kit.ok(await circleAct(a, circle?.id ?? 0, 'accept'));
    const declined = kit.ok<Circle>(await circleAct(b, circle?.id ?? 0, 'decline'));
    expect(declined.status).toBe('declined');
    expect(declined.closedBy?.id).toBe(b.id);
    expect(await circleKinds(a.id, circle?.id ?? 0)).toEqual(['circle_proposed', 'circle_declined']);
    expect(await circleKinds(c.id, circle?.id ?? 0)).toEqual(['circle_proposed', 'circle_declined']);
    expect(await circleKinds(b.id, circle?.id ?? 0)).toEqual(['circle_proposed']);
    kit.refused(await circleAct(c, circle?.id ?? 0, 'accept'), 409, 'CIRCLE_TRANSITION');
    await settle();
    expect(await list(a)).toEqual([]);
    expect((await list(a, 'past')).map((row) => row.status)).toEqual(['declined']);
    const run = await findAndPropose(t.app.db, null);
    expect(run.proposed).toEqual([]);
  });

  it('expires after three days unanswered, before and after the sweep', async () => {
    const { members } = await ring(3);
    const [a] = members as [Member];
    const [circle] = await list(a);
    const id = circle?.id ?? 0;
    await t.app.db
      .update(circles)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(circles.id, id));
    const overdue = kit.ok<Circle>(await kit.call(a, 'GET', `/api/circles/${id}`));
    expect(overdue.status).toBe('expired');
    expect(overdue.allowedActions).toEqual([]);
    kit.refused(await circleAct(a, id, 'accept'), 409, 'CIRCLE_TRANSITION');
    expect(await expireDueCircleProposals(t.app.db)).toBeGreaterThanOrEqual(1);
    expect(await expireDueCircleProposals(t.app.db)).toBe(0);
    for (const member of members)
      expect(await circleKinds(member.id, id)).toEqual(['circle_proposed', 'circle_expired']);
  });

  it("reads several circles at once, each only for its own members (Barter Match's marks)", async () => {
    const first = await ring(3);
    const second = await ring(3);
    const [ann] = first.members as [Member];
    const [dan] = second.members as [Member];
    const ids = [(await list(ann))[0]?.id ?? 0, (await list(dan))[0]?.id ?? 0];
    expect(ids[0]).not.toBe(ids[1]);
    const seen = async (who: Member) =>
      (await findCircleViews(t.app.db, who.id, ids)).map((view) => ({
        id: view.row.id,
        members: view.steps.map((step) => step.member?.id).sort(),
      }));
    const idsOf = (ring: Ring) => ring.members.map((member) => member.id).sort();
    expect(await seen(ann)).toEqual([{ id: ids[0], members: idsOf(first) }]);
    expect(await seen(dan)).toEqual([{ id: ids[1], members: idsOf(second) }]);
    expect(await seen(await kit.member('Eve'))).toEqual([]);
    expect(await findCircleViews(t.app.db, ann.id, [])).toEqual([]);
  });
});

describe('what the finder proposes', () => {
  it('never proposes a circle of two: a mutual pair stays a barter suggestion (issue 30, ADR 074)', async () => {
    // Each wants what the other has.
    const { members, items: made } = await ring(2);
    const [ann, ben] = members as [Member, Member];
    expect(await list(ann)).toEqual([]);
    expect(await list(ben)).toEqual([]);
    const stored = await t.app.db
      .select({ circleId: circleMembers.circleId })
      .from(circleMembers)
      .where(inArray(circleMembers.memberId, [ann.id, ben.id]));
    expect(stored).toEqual([]);
    // Barter Match offers each the other's item as a mutual match, with their own item to propose.
    const feed = kit.ok<FeedItem[]>(await kit.call(ann, 'GET', '/api/feed/barter-match'));
    const theirs = feed.find((item) => item.id === made[1]?.id);
    expect(theirs?.match).toMatchObject({ mutual: true, yourItemId: made[0]?.id });
    expect(theirs?.match?.circle).toBeUndefined();
    // Their proposal is the one trade between them; a third member completes a circle of three.
    kit.ok(await kit.propose(ann, [made[0]?.id as number], [made[1]?.id as number]), 201);
    await settle();
    expect(await list(ben)).toEqual([]);
  });

  it('prefers the circle that trades the most members, and only within both travel distances', async () => {
    const { members } = await ring(4);
    const [first] = await list(members[0] as Member);
    expect(first?.steps).toHaveLength(4);

    // The same ring with one member 30 miles away: within the graph's 50 miles, beyond the
    // travel distance of 25 miles; with 40 miles of travel on both sides, it is proposed.
    const moveAway = (travel: number) => async (members: Member[]) => {
      const [moved] = await t.app.db
        .select({ latitude: users.latitude })
        .from(users)
        .where(eq(users.id, (members[2] as Member).id));
      await t.app.db
        .update(users)
        .set({ latitude: (moved?.latitude ?? 0) + 30 / 69 })
        .where(eq(users.id, (members[2] as Member).id));
      await t.app.db
        .update(users)
        .set({ maxTravelDistance: travel })
        .where(
          inArray(
            users.id,
            members.map((member) => member.id),
          ),
        );
    };
    const far = await ring(3, { before: moveAway(25) });
    expect(await list(far.members[0] as Member)).toEqual([]);
    const reachable = await ring(3, { before: moveAway(40) });
    expect(await list(reachable.members[0] as Member)).toHaveLength(1);
  });

  it('leaves out circles where someone gives far more than they get', async () => {
    const unfair = await ring(3, { values: [400, 20, 30] });
    expect(await list(unfair.members[0] as Member)).toEqual([]);
    const fair = await ring(3, { values: [40, 35, 50] });
    expect(await list(fair.members[0] as Member)).toHaveLength(1);
  });

  it('leaves out members who block another member of the circle', async () => {
    const blocked = await ring(3);
    const [a, , c] = blocked.members as [Member, Member, Member];
    // a gives to b and gets from c; a and c never hand over to each other directly... but a blocks c.
    await t.app.db.execute(
      sql`INSERT INTO member_blocks (blocker_id, blocked_id) VALUES (${a.id}::uuid, ${c.id}::uuid)`,
    );
    await t.app.db
      .delete(circles)
      .where(sql`id IN (SELECT circle_id FROM circle_members WHERE member_id = ${a.id}::uuid)`);
    const run = await findAndPropose(t.app.db, [a.id]);
    expect(run.proposed).toEqual([]);
  });

  it('dissolves a proposed circle when one of its items is reserved in another barter', async () => {
    const { members, items: things } = await ring(3);
    const [a, b] = members as [Member, Member];
    const [circle] = await list(a);
    kit.ok(await circleAct(a, circle?.id ?? 0, 'accept'));
    // b's item goes to a newcomer in a two-way barter meanwhile.
    const other = await kit.member('Other');
    const offered = await kit.item(other);
    const proposal = kit.ok(await kit.propose(other, [offered.id], [things[1]?.id ?? 0]), 201);
    kit.ok(await kit.act(b, proposal.id, 'accept'));
    // The change reaches the finder, which dissolves the circle and tells everyone.
    await settle();
    const [after] = await list(a, 'past');
    expect(after?.status).toBe('cancelled');
    for (const member of members)
      expect(await circleKinds(member.id, circle?.id ?? 0)).toContain('circle_unavailable');
    kit.refused(await circleAct(b, circle?.id ?? 0, 'accept'), 409, 'CIRCLE_TRANSITION');
  });

  it('an item gone at the last accept answers 409 and dissolves the circle', async () => {
    const { members, items: things } = await ring(3);
    const [a, b, c] = members as [Member, Member, Member];
    const [circle] = await list(a);
    expect(circle?.steps).toHaveLength(3);
    kit.ok(await circleAct(a, circle?.id ?? 0, 'accept'));
    kit.ok(await circleAct(b, circle?.id ?? 0, 'accept'));
    await t.app.db
      .update(items)
      .set({ isActive: false })
      .where(eq(items.id, things[0]?.id ?? 0));
    kit.refused(await circleAct(c, circle?.id ?? 0, 'accept'), 409, 'CIRCLE_ITEM_UNAVAILABLE');
    const [stored] = await t.app.db
      .select({ status: circles.status })
      .from(circles)
      .where(eq(circles.id, circle?.id ?? 0));
    expect(stored?.status).toBe('cancelled');
    expect(
      await t.app.db
        .select()
        .from(barterRequests)
        .where(eq(barterRequests.circleId, circle?.id ?? 0)),
    ).toEqual([]);
  });
});

describe('races and cancellations', () => {
  it('two last accepts at once make one set of hand-overs', async () => {
    const { members } = await ring(3);
    const [a, b, c] = members as [Member, Member, Member];
    const [circle] = await list(a);
    const id = circle?.id ?? 0;
    kit.ok(await circleAct(a, id, 'accept'));
    const answers = await Promise.all([circleAct(b, id, 'accept'), circleAct(c, id, 'accept')]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 200]);
    expect(await t.app.db.select().from(barterRequests).where(eq(barterRequests.circleId, id))).toHaveLength(
      3,
    );
    // An accept (not the last) and a decline at once: the decline always wins. If the accept came
    // first, both are answered 200; if the decline did, the accept is told the circle moved on.
    const second = await ring(3);
    const [x, y, z] = second.members as [Member, Member, Member];
    const [other] = await list(x);
    kit.ok(await circleAct(x, other?.id ?? 0, 'accept'));
    const [accepted, declined] = await Promise.all([
      circleAct(y, other?.id ?? 0, 'accept'),
      circleAct(z, other?.id ?? 0, 'decline'),
    ]);
    expect(declined.statusCode, declined.body).toBe(200);
    if (accepted.statusCode !== 200) kit.refused(accepted, 409, 'CIRCLE_TRANSITION');
    const [row] = await t.app.db
      .select({ status: circles.status })
      .from(circles)
      .where(eq(circles.id, other?.id ?? 0));
    expect(row?.status).toBe('declined');
    expect(
      await t.app.db
        .select()
        .from(barterRequests)
        .where(eq(barterRequests.circleId, other?.id ?? 0)),
    ).toEqual([]);
  });

  it('cancelling one hand-over cancels the circle and frees every item', async () => {
    const { members, items: things } = await ring(3);
    const [circle] = await list(members[0] as Member);
    for (const member of members) kit.ok(await circleAct(member, circle?.id ?? 0, 'accept'));
    const mine = kit.ok<Circle>(await kit.call(members[1] as Member, 'GET', `/api/circles/${circle?.id}`));
    kit.ok(await kit.act(members[1] as Member, mine.giveBarterId ?? 0, 'cancel', { reason: 'My tent tore' }));
    const legs = await t.app.db
      .select()
      .from(barterRequests)
      .where(eq(barterRequests.circleId, circle?.id ?? 0));
    expect(legs.map((leg) => leg.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    const freed = await t.app.db
      .select({ by: items.reservedByRequestId, active: items.isActive })
      .from(items)
      .where(
        inArray(
          items.id,
          things.map((thing) => thing.id),
        ),
      );
    expect(freed.every((row) => row.by === null && row.active)).toBe(true);
    const [row] = await t.app.db
      .select({ status: circles.status })
      .from(circles)
      .where(eq(circles.id, circle?.id ?? 0));
    expect(row?.status).toBe('cancelled');
  });
});

describe("the member's data export", () => {
  it('holds their trade circles: state, the loop in order, their hand-overs; others by id only', async () => {
    const { members } = await ring(3, { names: ['Xena', 'Yuri', 'Zoe'] });
    const [x] = members as [Member, Member, Member];
    const [circle] = await list(x);
    for (const member of members) kit.ok(await circleAct(member, circle?.id ?? 0, 'accept'));
    const exported = kit.ok<{
      tradeCircles: Array<{
        id: number;
        status: string;
        loop: Array<{
          me: boolean;
          memberId: string;
          barterRequestId: number | null;
          gives: { title: string };
        }>;
      }>;
      barters: Array<{ circleId: number | null }>;
    }>(
      // Not through kit.call: the export holds the member's own address and position.
      await t.app.inject({ method: 'GET', url: '/api/account/export', cookies: x.cookies }),
    );
    expect(exported.tradeCircles).toHaveLength(1);
    const [mine] = exported.tradeCircles;
    expect(mine).toMatchObject({ id: circle?.id, status: 'accepted' });
    expect(mine?.loop).toHaveLength(3);
    expect(mine?.loop.filter((step) => step.me)).toHaveLength(1);
    expect(mine?.loop.map((step) => step.memberId).sort()).toEqual(members.map((m) => m.id).sort());
    expect(mine?.loop.every((step) => step.barterRequestId !== null)).toBe(true);
    expect(exported.barters.filter((barter) => barter.circleId === circle?.id)).toHaveLength(2);
    const text = JSON.stringify(exported.tradeCircles);
    for (const other of members.slice(1)) {
      const [row] = await t.app.db.select().from(users).where(eq(users.id, other.id));
      expect(text).not.toContain(row?.email ?? '@');
      expect(text).not.toContain(row?.firstName ?? 'Yuri');
    }
  });
});

describe('the change log', () => {
  it('holds a member once until the finder drains it, however often their matches move', async () => {
    const someone = await kit.member('Often');
    const count = async () =>
      (
        await t.app.db
          .select({ id: circleChanges.id })
          .from(circleChanges)
          .where(eq(circleChanges.memberId, someone.id))
      ).length;
    for (let i = 0; i < 5; i++) await markCircleChanges(t.app.db, [someone.id, someone.id, null]);
    // Two transactions logging the same member at once: no error, still one row.
    await Promise.all([markCircleChanges(t.app.db, [someone.id]), markCircleChanges(t.app.db, [someone.id])]);
    expect(await count()).toBe(1);
    await drainCircleChanges(t.app.db);
    expect(await count()).toBe(0);
    await markCircleChanges(t.app.db, [someone.id]);
    expect(await count()).toBe(1);
  });
});

describe('hostile input', () => {
  it('answers 400 to ids and boxes that are not what they should be', async () => {
    const someone = await kit.member('Eve');
    for (const url of [
      '/api/circles/abc',
      '/api/circles/0',
      '/api/circles/1e3',
      '/api/circles/%2e%2e',
      '/api/circles/99999999999',
    ]) {
      const response = await kit.call(someone, 'GET', url);
      expect([400, 404], `${url}: ${response.body}`).toContain(response.statusCode);
    }
    kit.refused(await kit.call(someone, 'GET', '/api/circles?box=everything'), 400, 'VALIDATION_FAILED');
    kit.refused(await kit.call(someone, 'POST', '/api/circles/1/accept%00'), 404, 'NOT_FOUND');
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/circles' });
    expect(anonymous.statusCode).toBe(401);
  });
});
