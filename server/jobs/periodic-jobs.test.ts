/**
 * The periodic jobs (ADR 066): each feature's job is scheduled through the one jobs interface with
 * the cron its period gives, and each, sent through its queue, does its one thing and nothing of
 * the others'. On PGlite (the in-process queue) and on PostgreSQL (pg-boss) alike.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  barterRequests,
  circles,
  handOverPlans,
  moderationRefusals,
  noShowReports,
  notifications,
  swapDays,
  users,
} from '../db/schema';
import { barterExpiryJob, handOverReminderJob, noShowSettleJob } from '../features/barters';
import { circleExpiryJob } from '../features/circles';
import { mailDigestJob } from '../features/notifications';
import { refusalsJob, suspensionsJob } from '../features/safety';
import { swapDayDeadlineJob } from '../features/swap-days';
import { createBarterRequest, createUser } from '../test/factories';
import { buildTestApp, type TestApp } from '../test/helpers';
import type { PeriodicJob } from './jobs-plugin';

const EXPIRY_JOBS = [
  barterExpiryJob,
  circleExpiryJob,
  suspensionsJob,
  mailDigestJob,
  refusalsJob,
  swapDayDeadlineJob,
  handOverReminderJob,
  noShowSettleJob,
];
const past = () => new Date(Date.now() - 60_000);

/** Waits for `check` to hold, the way a member would see the job's work land. */
const until = (check: () => Promise<boolean>) =>
  expect.poll(check, { timeout: 10_000, interval: 20 }).toBe(true);

describe('periodic jobs, one per concern in the feature that owns it', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Every minute; CIRCLE_FINDER on, for the hourly whole-graph run's schedule.
    t = await buildTestApp({ BARTER_EXPIRY_SWEEP_SECONDS: '60', CIRCLE_FINDER: 'true' });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('schedules every periodic job with the cron of its period, once each', async () => {
    const expected: Record<string, string> = {
      'barter-expiry': '* * * * *',
      'circle-expiry': '* * * * *',
      'suspensions-lift': '* * * * *',
      'mail-digests': '* * * * *',
      'refusals-forget': '* * * * *',
      'swap-day-deadlines': '* * * * *',
      'hand-over-reminders': '* * * * *',
      'no-show-settle': '* * * * *',
      'listing-alerts': '* * * * *',
      'stale-listings': '* * * * *',
      'web-push-retries': '* * * * *',
      'events-retention': '*/10 * * * *',
      'sessions-purge': '0 * * * *',
      'match-graph-idle': '0 * * * *',
      'circles-full': '0 * * * *',
      // Only where rate-limit counters and sign-in failures are shared (PostgreSQL); in process
      // memory on PGlite.
      ...(t.database.kind === 'postgres'
        ? { 'rate-limit-sweep': '0 * * * *', 'login-failures-sweep': '0 * * * *' }
        : {}),
    };
    const schedules = async () =>
      Object.fromEntries(
        (await t.app.jobs.getSchedules())
          .filter((schedule) => !schedule.name.startsWith('__'))
          .map((schedule) => [schedule.name, `${schedule.cron} ${schedule.timezone}`]),
      );
    const withZone = Object.fromEntries(
      Object.entries(expected).map(([name, cron]) => [name, `${cron} UTC`]),
    );
    // Set up once the app is ready, without holding its start.
    await expect.poll(schedules, { timeout: 10_000, interval: 20 }).toEqual(withZone);
  });

  it('a job sent through its queue runs (the barter expiry)', async () => {
    const barter = await createBarterRequest(t.app.db, { status: 'pending', expiresAt: past() });
    // The schedules are set up after start; the queue with them.
    await expect
      .poll(async () => (await t.app.jobs.getSchedules()).some((s) => s.name === barterExpiryJob.name), {
        timeout: 10_000,
        interval: 20,
      })
      .toBe(true);
    expect(await t.app.jobs.send(barterExpiryJob.name, {})).not.toBeNull();
    await until(
      async () =>
        (
          await t.app.db
            .select({ status: barterRequests.status })
            .from(barterRequests)
            .where(eq(barterRequests.id, barter.id))
        )[0]?.status === 'expired',
    );
  });
});

describe('each periodic job on its own (schedules off: BARTER_EXPIRY_SWEEP_SECONDS=0)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ BARTER_EXPIRY_SWEEP_SECONDS: '0' });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('none of the expiry jobs is scheduled', async () => {
    const names = async () => (await t.app.jobs.getSchedules()).map((schedule) => schedule.name);
    // The hourly jobs' schedules are set up beside the expiry jobs' (not) being set up.
    await expect.poll(names, { timeout: 10_000, interval: 20 }).toContain('sessions-purge');
    await new Promise((resolve) => setImmediate(resolve));
    const scheduled = await names();
    for (const job of EXPIRY_JOBS) expect(scheduled).not.toContain(job.name);
  });

  it('each job does its one thing', async () => {
    const { db } = t.app;
    // Something due for every job at once.
    const ann = await createUser(db, { suspendedUntil: past() });
    const ben = await createUser(db, {
      email: `ben-${Date.now()}@example.com`,
      emailVerifiedAt: new Date(),
      lastSeenAt: null,
      mailedUntil: null,
    });
    const barter = await createBarterRequest(db, {
      fromUserId: ann.id,
      toUserId: ben.id,
      status: 'pending',
      expiresAt: past(),
    });
    await db.insert(notifications).values({
      userId: ben.id,
      kind: 'proposal_received',
      barterRequestId: barter.id,
      actorId: ann.id,
      createdAt: new Date(Date.now() - 20 * 60_000),
    });
    // An agreed hand-over starting in 30 minutes, agreed two hours ago: its hour's reminder is due.
    const cat = await createUser(db);
    const dan = await createUser(db);
    const handOver = await createBarterRequest(db, {
      fromUserId: cat.id,
      toUserId: dan.id,
      status: 'accepted',
    });
    await db.insert(handOverPlans).values({
      barterRequestId: handOver.id,
      proposedBy: cat.id,
      startsAt: new Date(Date.now() + 30 * 60_000),
      endsAt: new Date(Date.now() + 90 * 60_000),
      placeName: 'Library',
      agreedAt: new Date(Date.now() - 2 * 3_600_000),
    });
    // A report on a hand-over left unanswered for 49 hours: settled (ADR 081).
    const [noShow] = await db
      .insert(noShowReports)
      .values({
        barterRequestId: handOver.id,
        planVersion: 1,
        windowEndsAt: new Date(Date.now() - 50 * 3_600_000),
        reporterId: dan.id,
        reportedId: cat.id,
        createdAt: new Date(Date.now() - 49 * 3_600_000),
      })
      .returning({ id: noShowReports.id });
    const [circle] = await db
      .insert(circles)
      .values({ status: 'proposed', size: 2, expiresAt: past() })
      .returning({ id: circles.id });
    const [day] = await db
      .insert(swapDays)
      .values({
        organiserId: ann.id,
        name: 'Spring swap',
        place: 'Town hall',
        startsAt: new Date(Date.now() + 86_400_000),
        deadline: past(),
      })
      .returning({ id: swapDays.id });
    await db.insert(moderationRefusals).values({
      memberId: ann.id,
      kind: 'item',
      reason: 'test',
      excerpt: 'an old refusal',
      createdAt: new Date(Date.now() - 400 * 86_400_000),
    });

    const one = async <T>(rows: Promise<T[]>) => (await rows)[0];
    const state = {
      barter: async () =>
        (
          await one(
            db
              .select({ s: barterRequests.status })
              .from(barterRequests)
              .where(eq(barterRequests.id, barter.id)),
          )
        )?.s,
      circle: async () =>
        (
          await one(
            db
              .select({ s: circles.status })
              .from(circles)
              .where(eq(circles.id, circle?.id ?? 0)),
          )
        )?.s,
      suspension: async () =>
        (await one(db.select({ s: users.suspendedUntil }).from(users).where(eq(users.id, ann.id))))?.s ??
        null,
      digest: async () =>
        (await one(db.select({ s: users.mailedUntil }).from(users).where(eq(users.id, ben.id))))?.s ?? null,
      refusals: async () =>
        (
          await one(
            db
              .select({ n: sql<number>`count(*)::int` })
              .from(moderationRefusals)
              .where(eq(moderationRefusals.memberId, ann.id)),
          )
        )?.n,
      swapDay: async () =>
        (
          await one(
            db
              .select({ s: swapDays.status })
              .from(swapDays)
              .where(eq(swapDays.id, day?.id ?? 0)),
          )
        )?.s,
    };
    const reminded = async () =>
      (
        await one(
          db
            .select({ at: handOverPlans.remindedHourAt })
            .from(handOverPlans)
            .where(eq(handOverPlans.barterRequestId, handOver.id)),
        )
      )?.at ?? null;
    const settled = async () =>
      (
        await one(
          db
            .select({ at: noShowReports.healedAt })
            .from(noShowReports)
            .where(eq(noShowReports.id, noShow?.id ?? 0)),
        )
      )?.at ?? null;
    const done: Record<string, () => Promise<boolean>> = {
      'barter-expiry': async () => (await state.barter()) === 'expired',
      'circle-expiry': async () => (await state.circle()) === 'expired',
      'suspensions-lift': async () => (await state.suspension()) === null,
      'mail-digests': async () => (await state.digest()) !== null,
      'refusals-forget': async () => (await state.refusals()) === 0,
      'swap-day-deadlines': async () => (await state.swapDay()) !== 'open',
      'hand-over-reminders': async () => (await reminded()) !== null,
      'no-show-settle': async () => (await settled()) !== null,
    };
    for (const job of EXPIRY_JOBS satisfies PeriodicJob[]) {
      for (const [name, check] of Object.entries(done))
        expect(await check(), `${name} before ${job.name}`).toBe(false);
      await job.run(t.app);
      // The swap day's match job (ADR 050) takes it from there, off this run.
      expect(await done[job.name]?.()).toBe(true);
      // Its own thing and nothing else: every job not yet run still finds its work waiting.
      delete done[job.name];
    }
    expect(done).toEqual({});
  });
});
