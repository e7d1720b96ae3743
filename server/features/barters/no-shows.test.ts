import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BARTER_ERROR_CODES } from '#common/schemas/barters.ts';
import { HAND_OVER_PLAN_ERROR_CODES, type HandOverPlan } from '#common/schemas/hand-over-plans.ts';
import { type Attendance, type DisputedNoShow, NO_SHOW_ERROR_CODES } from '#common/schemas/no-shows.ts';
import type { AuditEntry } from '#common/schemas/safety.ts';
import { noShowReports } from '../../db/schema/no-shows';
import { barterRequests, notifications } from '../../db/schema/trading';
import { users } from '../../db/schema/users';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { startTestSmtp } from '../../test/smtp';
import { sendMailDigests } from '../notifications';
import { handOverRecordColumns } from '../trades';
import { barterKit, type Member } from './barter-test-kit';
import { handOverRecordsOf } from './no-shows';

// Keeping your word (issue 30, ADR 079): reports only after the window, once per side, answers
// within 48 hours, moderators' decisions, the record over 12 months, the reporter never shown, races.

let t: TestApp;
let kit: ReturnType<typeof barterKit>;
let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
let ann: Member;
let ben: Member;
let cat: Member;
let mod: Member;

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
  cat = await kit.member('Cat');
  mod = await kit.member('Mo');
  await t.app.db.update(users).set({ role: 'moderator' }).where(eq(users.id, mod.id));
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
afterEach(() => vi.useRealTimers());

const HOUR = 3_600_000;
const at = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();
const attendance = (id: number) => `/api/barter-requests/${id}/attendance`;

/** An accepted barter with an agreed plan one to two hours from now; answers its id and plan version. */
async function agreed(from = ann, to = ben): Promise<{ id: number; version: number; endsAt: Date }> {
  const { barter } = await kit.pending(from, to);
  kit.ok(await kit.act(to, barter.id, 'accept'));
  const plan = kit.ok<HandOverPlan>(
    await kit.call(from, 'PUT', `/api/barter-requests/${barter.id}/hand-over-plan`, {
      startsAt: at(1),
      endsAt: at(2),
      place: 'Central Library',
      replaces: null,
    }),
  );
  kit.ok(
    await kit.call(to, 'POST', `/api/barter-requests/${barter.id}/hand-over-plan/accept`, {
      version: plan.version,
    }),
  );
  return { id: barter.id, version: plan.version, endsAt: new Date(plan.endsAt) };
}

/** Move the clock (Date only: timers and the database's own clock run on). */
function clockAt(when: Date) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(when);
}

const report = (who: Member, id: number, version: number) =>
  kit.call(who, 'POST', `${attendance(id)}/report`, { version });
const answer = (who: Member, id: number, body: Record<string, unknown>) =>
  kit.call(who, 'POST', `${attendance(id)}/answer`, body);
const readAttendance = async (who: Member, id: number) =>
  kit.ok<Attendance>(await kit.call(who, 'GET', attendance(id)));
const recordOf = async (member: Member) => (await handOverRecordsOf(t.app.db, [member.id])).get(member.id);

describe('no-show reports', () => {
  it('only after the window, only the two members, once per side; the other is told without the reporter', async () => {
    const { id, version, endsAt } = await agreed();
    kit.refused(await report(ann, id, version), 409, NO_SHOW_ERROR_CODES.windowOpen);
    expect((await readAttendance(ann, id)).canReport).toBe(false);

    clockAt(new Date(endsAt.getTime() + 60_000));
    kit.refused(await report(cat, id, version), 404, 'NOT_FOUND');
    expect((await kit.call(cat, 'GET', attendance(id))).statusCode).toBe(404);
    kit.refused(await report(ann, id, version + 1), 409, HAND_OVER_PLAN_ERROR_CODES.changed);
    expect((await readAttendance(ann, id)).canReport).toBe(true);
    const made = kit.ok<Attendance>(await report(ann, id, version));
    expect(made.canReport).toBe(false);
    expect(made.myReport).toMatchObject({ planVersion: version, answer: null, decision: null });
    kit.refused(await report(ann, id, version), 409, NO_SHOW_ERROR_CODES.alreadyReported);

    // Ben's bell: "Your trading partner reported..." with no actor; his view says "about me", not who.
    const [entry] = await t.app.db
      .select({ kind: notifications.kind, actorId: notifications.actorId })
      .from(notifications)
      .where(and(eq(notifications.userId, ben.id), eq(notifications.kind, 'no_show_reported')));
    expect(entry).toEqual({ kind: 'no_show_reported', actorId: null });
    const bell = await kit.call(ben, 'GET', '/api/notifications');
    expect(bell.body).toContain('no_show_reported');
    const bens = await kit.call(ben, 'GET', attendance(id));
    expect(bens.json<Attendance>().aboutMe).toMatchObject({ planVersion: version, answer: null });
    expect(bens.json<Attendance>().myReport).toBeNull();
    expect(bens.body).not.toContain(ann.id);
    const entries = JSON.stringify(bell.json()).match(/\{[^{}]*"no_show_reported"[^{}]*\}/g) ?? [];
    expect(entries.length).toBe(1);
    expect(entries[0]).not.toContain(ann.id);
    expect(entries[0]).not.toContain('Ann');
  });

  it('a plan that is only proposed, or a barter that is not accepted, cannot be reported', async () => {
    const { barter } = await kit.pending(ann, ben);
    kit.refused(await report(ann, barter.id, 1), 409, BARTER_ERROR_CODES.transition);
    kit.ok(await kit.act(ben, barter.id, 'accept'));
    kit.refused(await report(ann, barter.id, 1), 409, NO_SHOW_ERROR_CODES.noPlan);
    kit.refused(
      await kit.call(ann, 'POST', `${attendance(barter.id)}/report`, { version: 'x' }),
      400,
      'VALIDATION_FAILED',
    );
  });

  it('answers only by the reported member, within 48 hours, once; unanswered after 48 hours is a missed hand-over', async () => {
    const { id, version, endsAt } = await agreed(ann, cat);
    clockAt(new Date(endsAt.getTime() + 60_000));
    kit.ok(await report(ann, id, version));
    kit.refused(await answer(ann, id, { answer: 'was_there' }), 404, 'NOT_FOUND');
    kit.refused(await answer(cat, id, { answer: 'maybe' }), 400, 'VALIDATION_FAILED');
    kit.refused(
      await answer(cat, id, { answer: 'was_there', note: 'x'.repeat(281) }),
      400,
      'VALIDATION_FAILED',
    );
    kit.refused(await answer(cat, id, { answer: 'was_there', note: 'a\u0000b' }), 400, 'VALIDATION_FAILED');
    // Within the 48 hours nothing counts yet.
    clockAt(new Date(endsAt.getTime() + 47 * HOUR));
    expect(await recordOf(cat)).toEqual({ kept: 0, due: 0 });
    clockAt(new Date(endsAt.getTime() + 49 * HOUR));
    kit.refused(await answer(cat, id, { answer: 'was_there' }), 409, NO_SHOW_ERROR_CODES.answerClosed);
    expect(await recordOf(cat)).toEqual({ kept: 0, due: 1 });
    // The reporter's own record is untouched.
    expect((await recordOf(ann))?.due).toBe(0);
  });

  it('an answer makes the case disputed: counted kept until a moderator decides; decisions by moderators only', async () => {
    const dee = await kit.member('Dee');
    const eve = await kit.member('Eve');
    const { id, version, endsAt } = await agreed(dee, eve);
    clockAt(new Date(endsAt.getTime() + 60_000));
    kit.ok(await report(dee, id, version));
    const answered = kit.ok<Attendance>(
      await answer(eve, id, { answer: 'rescheduled', note: 'We moved it to Sunday' }),
    );
    expect(answered.aboutMe).toMatchObject({
      answer: 'rescheduled',
      note: 'We moved it to Sunday',
      decision: null,
    });
    kit.refused(await answer(eve, id, { answer: 'was_there' }), 409, NO_SHOW_ERROR_CODES.alreadyAnswered);
    expect(await recordOf(eve)).toEqual({ kept: 1, due: 1 });
    const [told] = await t.app.db
      .select({ actorId: notifications.actorId })
      .from(notifications)
      .where(and(eq(notifications.userId, dee.id), eq(notifications.kind, 'no_show_answered')));
    expect(told?.actorId).toBe(eve.id);

    kit.refused(await kit.call(dee, 'GET', '/api/moderation/no-shows'), 403, 'NOT_MODERATOR');
    const queue = kit.ok<DisputedNoShow[]>(await kit.call(mod, 'GET', '/api/moderation/no-shows'));
    const item = queue.find((row) => row.barterRequestId === id);
    expect(item).toMatchObject({ answer: 'rescheduled', note: 'We moved it to Sunday' });
    expect(item?.reporter?.id).toBe(dee.id);
    const decide = (who: Member, decision: string) =>
      kit.call(who, 'POST', `/api/moderation/no-shows/${item?.id}/decision`, { decision });
    kit.refused(await decide(eve, 'kept'), 403, 'NOT_MODERATOR');
    kit.refused(await decide(mod, 'maybe'), 400, 'VALIDATION_FAILED');
    expect((await decide(mod, 'missed')).statusCode).toBe(204);
    kit.refused(await decide(mod, 'kept'), 409, NO_SHOW_ERROR_CODES.notDisputed);
    // The decision is in the audit log like every moderator action: who, about whom, what.
    const audit = kit.ok<AuditEntry[]>(await kit.call(mod, 'GET', '/api/moderation/audit'));
    const entries = audit.filter((row) => row.targetKind === 'no_show' && row.targetId === String(item?.id));
    expect(entries).toEqual([
      expect.objectContaining({
        action: 'no_show_missed',
        moderatorName: expect.stringContaining('Mo'),
        targetName: expect.stringContaining('Eve'),
        reason: `No-show report on barter ${id}: missed`,
      }),
    ]);
    expect(await recordOf(eve)).toEqual({ kept: 0, due: 1 });
    const after = kit.ok<DisputedNoShow[]>(await kit.call(mod, 'GET', '/api/moderation/no-shows'));
    expect(after.some((row) => row.barterRequestId === id)).toBe(false);
    // Dismissed counts nothing; kept counts for.
    await t.app.db
      .update(noShowReports)
      .set({ decision: 'dismissed' })
      .where(eq(noShowReports.barterRequestId, id));
    expect(await recordOf(eve)).toEqual({ kept: 0, due: 0 });
    await t.app.db
      .update(noShowReports)
      .set({ decision: 'kept' })
      .where(eq(noShowReports.barterRequestId, id));
    expect(await recordOf(eve)).toEqual({ kept: 1, due: 1 });
  });

  it('a barter cancelled after the report: the reported member still reads it and answers within the 48 hours', async () => {
    const hal = await kit.member('Hal');
    const ida = await kit.member('Ida');
    const { id, version, endsAt } = await agreed(hal, ida);
    clockAt(new Date(endsAt.getTime() + 60_000));
    kit.ok(await report(hal, id, version));
    kit.ok(await kit.act(hal, id, 'cancel', { reason: 'They never came' }));
    const seen = await readAttendance(ida, id);
    expect(seen.canReport).toBe(false);
    expect(seen.aboutMe).toMatchObject({ planVersion: version, answer: null });
    const answered = kit.ok<Attendance>(await answer(ida, id, { answer: 'was_there', note: 'By the door' }));
    expect(answered.aboutMe).toMatchObject({ answer: 'was_there', note: 'By the door' });
    const queue = kit.ok<DisputedNoShow[]>(await kit.call(mod, 'GET', '/api/moderation/no-shows'));
    expect(queue.some((row) => row.barterRequestId === id)).toBe(true);
  });

  it('a barter completed by code after the report: the reported member still answers within the 48 hours, the reporter reads it', async () => {
    const jo = await kit.member('Jo');
    const kim = await kit.member('Kim');
    const { id, version, endsAt } = await agreed(jo, kim);
    clockAt(new Date(endsAt.getTime() + 60_000));
    kit.ok(await report(jo, id, version));
    const kimsCode = kit.ok<{ code: string }>(
      await kit.call(kim, 'GET', `/api/barter-requests/${id}/hand-over-code`),
    ).code;
    kit.ok(await kit.call(jo, 'POST', `/api/barter-requests/${id}/hand-over-code`, { code: kimsCode }));
    const [row] = await t.app.db.select().from(barterRequests).where(eq(barterRequests.id, id));
    expect(row?.status).toBe('completed');
    const seen = await readAttendance(kim, id);
    expect(seen.canReport).toBe(false);
    expect(seen.aboutMe).toMatchObject({ planVersion: version, answer: null });
    const answered = kit.ok<Attendance>(await answer(kim, id, { answer: 'rescheduled' }));
    expect(answered.aboutMe).toMatchObject({ answer: 'rescheduled' });
    expect((await readAttendance(jo, id)).myReport).toMatchObject({ answer: 'rescheduled', decision: null });
    // Past the 48 hours an unanswered report on a completed barter would count kept; this one was answered.
    clockAt(new Date(endsAt.getTime() + 49 * HOUR));
    expect(await recordOf(kim)).toEqual({ kept: 1, due: 1 });
  });

  it('the report and its answer reach away members in the next e-mail digest, in their language; the proposals switch stops them', async () => {
    const lu = await kit.member('Lu');
    const max = await kit.member('Max');
    const address = (member: Member) => `${(member.user.firstName ?? '').toLowerCase()}-no-show@example.com`;
    for (const [member, locale] of [
      [lu, 'en'],
      [max, 'es'],
    ] as const) {
      await t.app.db
        .update(users)
        .set({
          email: address(member),
          emailVerifiedAt: new Date(),
          lastSeenAt: null,
          mailedUntil: null,
          locale,
        })
        .where(eq(users.id, member.id));
    }
    const first = await agreed(lu, max);
    // Only the report goes in this digest: the barter's and the plan's entries were read.
    await t.app.db
      .update(notifications)
      .set({ readAt: new Date() })
      .where(sql`${notifications.userId} IN (${lu.id}::uuid, ${max.id}::uuid)`);
    clockAt(new Date(first.endsAt.getTime() + 60_000));
    kit.ok(await report(lu, first.id, first.version));
    await sendMailDigests(t.app);
    // Sent means the SMTP server took it: what arrived is all there is.
    const spanish = smtp.to(address(max));
    expect(spanish).toHaveLength(1);
    expect(spanish[0]?.text).toContain(
      `- Tu compañero de intercambio avisó de que no fuiste a tu entrega: responde en 48 horas: http://barter.example/barters/${first.id}`,
    );
    // The reporter is not named. Links are left out of the check: the unsubscribe link's random
    // token can hold "Lu" (a CI run met "…plLu5lM").
    expect(spanish[0]?.text.replace(/https?:\/\/\S+/g, '')).not.toContain('Lu');
    expect(smtp.to(address(lu))).toHaveLength(0);

    kit.ok(await answer(max, first.id, { answer: 'was_there' }));
    await sendMailDigests(t.app);
    const english = smtp.to(address(lu));
    expect(english).toHaveLength(1);
    expect(english[0]?.text).toMatch(
      new RegExp(
        `- Max T\\w*\\.? answered your report about your hand-over: http://barter\\.example/barters/${first.id}\n`,
      ),
    );
    expect(english[0]?.text).toContain(
      'Stop emails about new proposals, hand-over reminders and no-show reports:',
    );

    // Max chooses no e-mail for proposals (ADR 090): the next report reaches his bell, not his mailbox.
    kit.ok(await kit.call(max, 'PUT', '/api/account/notification-channels', { proposals: 'none' }));
    const second = await agreed(lu, max);
    clockAt(new Date(second.endsAt.getTime() + 60_000));
    kit.ok(await report(lu, second.id, second.version));
    await sendMailDigests(t.app);
    expect(smtp.to(address(max))).toHaveLength(1);
    const [unread] = await t.app.db
      .select({ id: notifications.id })
      .from(notifications)
      .where(
        and(
          eq(notifications.userId, max.id),
          eq(notifications.kind, 'no_show_reported'),
          eq(notifications.barterRequestId, second.id),
        ),
      );
    expect(unread).toBeDefined();
  });

  it('the record counts the last 12 months only, in one column a page of cards can read', async () => {
    const fay = await kit.member('Fay');
    const gus = await kit.member('Gus');
    const old = await agreed(fay, gus);
    const recent = await agreed(fay, gus);
    const done = await agreed(fay, gus);
    // One completed barter now, one missed 13 months ago, one missed a week ago.
    await t.app.db.update(barterRequests).set({ status: 'completed' }).where(eq(barterRequests.id, done.id));
    const day = 24 * HOUR;
    for (const [id, version, ago] of [
      [old.id, old.version, 400 * day],
      [recent.id, recent.version, 7 * day],
    ] as const) {
      await t.app.db.insert(noShowReports).values({
        barterRequestId: id,
        planVersion: version,
        windowEndsAt: new Date(Date.now() - ago - HOUR),
        reporterId: fay.id,
        reportedId: gus.id,
        createdAt: new Date(Date.now() - ago),
      });
    }
    expect(await recordOf(gus)).toEqual({ kept: 1, due: 2 });
    expect(await recordOf(fay)).toEqual({ kept: 1, due: 1 });
    // The same figures as columns of one statement over many members.
    const record = handOverRecordColumns(sql`u.id`);
    const rows = await t.app.db.execute(
      sql`SELECT u.id::text AS id, ${record.kept} AS kept, ${record.due} AS due FROM users u WHERE u.id IN (${gus.id}::uuid, ${fay.id}::uuid)`,
    );
    const byId = Object.fromEntries(
      ((rows as { rows?: unknown[] }).rows ?? (rows as unknown as unknown[])).map((row) => {
        const r = row as { id: string; kept: number; due: number };
        return [r.id, [Number(r.kept), Number(r.due)]];
      }),
    );
    expect(byId).toEqual({ [gus.id]: [1, 2], [fay.id]: [1, 1] });
    // Shown on the member page's stats.
    const stats = kit.ok<{ handOvers: unknown }>(
      await kit.call(fay, 'GET', `/api/users/${gus.id}/trade-stats`),
    );
    expect(stats.handOvers).toEqual({ kept: 1, due: 2 });
  });

  it('races: both sides report at once; a report and a completion by code at once', async () => {
    for (let round = 0; round < 3; round++) {
      vi.useRealTimers();
      const both = await agreed();
      const code = await agreed();
      clockAt(new Date(Math.max(both.endsAt.getTime(), code.endsAt.getTime()) + 60_000));
      const [one, two] = await Promise.all([
        report(ann, both.id, both.version),
        report(ben, both.id, both.version),
      ]);
      expect([one.statusCode, two.statusCode]).toEqual([200, 200]);
      const rows = await t.app.db
        .select()
        .from(noShowReports)
        .where(eq(noShowReports.barterRequestId, both.id));
      expect(rows.map((row) => row.reportedId).sort()).toEqual([ann.id, ben.id].sort());

      const bensCode = kit.ok<{ code: string }>(
        await kit.call(ben, 'GET', `/api/barter-requests/${code.id}/hand-over-code`),
      ).code;
      const [reported, completed] = await Promise.all([
        report(ben, code.id, code.version),
        kit.call(ann, 'POST', `/api/barter-requests/${code.id}/hand-over-code`, { code: bensCode }),
      ]);
      expect(completed.statusCode, completed.body).toBe(200);
      if (reported.statusCode !== 200) kit.refused(reported, 409, BARTER_ERROR_CODES.transition);
      // Either way the hand-over completed: it counts as kept for Ann, whatever the report says.
      clockAt(new Date(Date.now() + 49 * HOUR));
      const records = await handOverRecordsOf(t.app.db, [ann.id]);
      const annRecord = records.get(ann.id);
      // Ben's report on the barter that completed never counts against Ann; Ann's unanswered one does.
      expect(annRecord && annRecord.due - annRecord.kept).toBe(round + 1);
    }
  });
});

describe('confirm you will be there', () => {
  it('asked of a member with a poor record from 24 hours before; the other side sees it', async () => {
    const hal = await kit.member('Hal');
    const ivy = await kit.member('Ivy');
    // Two missed hand-overs for Hal make his record poor.
    for (let i = 0; i < 2; i++) {
      const missed = await agreed(ivy, hal);
      await t.app.db.insert(noShowReports).values({
        barterRequestId: missed.id,
        planVersion: missed.version,
        windowEndsAt: new Date(Date.now() - 100 * HOUR),
        reporterId: ivy.id,
        reportedId: hal.id,
        createdAt: new Date(Date.now() - 99 * HOUR),
      });
    }
    expect(await recordOf(hal)).toEqual({ kept: 0, due: 2 });
    const { barter } = await kit.pending(hal, ivy);
    kit.ok(await kit.act(ivy, barter.id, 'accept'));
    const plan = kit.ok<HandOverPlan>(
      await kit.call(hal, 'PUT', `/api/barter-requests/${barter.id}/hand-over-plan`, {
        startsAt: at(30),
        endsAt: at(31),
        place: 'Station',
        replaces: null,
      }),
    );
    kit.ok(
      await kit.call(ivy, 'POST', `/api/barter-requests/${barter.id}/hand-over-plan/accept`, { version: 1 }),
    );
    const confirm = (who: Member) =>
      kit.call(who, 'POST', `${attendance(barter.id)}/confirm`, { version: plan.version });
    // 30 hours ahead: not asked yet, and confirming is refused.
    expect((await readAttendance(hal, barter.id)).confirm.askMe).toBe(false);
    kit.refused(await confirm(hal), 409, NO_SHOW_ERROR_CODES.confirmClosed);
    clockAt(new Date(new Date(plan.startsAt).getTime() - 23 * HOUR));
    const asked = await readAttendance(hal, barter.id);
    expect(asked.confirm).toEqual({
      askMe: true,
      myConfirmedAt: null,
      otherAsked: false,
      otherConfirmedAt: null,
    });
    expect((await readAttendance(ivy, barter.id)).confirm).toMatchObject({
      askMe: false,
      otherAsked: true,
      otherConfirmedAt: null,
    });
    const confirmed = kit.ok<Attendance>(await confirm(hal));
    expect(confirmed.confirm.myConfirmedAt).not.toBeNull();
    kit.ok(await confirm(hal));
    expect((await readAttendance(ivy, barter.id)).confirm.otherConfirmedAt).toBe(
      confirmed.confirm.myConfirmedAt,
    );
    kit.refused(
      await kit.call(cat, 'POST', `${attendance(barter.id)}/confirm`, { version: 1 }),
      404,
      'NOT_FOUND',
    );
    clockAt(new Date(new Date(plan.endsAt).getTime() + 1000));
    kit.refused(await confirm(hal), 409, NO_SHOW_ERROR_CODES.confirmClosed);
  });
});
