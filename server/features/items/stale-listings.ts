import { sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/rows';
import type { PeriodicJob } from '../../jobs/jobs-plugin';
import { type NotifyInput, notifyMembers } from '../notifications';

// Stale listings (issue 31, ADR 088): "A listing older than 30 days (setting) asks its owner "Still
// available?" (in-app and in the digest); without an answer in 7 more days it leaves the feeds until
// renewed with one click." A listing's age counts from `confirmed_at` (listed, edited, renewed).
// Leaving the feeds is `is_active = false` with `stale_paused_at` set: every feed, search, the match
// graph (its triggers), listing alerts and saved items already leave inactive items out, through
// their own indexes; the owner's Renew (or Show) makes it active again.

/** Listings asked or paused per transaction; a backlog is worked off batch by batch. */
export const STALE_BATCH = 200;

export type StaleSettings = Config['staleListings'];

const DAY_SECONDS = 24 * 60 * 60;

/** Kinds of the entries about a stale listing, withdrawn when its owner answers. */
export const STALE_KINDS = ['listing_still_available', 'listing_paused_stale'] as const;

interface Claimed {
  id: number;
  user_id: string;
  title: string;
}

const at = (now: Date) => sql`${now.toISOString()}::timestamptz`;
const days = (n: number) => sql`make_interval(secs => ${n * DAY_SECONDS})`;

/**
 * An item that may be asked or paused: listed (active, no accepted barter holds it), never traded,
 * not hidden by a moderator. A reserved or traded listing is never asked (ADR 073); one the owner
 * hid is inactive and never asked either.
 */
const askable = sql.raw(
  'i.is_active AND i.reserved_by_request_id IS NULL AND i.traded_at IS NULL AND i.moderation IS NULL',
);

/**
 * Ask the owners of up to `batch` listings confirmed more than `settings.days` before `now`, and not
 * asked since: marks them asked in the same statement that claims them (FOR UPDATE SKIP LOCKED, the
 * conditions checked again on the locked row), so a sweep beside another (or a renewal holding the
 * row) never asks twice.
 */
async function claimUnasked(tx: Db, now: Date, settings: StaleSettings, batch: number): Promise<Claimed[]> {
  return queryRows<Claimed>(
    tx,
    sql`WITH due AS (
        SELECT i.id FROM items i
        WHERE ${askable} AND i.stale_asked_at IS NULL AND i.confirmed_at <= ${at(now)} - ${days(settings.days)}
        ORDER BY i.confirmed_at
        LIMIT ${batch}
        FOR UPDATE OF i SKIP LOCKED)
      UPDATE items i SET stale_asked_at = ${at(now)}
      FROM due
      WHERE i.id = due.id AND ${askable} AND i.stale_asked_at IS NULL
        AND i.confirmed_at <= ${at(now)} - ${days(settings.days)}
      RETURNING i.id, i.user_id::text AS user_id, i.title`,
  );
}

/**
 * Take out of the feeds up to `batch` listings asked more than `settings.graceDays` before `now` and
 * not answered since: inactive, `stale_paused_at` set (the question's time stays, for My Items'
 * "not confirmed for N days"). Claimed like `claimUnasked`.
 */
async function claimUnanswered(
  tx: Db,
  now: Date,
  settings: StaleSettings,
  batch: number,
): Promise<Claimed[]> {
  return queryRows<Claimed>(
    tx,
    sql`WITH due AS (
        SELECT i.id FROM items i
        WHERE ${askable} AND i.stale_asked_at IS NOT NULL
          AND i.stale_asked_at <= ${at(now)} - ${days(settings.graceDays)}
        ORDER BY i.stale_asked_at
        LIMIT ${batch}
        FOR UPDATE OF i SKIP LOCKED)
      UPDATE items i SET is_active = false, stale_paused_at = ${at(now)}
      FROM due
      WHERE i.id = due.id AND ${askable} AND i.stale_asked_at IS NOT NULL
        AND i.stale_asked_at <= ${at(now)} - ${days(settings.graceDays)}
      RETURNING i.id, i.user_id::text AS user_id, i.title`,
  );
}

/**
 * One run of the stale-listings job at `now` (tests pass their own clock): first the listings whose
 * question went unanswered leave the feeds and their owners are told, then the listings due a
 * question ask it; each a bell entry (live) that the e-mail digest also lists. A listing asked in
 * this run is never paused in it. Safe beside other processes running it. How many of each.
 */
export async function sweepStaleListings(
  db: Db,
  settings: StaleSettings,
  now: Date = new Date(),
  batch = STALE_BATCH,
): Promise<{ asked: number; paused: number }> {
  const done = { asked: 0, paused: 0 };
  const steps = [
    { name: 'paused', claim: claimUnanswered, kind: 'listing_paused_stale' },
    { name: 'asked', claim: claimUnasked, kind: 'listing_still_available' },
  ] as const;
  for (const step of steps) {
    for (;;) {
      const count = await db.transaction(async (tx) => {
        const rows = await step.claim(tx, now, settings, batch);
        const inputs: NotifyInput[] = rows.map((row) => ({
          userId: row.user_id,
          kind: step.kind,
          barterRequestId: null,
          actorId: null,
          item: { id: row.id, title: row.title },
        }));
        await notifyMembers(tx, inputs);
        return rows.length;
      });
      done[step.name] += count;
      if (count < batch) break;
    }
  }
  return done;
}

/**
 * The stale-listings job (ADR 088) every BARTER_EXPIRY_SWEEP_SECONDS (60 by default), once across
 * processes; off when the setting is 0 (tests call `sweepStaleListings` with their clock). Days are
 * STALE_LISTING_DAYS and STALE_LISTING_GRACE_DAYS.
 */
export const staleListingsJob: PeriodicJob = {
  name: 'stale-listings',
  seconds: (config) => config.barterExpirySweepSeconds,
  run: async (app) => {
    const done = await sweepStaleListings(app.db, app.config.staleListings);
    if (done.asked + done.paused > 0) app.log.info(done, 'stale listings asked and paused');
  },
};
