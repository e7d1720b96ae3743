import { and, eq } from 'drizzle-orm';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '#common/error-codes.ts';
import { BARTER_ERROR_CODES } from '#common/schemas/barters.ts';
import { HAND_OVER_PLAN_ERROR_CODES, type HandOverPlan } from '#common/schemas/hand-over-plans.ts';
import type { Notification } from '#common/schemas/notifications.ts';
import { circles, memberEvents, notifications } from '../../db/schema/trading';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { barterKit, type Member } from './barter-test-kit';
import { createHandOvers } from './hand-overs';

// Planning the hand-over (issue 30, ADR 077): one current plan per accepted barter, its answers,
// "I'm running late", and the calendar file.

let t: TestApp;
let kit: ReturnType<typeof barterKit>;
let ann: Member;
let ben: Member;
let cat: Member;

beforeAll(async () => {
  t = await buildTestApp({ BARTER_PROPOSAL_RATE_LIMIT: '100000' });
  kit = barterKit(t);
  ann = await kit.member('Ann');
  ben = await kit.member('Ben');
  cat = await kit.member('Cat');
});
afterAll(() => t.close());

const HOUR = 3_600_000;
const at = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();
const url = (id: number, tail = '') => `/api/barter-requests/${id}/hand-over-plan${tail}`;

async function accepted(from = ann, to = ben) {
  const { barter } = await kit.pending(from, to);
  kit.ok(await kit.act(to, barter.id, 'accept'));
  return barter.id;
}

const read = (who: Member, id: number) => kit.call(who, 'GET', url(id));
const propose = (who: Member, id: number, replaces: number | null, overrides: Record<string, unknown> = {}) =>
  kit.call(who, 'PUT', url(id), {
    startsAt: at(24),
    endsAt: at(25),
    place: 'Central Library, main entrance',
    replaces,
    ...overrides,
  });
const accept = (who: Member, id: number, version: number) =>
  kit.call(who, 'POST', url(id, '/accept'), { version });
const late = (who: Member, id: number, version: number, minutes: unknown) =>
  kit.call(who, 'POST', url(id, '/late'), { version, minutes });

/** The file's one event, read by ical.js (a parser that checks the RFC 5545 shape). */
function eventOf(body: string): ICAL.Event {
  const vevent = new ICAL.Component(ICAL.parse(body)).getFirstSubcomponent('vevent');
  if (!vevent) throw new Error(`no VEVENT in ${body}`);
  return new ICAL.Event(vevent);
}

async function latestNotification(userId: string, id: number) {
  const [row] = await kit
    .db()
    .select({ kind: notifications.kind, count: notifications.count, actorId: notifications.actorId })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.barterRequestId, id)))
    .orderBy(notifications.id)
    .limit(100)
    .then((rows) => rows.slice(-1));
  return row;
}

describe('hand-over plans', () => {
  it('one proposes, the other suggests another, the first accepts: agreed, each told at once', async () => {
    const id = await accepted();
    expect(kit.ok(await read(ann, id))).toBeNull();
    const first = kit.ok<HandOverPlan>(await propose(ann, id, null));
    expect(first).toMatchObject({
      version: 1,
      state: 'proposed',
      proposedBy: 'me',
      place: 'Central Library, main entrance',
    });
    expect(kit.ok<HandOverPlan>(await read(ben, id))).toMatchObject({ version: 1, proposedBy: 'other' });
    expect(await latestNotification(ben.id, id)).toMatchObject({
      kind: 'hand_over_proposed',
      actorId: ann.id,
    });
    // Ann cannot accept her own proposal.
    kit.refused(await accept(ann, id, 1), 409, HAND_OVER_PLAN_ERROR_CODES.state);
    // Ben suggests another: it replaces Ann's and waits for her.
    const second = kit.ok<HandOverPlan>(await propose(ben, id, 1, { place: 'Station café' }));
    expect(second).toMatchObject({ version: 2, state: 'proposed', proposedBy: 'me', place: 'Station café' });
    expect(await latestNotification(ann.id, id)).toMatchObject({
      kind: 'hand_over_proposed',
      actorId: ben.id,
    });
    kit.refused(await accept(ben, id, 2), 409, HAND_OVER_PLAN_ERROR_CODES.state);
    const agreed = kit.ok<HandOverPlan>(await accept(ann, id, 2));
    expect(agreed).toMatchObject({ version: 2, state: 'agreed', proposedBy: 'other' });
    expect(agreed.agreedAt).not.toBeNull();
    expect(await latestNotification(ben.id, id)).toMatchObject({ kind: 'hand_over_agreed', actorId: ann.id });
    kit.refused(await accept(ben, id, 2), 409, HAND_OVER_PLAN_ERROR_CODES.state);
    // Both members' pages heard of each change ('barter' events).
    expect((await kit.barterEventsFor([ann.id], id)).length).toBeGreaterThanOrEqual(3);
    expect((await kit.barterEventsFor([ben.id], id)).length).toBeGreaterThanOrEqual(3);
  });

  it('a stale accept is 409 with the current version; two proposals at once: one wins, the other 409', async () => {
    const id = await accepted();
    kit.ok(await propose(ann, id, null));
    // Ben accepts version 1 while Ann has changed it to version 2.
    kit.ok(await propose(ann, id, 1, { place: 'Park gate' }));
    const stale = kit.refused(await accept(ben, id, 1), 409, HAND_OVER_PLAN_ERROR_CODES.changed);
    expect(stale).toMatchObject({ reason: '2' });
    expect(kit.ok<HandOverPlan>(await read(ben, id)).state).toBe('proposed');
    for (let round = 0; round < 5; round++) {
      const other = await accepted();
      const answers = await Promise.all([
        propose(ann, other, null, { place: 'Library' }),
        propose(ben, other, null, { place: 'Station' }),
      ]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect(answers.find((r) => r.statusCode === 409)?.json().code).toBe(HAND_OVER_PLAN_ERROR_CODES.changed);
      expect(kit.ok<HandOverPlan>(await read(ann, other)).version).toBe(1);
    }
    // An accept and a change at once: whichever comes second finds the other's result.
    for (let round = 0; round < 5; round++) {
      const other = await accepted();
      kit.ok(await propose(ann, other, null));
      const [accepting, changing] = await Promise.all([
        accept(ben, other, 1),
        propose(ann, other, 1, { place: 'Elsewhere' }),
      ]);
      const plan = kit.ok<HandOverPlan>(await read(ann, other));
      if (accepting.statusCode === 200) {
        // Accepted first: Ann's change came after it, as a reschedule of the agreed plan.
        expect(changing.statusCode).toBe(200);
        expect(plan).toMatchObject({ version: 2, state: 'proposed', place: 'Elsewhere' });
        expect(await latestNotification(ben.id, other)).toMatchObject({ kind: 'hand_over_rescheduled' });
      } else {
        expect(accepting.json().code).toBe(HAND_OVER_PLAN_ERROR_CODES.changed);
        expect(plan).toMatchObject({ version: 2, state: 'proposed', place: 'Elsewhere' });
      }
    }
  });

  it('running late and reschedule tell the other side at once (bell and live), on an agreed plan only', async () => {
    const id = await accepted();
    kit.ok(await propose(ben, id, null));
    kit.refused(await late(ann, id, 1, 10), 409, HAND_OVER_PLAN_ERROR_CODES.state);
    kit.ok(await accept(ann, id, 1));
    const before = await kit.db().select({ id: memberEvents.id }).from(memberEvents);
    const lateAnswer = kit.ok<HandOverPlan>(await late(ann, id, 1, 10));
    expect(lateAnswer.late).toMatchObject({ by: 'me', minutes: 10 });
    expect(kit.ok<HandOverPlan>(await read(ben, id)).late).toMatchObject({ by: 'other', minutes: 10 });
    expect(await latestNotification(ben.id, id)).toEqual({
      kind: 'hand_over_running_late',
      count: 10,
      actorId: ann.id,
    });
    // The bell's live event carries the entry, with the minutes.
    const newest = Math.max(0, ...before.map((row) => row.id));
    const events = await kit.db().select().from(memberEvents).where(eq(memberEvents.userId, ben.id));
    const live = events
      .filter((row) => row.id > newest && row.type === 'notification')
      .map((row) => (row.data as { notification: Notification }).notification);
    expect(live).toEqual([
      expect.objectContaining({ kind: 'hand_over_running_late', count: 10, barterRequestId: id }),
    ]);
    for (const minutes of [0, 7, 60, '10', null, 10.5]) {
      const response = await late(ann, id, 1, minutes);
      expect(response.statusCode, JSON.stringify(minutes)).toBe(400);
      expect(response.json().code).toBe(ERROR_CODES.validation);
    }
    // Reschedule: a new window over the agreed plan; the late note goes with the old window.
    const moved = kit.ok<HandOverPlan>(await propose(ben, id, 1, { startsAt: at(48), endsAt: at(49) }));
    expect(moved).toMatchObject({ version: 2, state: 'proposed', proposedBy: 'me', late: null });
    expect(await latestNotification(ann.id, id)).toMatchObject({
      kind: 'hand_over_rescheduled',
      actorId: ben.id,
    });
    const notices = await t.app.inject({ method: 'GET', url: '/api/notifications', cookies: ann.cookies });
    expect(notices.json<Notification[]>()[0]).toMatchObject({
      kind: 'hand_over_rescheduled',
      barterRequestId: id,
    });
  });

  it('only the two members, only accepted barters; bad input a clear 400', async () => {
    const id = await accepted();
    kit.ok(await propose(ann, id, null));
    kit.refused(await read(cat, id), 404, 'NOT_FOUND');
    kit.refused(await propose(cat, id, 1), 404, 'NOT_FOUND');
    kit.refused(await accept(cat, id, 1), 404, 'NOT_FOUND');
    kit.refused(await late(cat, id, 1, 5), 404, 'NOT_FOUND');
    kit.refused(await kit.call(cat, 'GET', url(id, '.ics')), 404, 'NOT_FOUND');
    expect((await t.app.inject({ method: 'GET', url: url(id) })).statusCode).toBe(401);
    // Not accepted: pending, then cancelled.
    const { barter: pending } = await kit.pending(ann, ben);
    expect(kit.ok(await read(ann, pending.id))).toBeNull();
    kit.refused(await propose(ann, pending.id, null), 409, BARTER_ERROR_CODES.transition);
    kit.ok(await kit.act(ann, id, 'cancel', { reason: 'Plans changed' }));
    kit.refused(await accept(ben, id, 1), 409, BARTER_ERROR_CODES.transition);
    kit.refused(await kit.call(ann, 'GET', url(id, '.ics')), 409, BARTER_ERROR_CODES.transition);
    const open = await accepted();
    kit.refused(await kit.call(ann, 'GET', url(open, '.ics')), 409, HAND_OVER_PLAN_ERROR_CODES.state);
    const bad: Array<Record<string, unknown>> = [
      { startsAt: at(-1), endsAt: at(1) },
      { startsAt: at(24 * 61), endsAt: at(24 * 61 + 1) },
      { startsAt: at(24), endsAt: at(24) },
      { startsAt: at(24), endsAt: at(24.1) },
      { startsAt: at(24), endsAt: at(37) },
      { startsAt: 'tomorrow', endsAt: at(25) },
      { startsAt: at(25), endsAt: at(24) },
      { place: '' },
      { place: '   ' },
      { place: 'x'.repeat(201) },
      { place: 'Lib\u0000rary' },
      { place: 42 },
      { replaces: 0 },
      { replaces: 'one' },
      { admin: true },
    ];
    for (const overrides of bad) {
      const response = await propose(ann, open, null, overrides);
      expect(response.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(response.json().code).toBe(ERROR_CODES.validation);
    }
    expect((await kit.call(ann, 'POST', url(open, '/accept'), { version: -1 })).statusCode).toBe(400);
    expect((await kit.call(ann, 'GET', '/api/barter-requests/abc/hand-over-plan')).statusCode).toBe(400);
    kit.refused(await read(ann, 2_000_000_000), 404, 'NOT_FOUND');
    expect(kit.ok(await read(ann, open))).toBeNull();
  });

  it('"Add to calendar": the agreed plan as a valid iCalendar file, its text escaped', async () => {
    const { barter, offered, requested } = await kit.pending(ann, ben);
    await kit
      .db()
      .execute(
        `UPDATE barter_request_items SET title = 'Drill; bits, case\nand "manual" \\ box' WHERE item_id = ${offered.id}`,
      );
    kit.ok(await kit.act(ben, barter.id, 'accept'));
    const id = barter.id;
    const place =
      'Café Zoë, corner of 5th; Main — by the ☕ sign, long enough to need folding across several lines';
    const plan = kit.ok<HandOverPlan>(await propose(ann, id, null, { place }));
    kit.refused(await kit.call(ann, 'GET', url(id, '.ics')), 409, HAND_OVER_PLAN_ERROR_CODES.state);
    kit.ok(await accept(ben, id, plan.version));
    const response = await kit.call(ann, 'GET', url(id, '.ics'));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/calendar/);
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="hand-over-\d+\.ics"$/);
    const body = response.body;
    expect(body.endsWith('\r\n')).toBe(true);
    for (const line of body.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    const event = eventOf(body);
    expect(event.summary).toBe(
      `Hand-over with Ben: Drill; bits, case\nand "manual" \\ box, ${requested.title}`,
    );
    expect(event.location).toBe(place);
    expect(event.description).toContain(`You get: ${requested.title}`);
    expect(event.description).toContain(`/barters/${id}`);
    expect(event.startDate.toJSDate().toISOString()).toBe(plan.startsAt);
    expect(event.endDate.toJSDate().toISOString()).toBe(plan.endsAt);
    expect(event.uid).toMatch(new RegExp(`^hand-over-${id}@`));
    // Ben's file names Ann.
    const bens = eventOf((await kit.call(ben, 'GET', url(id, '.ics'))).body);
    expect(bens.summary).toMatch(/^Hand-over with Ann: /);
  });

  it("a trade circle's hand-over has its own plan, between its two members", async () => {
    const drill = await kit.item(ann);
    const tent = await kit.item(ben);
    const guitar = await kit.item(cat);
    const now = new Date();
    const [circle] = await kit
      .db()
      .insert(circles)
      .values({ status: 'accepted', size: 3, expiresAt: now, acceptedAt: now })
      .returning();
    const written = await kit.db().transaction((tx) =>
      createHandOvers(
        tx,
        circle?.id as number,
        [
          { giverId: ann.id, receiverId: ben.id, itemId: drill.id },
          { giverId: ben.id, receiverId: cat.id, itemId: tent.id },
          { giverId: cat.id, receiverId: ann.id, itemId: guitar.id },
        ],
        { sharedThread: false, now },
      ),
    );
    const [annToBen] = written.barterIds as [number];
    kit.ok(await propose(ann, annToBen, null));
    kit.refused(await read(cat, annToBen), 404, 'NOT_FOUND');
    const agreed = kit.ok<HandOverPlan>(await accept(ben, annToBen, 1));
    expect(agreed.state).toBe('agreed');
    const ics = await kit.call(ben, 'GET', url(annToBen, '.ics'));
    const event = eventOf(ics.body);
    expect(event.summary).toBe(`Hand-over with Ann: ${drill.title}`);
    expect(event.description).toContain(`You get: ${drill.title}`);
  });
});
