import type { PGlite } from '@electric-sql/pglite';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import * as schema from '../../db/schema/index';
import {
  barterRequestItems,
  barterRequests,
  circleMembers,
  circles,
  items,
  memberEvents,
  notifications,
  swapDayMembers,
  swapDayOffers,
  swapDays,
  swapDayWants,
} from '../../db/schema/trading';
import type { UserRow } from '../../db/schema/users';
import { createItem, createUser } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { barterKit, type Member } from '../barters/barter-test-kit';
import { matchSwapDay } from './swap-day-match';

/**
 * Storing a solved swap day set-wise (ADR 056): the statements a match sends do not grow with the
 * number of hand-overs, and what is stored is every row one hand-over at a time stored.
 */
describe('storing a solved swap day', () => {
  let t: TestApp;
  let kit: ReturnType<typeof barterKit>;
  let statements = 0;
  /** The app's database through a drizzle handle that counts every statement sent. */
  let counted: Db;

  beforeAll(async () => {
    t = await buildTestApp();
    kit = barterKit(t);
    const logger = {
      logQuery: () => {
        statements++;
      },
    };
    const client = (t.app.db as unknown as { $client: unknown }).$client;
    counted = (t.database.kind === 'pglite'
      ? drizzlePglite(client as PGlite, { schema, logger })
      : drizzlePg(client as pg.Pool, { schema, logger })) as unknown as Db;
  });
  afterAll(() => t.close());

  /**
   * An open swap day (written directly) whose only full solution is known: members in loops of the
   * given sizes, each offering one item that wants the next member's item of its loop; the first `extra` members also bring a
   * second item going around their own loop (so they trade twice and are told once), and every
   * fifth member an item nobody wants. An outsider's pending proposal asks for each of the first
   * `proposals` loop items.
   */
  async function matchingDay(prefix: string, sizes: number[], extra: number, proposals: number) {
    const db = t.app.db;
    const total = sizes.reduce((sum, size) => sum + size, 0);
    const members: UserRow[] = [];
    for (let n = 0; n < total; n++) {
      members.push(await createUser(db, { firstName: `${prefix}${n}`, lastName: 'Swapper' }));
    }
    const [day] = await db
      .insert(swapDays)
      .values({
        organiserId: members[0]?.id,
        name: `${prefix} swap day`,
        place: 'Community hall',
        startsAt: new Date(Date.now() + 7_200_000),
        deadline: new Date(Date.now() + 3_600_000),
      })
      .returning({ id: swapDays.id });
    const dayId = day?.id as number;
    await db
      .insert(swapDayMembers)
      .values(members.map((member) => ({ swapDayId: dayId, memberId: member.id })));
    const offers: Array<{ itemId: number; memberId: string }> = [];
    const wants: Array<{ offerItemId: number; wantedItemId: number; rank: number }> = [];
    const loopItems: number[][] = [];
    const ring = async (owners: typeof members, title: string) => {
      const ids: number[] = [];
      for (const owner of owners) ids.push((await createItem(db, { userId: owner.id, title })).id);
      ids.forEach((id, index) => {
        offers.push({ itemId: id, memberId: owners[index]?.id as string });
        wants.push({ offerItemId: id, wantedItemId: ids[(index + 1) % ids.length] as number, rank: 1 });
      });
      loopItems.push(ids);
    };
    let start = 0;
    for (const size of sizes) {
      await ring(members.slice(start, start + size), `${prefix} loop item`);
      start += size;
    }
    if (extra > 0) await ring(members.slice(0, extra), `${prefix} second item`);
    for (const [index, member] of members.entries()) {
      if (index % 5 !== 0) continue;
      const unwanted = await createItem(db, { userId: member.id, title: `${prefix} unwanted` });
      offers.push({ itemId: unwanted.id, memberId: member.id });
    }
    await db.insert(swapDayOffers).values(offers.map((offer) => ({ swapDayId: dayId, ...offer })));
    await db.insert(swapDayWants).values(wants.map((want) => ({ swapDayId: dayId, ...want })));

    // Outsiders' pending proposals for loop items: they can no longer be accepted once matched.
    const outsider: Member = await kit.member(`${prefix}Outsider`);
    const pending: number[] = [];
    for (const itemId of loopItems.flat().slice(0, proposals)) {
      const offered = await kit.item(outsider);
      const barter = kit.ok(await kit.propose(outsider, [offered.id], [itemId]), 201);
      pending.push(barter.id);
    }
    return { dayId, members, loopItems, outsider, pending, traded: loopItems.flat() };
  }

  /**
   * The app's own match job stopped (it would race this test's runs for a 'matching' day), once the
   * set-up's calls through the API are done.
   */
  async function stopTheJob(): Promise<void> {
    await t.app.jobs.started();
    await t.app.jobs.stop();
  }

  /**
   * Close the swap day as the deadline sweep would ('matching', waiting) and match it through the
   * counting handle; the statements it sent.
   */
  async function matchCounting(dayId: number): Promise<number> {
    await t.app.db
      .update(swapDays)
      .set({ status: 'matching', matchStage: 'waiting', deadline: new Date(Date.now() - 60_000) })
      .where(eq(swapDays.id, dayId));
    statements = 0;
    expect(await matchSwapDay(counted, dayId, { totalSeconds: 30 })).toBe('solved');
    return statements;
  }

  it('a 100-member day is stored in as many statements as a 5-member one, and stored whole', async () => {
    const small = await matchingDay('Small', [2, 3], 0, 1);

    // 100 members in 20 loops of 2, 3, 5 and 10; 10 of them also in an 11th-size loop of their own.
    const big = await matchingDay(
      'Big',
      [2, 3, 5, 10, 2, 3, 5, 10, 2, 3, 5, 10, 2, 3, 5, 10, 2, 3, 5, 10],
      10,
      5,
    );
    await stopTheJob();
    const smallCount = await matchCounting(small.dayId);
    const bigCount = await matchCounting(big.dayId);
    const db = t.app.db;
    const handOvers = big.traded.length;
    expect(handOvers).toBe(110);

    const [row] = await db.select().from(swapDays).where(eq(swapDays.id, big.dayId));
    expect(row).toMatchObject({ status: 'solved', itemsTraded: 110, membersTrading: 100, matchStage: null });

    // Every loop an accepted circle of the swap day with no shared thread, each step a hand-over.
    const loops = await db
      .select()
      .from(circles)
      .where(eq(circles.swapDayId, big.dayId))
      .orderBy(asc(circles.id));
    expect(loops.map((loop) => [loop.status, loop.threadId])).toEqual(loops.map(() => ['accepted', null]));
    expect(loops.map((loop) => loop.size).sort()).toEqual([...big.loopItems.map((ids) => ids.length)].sort());
    const steps = await db
      .select()
      .from(circleMembers)
      .where(
        inArray(
          circleMembers.circleId,
          loops.map((loop) => loop.id),
        ),
      )
      .orderBy(asc(circleMembers.circleId), asc(circleMembers.position));
    expect(steps).toHaveLength(handOvers);
    const barters = new Map(
      (
        await db
          .select()
          .from(barterRequests)
          .where(
            inArray(
              barterRequests.circleId,
              loops.map((loop) => loop.id),
            ),
          )
      ).map((barter) => [barter.id, barter]),
    );
    expect(barters.size).toBe(handOvers);
    const reserved = new Map(
      (
        await db
          .select({ id: items.id, reservedBy: items.reservedByRequestId })
          .from(items)
          .where(inArray(items.id, big.traded))
      ).map((item) => [item.id, item.reservedBy]),
    );
    const sides = await db
      .select()
      .from(barterRequestItems)
      .where(inArray(barterRequestItems.barterRequestId, [...barters.keys()]));
    expect(sides).toHaveLength(handOvers);
    for (const step of steps) {
      const size = loops.find((loop) => loop.id === step.circleId)?.size as number;
      const next = steps.find(
        (other) => other.circleId === step.circleId && other.position === (step.position + 1) % size,
      );
      const barter = barters.get(step.barterRequestId as number);
      expect(barter, `hand-over ${step.circleId}/${step.position}`).toMatchObject({
        status: 'accepted',
        fromUserId: step.memberId,
        toUserId: next?.memberId,
        fromItemId: step.itemId,
        toItemId: null,
        circleId: step.circleId,
        threadId: step.barterRequestId,
        expiresAt: null,
      });
      expect(barter?.acceptedAt).toBeInstanceOf(Date);
      // The item reserved for its hand-over, and the barter's one 'from' item as it was.
      expect(reserved.get(step.itemId as number)).toBe(step.barterRequestId);
      expect(sides.filter((side) => side.barterRequestId === step.barterRequestId)).toEqual([
        expect.objectContaining({ itemId: step.itemId, side: 'from', position: 0, title: step.title }),
      ]);
    }
    // Within a loop, the hand-overs in step order.
    for (const loop of loops) {
      const ids = steps
        .filter((step) => step.circleId === loop.id)
        .map((step) => step.barterRequestId as number);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    }

    // Each trading member told once, about their first hand-over; both sides of every pending
    // proposal for a traded item told it can no longer be accepted (it stays pending).
    const told = await db
      .select()
      .from(notifications)
      .where(
        and(
          inArray(
            notifications.userId,
            big.members.map((member) => member.id),
          ),
          eq(notifications.kind, 'swap_day_solved'),
        ),
      );
    expect(told).toHaveLength(100);
    for (const member of big.members) {
      const first = Math.min(
        ...[...barters.values()]
          .filter((barter) => barter.fromUserId === member.id)
          .map((barter) => barter.id),
      );
      expect(told.filter((entry) => entry.userId === member.id)).toEqual([
        expect.objectContaining({
          barterRequestId: first,
          circleId: barters.get(first)?.circleId,
          actorId: null,
        }),
      ]);
    }
    const unavailable = await db
      .select()
      .from(notifications)
      .where(
        and(
          inArray(notifications.barterRequestId, big.pending),
          eq(notifications.kind, 'proposal_unavailable'),
        ),
      );
    expect(unavailable).toHaveLength(big.pending.length * 2);
    const stillPending = await db
      .select({ status: barterRequests.status })
      .from(barterRequests)
      .where(inArray(barterRequests.id, big.pending));
    expect(stillPending.map((barter) => barter.status)).toEqual(big.pending.map(() => 'pending'));

    // Every entry pushed with the member's unread counts right after it; every hand-over's two
    // members' pages told of it; every member's swap-day page told.
    const events = await db
      .select()
      .from(memberEvents)
      .where(inArray(memberEvents.userId, [...big.members.map((member) => member.id), big.outsider.id]))
      .orderBy(asc(memberEvents.id));
    const entryIds = [...told, ...unavailable].map((entry) => entry.id).sort((a, b) => a - b);
    const pushed = events.flatMap((event) => {
      if (event.type !== 'notification') return [];
      const data = event.data as { notification: { id: number }; counts: { notifications: number } };
      // The entries of the store (the proposals' own 'received' entries came before).
      if (data.notification.id < (entryIds[0] as number)) return [];
      return [{ userId: event.userId, id: data.notification.id, unread: data.counts.notifications }];
    });
    expect(pushed.map((entry) => entry.id).sort((a, b) => a - b)).toEqual(entryIds);
    const outsiderUnread = pushed
      .filter((entry) => entry.userId === big.outsider.id)
      .map((entry) => entry.unread);
    const before = (outsiderUnread[0] ?? 1) - 1;
    expect(outsiderUnread).toEqual(big.pending.map((_, index) => before + index + 1));
    // The first five members had each received one proposal (unread): told it is unavailable, then
    // that the day is solved; the next five only that it is solved.
    const unreadOf = (member: { id: string }) =>
      pushed.filter((entry) => entry.userId === member.id).map((entry) => entry.unread);
    for (const member of big.members.slice(0, 5)) expect(unreadOf(member)).toEqual([2, 3]);
    for (const member of big.members.slice(5, 10)) expect(unreadOf(member)).toEqual([1]);
    const barterTold = new Set(
      events.flatMap((event) =>
        event.type === 'barter'
          ? [`${event.userId} ${(event.data as { barterRequestId: number }).barterRequestId}`]
          : [],
      ),
    );
    for (const barter of barters.values()) {
      expect(barterTold.has(`${barter.fromUserId} ${barter.id}`)).toBe(true);
      expect(barterTold.has(`${barter.toUserId} ${barter.id}`)).toBe(true);
    }
    for (const id of big.pending) expect(barterTold.has(`${big.outsider.id} ${id}`)).toBe(true);
    const lastPush = Math.max(
      ...events.filter((event) => event.type === 'notification').map((event) => event.id),
    );
    const dayTold = events.filter(
      (event) =>
        event.type === 'swapDay' &&
        (event.data as { swapDayId: number }).swapDayId === big.dayId &&
        event.id > lastPush,
    );
    expect(new Set(dayTold.map((event) => event.userId)).size).toBe(100);

    // The statements: the same for 110 hand-overs among 100 members as for 5 among 5, and few (38
    // on PGlite; 48 on PostgreSQL, where each of the five transactions' BEGIN and COMMIT count too).
    // One hand-over at a time sent 91 and 1,161.
    expect({ small: smallCount, big: bigCount }).toEqual({ small: smallCount, big: smallCount });
    expect(bigCount).toBeLessThan(60);

    // A second run stores nothing more: the swap day is no longer matching.
    statements = 0;
    expect(await matchSwapDay(counted, big.dayId, { totalSeconds: 30 })).toBe('skipped');
    const [{ n } = { n: 0 }] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(barterRequests)
      .where(
        inArray(
          barterRequests.circleId,
          loops.map((loop) => loop.id),
        ),
      );
    expect(n).toBe(handOvers);
  }, 180_000);
});
