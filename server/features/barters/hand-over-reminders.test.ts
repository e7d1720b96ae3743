import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HandOverPlan } from '#common/schemas/hand-over-plans.ts';
import type { Notification } from '#common/schemas/notifications.ts';
import { handOverPlans } from '../../db/schema/hand-over-plans';
import { memberEvents, notifications } from '../../db/schema/trading';
import { users } from '../../db/schema/users';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { startTestSmtp } from '../../test/smtp';
import { sendMailDigests } from '../notifications';
import { barterKit, type Member } from './barter-test-kit';
import { sendHandOverReminders } from './hand-over-reminders';

// Reminders 24 hours and 1 hour before an agreed hand-over plan (issue 30, ADR 078). The sweep takes
// its clock as an argument: each test moves it to the minute it means, and the plans are agreed in
// real time (the routes check that a window starts in the future).

let t: TestApp;
let kit: ReturnType<typeof barterKit>;
let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
let ann: Member;
let ben: Member;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const PLACE = 'Central Library, main entrance';

beforeAll(async () => {
  smtp = await startTestSmtp();
  t = await buildTestApp({
    BARTER_PROPOSAL_RATE_LIMIT: '100000',
    SMTP_URL: smtp.url,
    PUBLIC_URL: 'http://barter.example',
  });
  kit = barterKit(t);
  ann = await kit.member('Ann');
  ben = await kit.member('Ben');
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const url = (id: number, tail = '') => `/api/barter-requests/${id}/hand-over-plan${tail}`;

/** An accepted barter between Ann and Ben. */
async function accepted() {
  const { barter } = await kit.pending(ann, ben);
  kit.ok(await kit.act(ben, barter.id, 'accept'));
  return barter.id;
}

/** Ann proposes a window starting `ahead` ms from now (over `replaces`), Ben accepts: the start. */
async function agree(id: number, ahead: number, replaces: number | null = null): Promise<Date> {
  const startsAt = new Date(Math.ceil((Date.now() + ahead) / MINUTE) * MINUTE);
  const plan = kit.ok<HandOverPlan>(
    await kit.call(ann, 'PUT', url(id), {
      startsAt: startsAt.toISOString(),
      endsAt: new Date(startsAt.getTime() + HOUR).toISOString(),
      place: PLACE,
      replaces,
    }),
  );
  kit.ok(await kit.call(ben, 'POST', url(id, '/accept'), { version: plan.version }));
  return startsAt;
}

/** The reminder entries of request `id`, as [member, kind, actor]. */
async function reminders(id: number) {
  const rows = await t.app.db
    .select({
      userId: notifications.userId,
      kind: notifications.kind,
      actorId: notifications.actorId,
      startsAt: notifications.handOverStartsAt,
      place: notifications.handOverPlace,
    })
    .from(notifications)
    .where(
      and(
        eq(notifications.barterRequestId, id),
        inArray(notifications.kind, ['hand_over_reminder_day', 'hand_over_reminder_hour']),
      ),
    )
    .orderBy(notifications.id);
  return rows;
}
const kinds = async (id: number) =>
  (await reminders(id)).map((row) => `${row.userId === ann.id ? 'ann' : 'ben'}:${row.kind}`);

const sweep = (at: Date) => sendHandOverReminders(t.app.db, at);
const earlier = (start: Date, ms: number) => new Date(start.getTime() - ms);

describe('hand-over reminders', () => {
  it('24 hours before: both members, naming the other, the place and the time; live; once', async () => {
    const id = await accepted();
    const start = await agree(id, 30 * HOUR);
    // Not yet 24 hours before.
    await sweep(earlier(start, 25 * HOUR));
    expect(await kinds(id)).toEqual([]);
    const newestEvent = (await t.app.db.select({ id: memberEvents.id }).from(memberEvents)).reduce(
      (max, row) => Math.max(max, row.id),
      0,
    );
    // (Other tests' plans may fall in the same minutes: every check is about this barter's.)
    await sweep(earlier(start, 24 * HOUR - MINUTE));
    const rows = await reminders(id);
    expect(rows).toEqual([
      { userId: ann.id, kind: 'hand_over_reminder_day', actorId: ben.id, startsAt: start, place: PLACE },
      { userId: ben.id, kind: 'hand_over_reminder_day', actorId: ann.id, startsAt: start, place: PLACE },
    ]);
    // Live: each member's page hears the entry (with the plan) and the barter's change.
    const events = await t.app.db
      .select()
      .from(memberEvents)
      .where(inArray(memberEvents.userId, [ann.id, ben.id]));
    const after = events.filter((row) => row.id > newestEvent);
    const entries = after
      .filter((row) => row.type === 'notification')
      .map((row) => (row.data as { notification: Notification }).notification);
    expect(entries).toEqual([
      expect.objectContaining({
        kind: 'hand_over_reminder_day',
        barterRequestId: id,
        actor: expect.objectContaining({ id: ben.id, displayName: expect.stringMatching(/^Ben /) }),
        handOver: { startsAt: start.toISOString(), place: PLACE },
      }),
      expect.objectContaining({
        kind: 'hand_over_reminder_day',
        actor: expect.objectContaining({ id: ann.id }),
      }),
    ]);
    expect(
      after
        .filter((row) => row.type === 'barter')
        .map((row) => [
          row.userId === ann.id ? 'ann' : 'ben',
          (row.data as { barterRequestId: number }).barterRequestId,
        ])
        .sort(),
    ).toEqual([
      ['ann', id],
      ['ben', id],
    ]);
    // The bell reads it the same way.
    const bell = kit.ok<Notification[]>(await kit.call(ben, 'GET', '/api/notifications'));
    expect(bell.find((entry) => entry.kind === 'hand_over_reminder_day')?.handOver).toEqual({
      startsAt: start.toISOString(),
      place: PLACE,
    });
    // Once: later sweeps before the last hour send nothing more.
    await sweep(earlier(start, 24 * HOUR - MINUTE));
    await sweep(earlier(start, 2 * HOUR));
    expect(await kinds(id)).toEqual(['ann:hand_over_reminder_day', 'ben:hand_over_reminder_day']);
  });

  it('1 hour before: both members, once; nothing after the start', async () => {
    const id = await accepted();
    const start = await agree(id, 30 * HOUR);
    await sweep(earlier(start, 23 * HOUR));
    await sweep(earlier(start, HOUR - MINUTE));
    await sweep(earlier(start, 30 * MINUTE));
    await sweep(new Date(start.getTime() + MINUTE));
    expect(await kinds(id)).toEqual([
      'ann:hand_over_reminder_day',
      'ben:hand_over_reminder_day',
      'ann:hand_over_reminder_hour',
      'ben:hand_over_reminder_hour',
    ]);
    const [plan] = await t.app.db.select().from(handOverPlans).where(eq(handOverPlans.barterRequestId, id));
    expect(plan?.remindedDayAt).toEqual(earlier(start, 23 * HOUR));
    expect(plan?.remindedHourAt).toEqual(earlier(start, HOUR - MINUTE));
  });

  it('a sweep that was away during the day reminder sends only the hour one', async () => {
    const id = await accepted();
    const start = await agree(id, 30 * HOUR);
    await sweep(earlier(start, 40 * MINUTE));
    expect(await kinds(id)).toEqual(['ann:hand_over_reminder_hour', 'ben:hand_over_reminder_hour']);
  });

  it('agreed less than 24 hours ahead: only the hour one; less than 1 hour ahead: none', async () => {
    const soon = await accepted();
    const soonStart = await agree(soon, 20 * HOUR);
    await sweep(earlier(soonStart, 19 * HOUR));
    expect(await kinds(soon)).toEqual([]);
    await sweep(earlier(soonStart, 50 * MINUTE));
    expect(await kinds(soon)).toEqual(['ann:hand_over_reminder_hour', 'ben:hand_over_reminder_hour']);

    const now = await accepted();
    const nowStart = await agree(now, 45 * MINUTE);
    await sweep(earlier(nowStart, 40 * MINUTE));
    await sweep(earlier(nowStart, MINUTE));
    expect(await kinds(now)).toEqual([]);
  });

  it('a plan not yet agreed is not reminded; a rescheduled plan is reminded again once agreed', async () => {
    const id = await accepted();
    // Only proposed: no reminder.
    const startsAt = new Date(Math.ceil((Date.now() + 30 * HOUR) / MINUTE) * MINUTE);
    const proposed = kit.ok<HandOverPlan>(
      await kit.call(ann, 'PUT', url(id), {
        startsAt: startsAt.toISOString(),
        endsAt: new Date(startsAt.getTime() + HOUR).toISOString(),
        place: PLACE,
        replaces: null,
      }),
    );
    await sweep(earlier(startsAt, 23 * HOUR));
    expect(await kinds(id)).toEqual([]);
    kit.ok(await kit.call(ben, 'POST', url(id, '/accept'), { version: proposed.version }));
    const first = startsAt;
    await sweep(earlier(first, 23 * HOUR));
    expect(await kinds(id)).toEqual(['ann:hand_over_reminder_day', 'ben:hand_over_reminder_day']);

    // Ann reschedules to two days later; the columns are cleared with the agreement.
    const moved = await agree(id, 54 * HOUR, proposed.version);
    const [plan] = await t.app.db.select().from(handOverPlans).where(eq(handOverPlans.barterRequestId, id));
    expect([plan?.remindedDayAt, plan?.remindedHourAt]).toEqual([null, null]);
    await sweep(earlier(moved, 24 * HOUR - MINUTE));
    await sweep(earlier(moved, HOUR - MINUTE));
    const rows = await reminders(id);
    expect(rows.map((row) => `${row.userId === ann.id ? 'ann' : 'ben'}:${row.kind}`)).toEqual([
      'ann:hand_over_reminder_day',
      'ben:hand_over_reminder_day',
      'ann:hand_over_reminder_day',
      'ben:hand_over_reminder_day',
      'ann:hand_over_reminder_hour',
      'ben:hand_over_reminder_hour',
    ]);
    // Each entry keeps the plan it reminded of.
    expect(rows.map((row) => row.startsAt?.getTime())).toEqual([
      first.getTime(),
      first.getTime(),
      moved.getTime(),
      moved.getTime(),
      moved.getTime(),
      moved.getTime(),
    ]);
  });

  it('a cancelled or completed barter is not reminded', async () => {
    const cancelled = await accepted();
    const cancelledStart = await agree(cancelled, 30 * HOUR);
    kit.ok(await kit.act(ann, cancelled, 'cancel', { reason: 'Plans changed' }));
    const completed = await accepted();
    const completedStart = await agree(completed, 30 * HOUR);
    kit.ok(await kit.act(ann, completed, 'confirm'));
    kit.ok(await kit.act(ben, completed, 'confirm'));
    for (const [id, start] of [
      [cancelled, cancelledStart],
      [completed, completedStart],
    ] as const) {
      await sweep(earlier(start, 23 * HOUR));
      await sweep(earlier(start, 30 * MINUTE));
      expect(await kinds(id)).toEqual([]);
    }
  });

  it('two sweeps at once send each reminder once', async () => {
    const ids: number[] = [];
    const starts: Date[] = [];
    for (let i = 0; i < 4; i++) {
      const id = await accepted();
      ids.push(id);
      starts.push(await agree(id, 30 * HOUR));
    }
    const latest = new Date(Math.max(...starts.map((start) => start.getTime())));
    const sent = async () =>
      (
        await t.app.db
          .select({ id: notifications.id })
          .from(notifications)
          .where(
            and(
              inArray(notifications.barterRequestId, ids),
              inArray(notifications.kind, ['hand_over_reminder_day', 'hand_over_reminder_hour']),
            ),
          )
      ).length;
    for (let round = 0; round < 3; round++) {
      await Promise.all([sweep(earlier(latest, 23 * HOUR)), sweep(earlier(latest, 23 * HOUR))]);
      expect(await sent()).toBe(8);
    }
    await Promise.all([sweep(earlier(latest, 50 * MINUTE)), sweep(earlier(latest, 50 * MINUTE))]);
    expect(await sent()).toBe(16);
    for (const id of ids) {
      expect(await kinds(id)).toEqual([
        'ann:hand_over_reminder_day',
        'ben:hand_over_reminder_day',
        'ann:hand_over_reminder_hour',
        'ben:hand_over_reminder_hour',
      ]);
    }
  });

  it('reaches an away member by e-mail in the next digest, in their language', async () => {
    const cleo = await kit.member('Cleo');
    const dan = await kit.member('Dan');
    for (const [member, locale] of [
      [cleo, 'en'],
      [dan, 'es'],
    ] as const) {
      await t.app.db
        .update(users)
        .set({
          email: `${(member.user.firstName ?? '').toLowerCase()}-reminder@example.com`,
          emailVerifiedAt: new Date(),
          lastSeenAt: null,
          mailedUntil: null,
          locale,
        })
        .where(eq(users.id, member.id));
    }
    const { barter } = await kit.pending(cleo, dan);
    kit.ok(await kit.act(dan, barter.id, 'accept'));
    const startsAt = new Date(Math.ceil((Date.now() + 30 * HOUR) / MINUTE) * MINUTE);
    const plan = kit.ok<HandOverPlan>(
      await kit.call(cleo, 'PUT', url(barter.id), {
        startsAt: startsAt.toISOString(),
        endsAt: new Date(startsAt.getTime() + HOUR).toISOString(),
        place: PLACE,
        replaces: null,
      }),
    );
    kit.ok(await kit.call(dan, 'POST', url(barter.id, '/accept'), { version: plan.version }));
    // Only the reminders go in this digest: the proposal's entries were read.
    await t.app.db
      .update(notifications)
      .set({ readAt: new Date() })
      .where(inArray(notifications.userId, [cleo.id, dan.id]));
    await sweep(earlier(startsAt, 23 * HOUR));
    await sendMailDigests(t.app);
    const when = (locale: string) =>
      `${new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(startsAt)} UTC`;
    const english = await smtp.waitFor('cleo-reminder@example.com');
    expect(english.text).toContain(
      `Reminder: your hand-over with Dan is in 24 hours: ${when('en')}, at ${PLACE}: http://barter.example/barters/${barter.id}`,
    );
    const spanish = await smtp.waitFor('dan-reminder@example.com');
    expect(spanish.text).toContain(`Cleo`);
    expect(spanish.text).toContain(
      `Recordatorio: tu entrega con Cleo es dentro de 24 horas: ${when('es')}, en ${PLACE}`,
    );
  });
});
