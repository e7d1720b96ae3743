import { type SQL, sql } from 'drizzle-orm';
import { DISTANCE_OPTIONS_MILES } from '#common/constants.ts';
import { ITEM_CONDITIONS, type ItemCondition } from '#common/schemas/listings.ts';
import { intArray, textArray } from '../../db/arrays';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/rows';
import type { Point } from '../../geo/earth';
import { distanceMiles, memberPoint, withinRadius } from '../../geo/sql';
import type { PeriodicJob } from '../../jobs/jobs-plugin';
import { resolveSearch, searchMatch } from '../feed';
import { listedItem } from '../items';
import { wantersOfListingSql } from '../match-graph';
import { type NotifyInput, notifyMembers } from '../notifications';
import { notHiddenFrom } from '../safety';

// Fair alerts of a new listing (issue 31, ADR 084): the members whose active want or saved search it
// matches, within their distance, are told nearest first, in waves, and no more once the item is
// reserved or no longer listed.

const HOUR_MS = 60 * 60 * 1000;

/**
 * The waves: when each goes (after the listing) and how many it tells at most; the last tells
 * everyone left. Nearest first throughout: each wave takes the nearest not yet told.
 */
export const ALERT_WAVES: ReadonlyArray<{ afterMs: number; size: number }> = [
  { afterMs: 0, size: 5 },
  { afterMs: HOUR_MS, size: 10 },
  { afterMs: 3 * HOUR_MS, size: 20 },
  { afterMs: 6 * HOUR_MS, size: Number.POSITIVE_INFINITY },
];

/**
 * Listings younger than this are taken up by the job, which runs every minute: a listing made while
 * no process ran it for longer is not alerted (the demo neighbourhood's listings, dated up to two
 * weeks back and at least half an hour, never are).
 */
export const ALERT_ENROL_WINDOW_MS = 15 * 60 * 1000;

const at = (now: Date) => sql`${now.toISOString()}::timestamptz`;

/** Take up every listing listed within the window that has no run yet (located ones: distance decides). */
async function enrol(db: Db, now: Date): Promise<void> {
  await db.execute(sql`INSERT INTO listing_alert_runs (item_id, listed_at, next_at)
    SELECT i.id, i.created_at, i.created_at FROM items i
    WHERE i.is_active AND i.created_at > ${at(now)} - make_interval(secs => ${ALERT_ENROL_WINDOW_MS / 1000})
      AND i.created_at <= ${at(now)} AND ${listedItem('i')} AND i.latitude IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM listing_alert_runs r WHERE r.item_id = i.id)
    ON CONFLICT (item_id) DO NOTHING`);
}

interface DueRun {
  item_id: number;
  waves_sent: number;
  listed_ms: number;
  user_id: string;
  latitude: number;
  longitude: number;
  listed: boolean;
  condition: ItemCondition | null;
}

/** One member to tell, and why. */
export interface AlertCandidate {
  memberId: string;
  distance: number;
  matched: string;
  savedSearchId: number | null;
  wantId: number | null;
}

/** The listing as the pair test and the search read it: its row. */
export const itemRelation = (itemId: number): SQL =>
  sql`SELECT it.title, it.category, it.is_service, it.estimated_value, it.search_vector, it.title_lexemes
    FROM items it WHERE it.id = ${itemId}::int`;

/** A listing to find the interested members of: a listed item (`itemId`), or an item form's draft. */
export interface ListingInterest {
  /** A one-row relation with the item columns the match reads (itemRelation, or a draft's). */
  relation: SQL;
  ownerId: string;
  /** The listing's public point (its owner's). */
  point: Point;
  /** A listed item: the members already told about it are left out. */
  itemId?: number;
  /**
   * The listing's condition (null: a service or a good listed without one), which a saved search's
   * condition filter tests (ADR 089); left out (an item form's draft, whose condition the count does
   * not ask), saved searches count whatever their condition.
   */
  condition?: ItemCondition | null;
}

/**
 * A saved search `s` keeps the listing by its condition filter, as the feeds do (ADR 082, addendum):
 * no filter, or the listing's condition that level or better (services and goods without one never).
 */
function conditionKept(condition: ItemCondition | null | undefined): SQL {
  if (condition === undefined) return sql`true`;
  if (condition === null) return sql`s.condition IS NULL`;
  return sql`(s.condition IS NULL OR array_position(${textArray([...ITEM_CONDITIONS])}::text[], s.condition)
    >= ${ITEM_CONDITIONS.indexOf(condition) + 1}::int)`;
}

/**
 * Everyone a listing should alert, nearest first (the members already told about it left out):
 * members whose active want it matches within their travel distance (the match graph's definition),
 * and members with a saved search it matches (the feed's search, within the search's radius; a
 * Barter Match search also needs the want). One reason per member: a saved search's name before a
 * want's title.
 */
export async function alertCandidates(db: Db, listing: ListingInterest): Promise<AlertCandidate[]> {
  const untold = (member: SQL) =>
    listing.itemId === undefined
      ? sql`true`
      : sql`NOT EXISTS (SELECT 1 FROM listing_alerts a WHERE a.item_id = ${listing.itemId}::int AND a.member_id = ${member})`;
  const wanters = await queryRows<{
    member_id: string;
    want_id: number;
    want_title: string;
    distance: number;
  }>(db, sql`SELECT x.* FROM (${wantersOfListingSql(listing)}) x WHERE ${untold(sql`x.member_id::uuid`)}`);
  const distance = distanceMiles(listing.point, memberPoint('u'));
  const widest = Math.max(...DISTANCE_OPTIONS_MILES);
  const searches = await queryRows<{
    id: number;
    member_id: string;
    name: string;
    feed: string;
    q: string | null;
    distance: number;
  }>(
    db,
    sql`SELECT s.id, s.user_id::text AS member_id, s.name, s.feed, s.q, ${distance} AS distance
      FROM users u JOIN saved_searches s ON s.user_id = u.id
      WHERE ${withinRadius(listing.point, widest, memberPoint('u'))} AND ${distance} <= s.radius_miles
        AND u.id <> ${listing.ownerId}::uuid AND ${notHiddenFrom('u.id', listing.ownerId)}
        AND ${untold(sql`u.id`)} AND ${conditionKept(listing.condition)}
      ORDER BY u.id, s.id`,
  );
  const byMember = new Map<string, AlertCandidate>();
  const wanting = new Set(wanters.map((row) => row.member_id));
  if (searches.length > 0) {
    const texts = [...new Set(searches.flatMap((s) => (s.q ? [s.q] : [])))];
    const found = await textsFoundIn(db, listing.relation, texts);
    for (const s of searches) {
      if (byMember.has(s.member_id)) continue;
      if (s.q && !found.has(s.q)) continue;
      if (s.feed === 'barter-match' && !wanting.has(s.member_id)) continue;
      byMember.set(s.member_id, {
        memberId: s.member_id,
        distance: Number(s.distance),
        matched: s.name,
        savedSearchId: Number(s.id),
        wantId: null,
      });
    }
  }
  for (const w of wanters) {
    if (byMember.has(w.member_id)) continue;
    byMember.set(w.member_id, {
      memberId: w.member_id,
      distance: Number(w.distance),
      matched: w.want_title,
      savedSearchId: null,
      wantId: Number(w.want_id),
    });
  }
  return [...byMember.values()].sort(
    (a, b) => a.distance - b.distance || a.memberId.localeCompare(b.memberId),
  );
}

/**
 * Which of the search texts find the listing (a one-row relation with `search_vector`), by the feed's own search (resolveSearch: its near
 * spellings; searchMatch: title, description, category), all in one statement.
 */
export async function textsFoundIn(db: Db, listing: SQL, texts: readonly string[]): Promise<Set<string>> {
  const searches = [];
  for (const text of texts) searches.push(await resolveSearch(db, text));
  const live = searches.filter((search) => !search.empty);
  if (live.length === 0) return new Set();
  const [row] = await queryRows<{ found: boolean[] }>(
    db,
    sql`SELECT ARRAY[${sql.join(
      // As typed or as corrected: the search corrects a word no listed item has yet (resolveSearch),
      // and the listing at hand (a draft, or the first of its kind) may be the one that has it.
      live.map(
        (search) => sql`(${searchMatch(search, 'i')} OR ${searchMatch({ ...search, corrections: [] }, 'i')})`,
      ),
      sql`, `,
    )}]::boolean[] AS found FROM (${listing}) i`,
  );
  const found = row?.found ?? [];
  return new Set(live.flatMap((search, index) => (found[index] ? [search.q] : [])));
}

/**
 * Send every wave due at `now`, after taking up new listings: per listing, in its own transaction
 * with its run locked (FOR UPDATE SKIP LOCKED, so two processes never send one wave twice), the
 * nearest members not yet told, as many as the wave holds, each a 'listing_alert' on their bell
 * (their open pages hear it; the digest reads it like any entry). A listing reserved or no longer
 * listed stops its alerts for good. How many members were told.
 *
 * One listing per transaction, not a batch: on the embedded database a transaction holds the one
 * connection, and a sweep of 50 listings in one (111 statements, 0.4 s on a busy host) kept every
 * member's request waiting behind it until load shedding refused them (ADR 098). Between listings
 * the requests queued meanwhile go first.
 */
export async function sendListingAlerts(db: Db, now: Date = new Date()): Promise<number> {
  await enrol(db, now);
  let told = 0;
  // Each listing once a sweep: a wave whose successor is already due (the job was stopped a while)
  // waits for the next sweep, as when the sweep took them all at once.
  const worked: number[] = [];
  for (;;) {
    const sent = await db.transaction(async (tx) => {
      const [run] = await queryRows<DueRun>(
        tx,
        sql`SELECT r.item_id, r.waves_sent, (extract(epoch FROM r.listed_at) * 1000)::float8 AS listed_ms,
            i.user_id::text AS user_id, i.latitude::float8 AS latitude, i.longitude::float8 AS longitude,
            (${listedItem('i')}) AS listed, i.condition
          FROM listing_alert_runs r JOIN items i ON i.id = r.item_id
          WHERE r.finished_at IS NULL AND r.next_at <= ${at(now)}
            AND r.item_id <> ALL(${intArray(worked)}::int[])
          ORDER BY r.next_at, r.item_id
          LIMIT 1
          FOR UPDATE OF r SKIP LOCKED`,
      );
      if (!run) return null;
      worked.push(run.item_id);
      return sendWave(tx, run, now);
    });
    if (sent === null) break;
    told += sent;
  }
  return told;
}

/** The due wave of one run (locked by the caller): its members told, the next wave's time set. */
async function sendWave(tx: Db, run: DueRun, now: Date): Promise<number> {
  const finish = () =>
    tx.execute(
      sql`UPDATE listing_alert_runs SET finished_at = ${at(now)} WHERE item_id = ${run.item_id}::int`,
    );
  if (!run.listed || run.latitude === null || run.longitude === null) {
    await finish();
    return 0;
  }
  const index = Number(run.waves_sent);
  const wave = ALERT_WAVES[index];
  if (!wave) {
    await finish();
    return 0;
  }
  const point = { latitude: Number(run.latitude), longitude: Number(run.longitude) };
  const candidates = await alertCandidates(tx, {
    relation: itemRelation(run.item_id),
    ownerId: run.user_id,
    point,
    itemId: run.item_id,
    condition: run.condition ?? null,
  });
  const chosen = candidates.slice(0, wave.size);
  if (chosen.length > 0) {
    const inputs: NotifyInput[] = chosen.map((c) => ({
      userId: c.memberId,
      kind: 'listing_alert',
      barterRequestId: null,
      actorId: null,
      listing: { itemId: run.item_id, matched: c.matched },
    }));
    const ids = await notifyMembers(tx, inputs);
    await tx.execute(sql`INSERT INTO listing_alerts
        (item_id, member_id, notification_id, wave, matched, saved_search_id, want_id, sent_at)
      SELECT ${run.item_id}::int, x.member_id::uuid, x.notification_id, ${index + 1}::smallint, x.matched,
        x.saved_search_id, x.want_id, ${at(now)}
      FROM json_to_recordset(${JSON.stringify(
        chosen.map((c, i) => ({
          member_id: c.memberId,
          notification_id: ids[i],
          matched: c.matched,
          saved_search_id: c.savedSearchId,
          want_id: c.wantId,
        })),
      )}::json) AS x(member_id text, notification_id int, matched text, saved_search_id int, want_id int)
      ON CONFLICT (item_id, member_id) DO NOTHING`);
  }
  const next = ALERT_WAVES[index + 1];
  if (!next) {
    await tx.execute(sql`UPDATE listing_alert_runs SET waves_sent = ${index + 1}::smallint,
      finished_at = ${at(now)} WHERE item_id = ${run.item_id}::int`);
  } else {
    const nextAt = new Date(Math.max(Number(run.listed_ms) + next.afterMs, now.getTime()));
    await tx.execute(sql`UPDATE listing_alert_runs SET waves_sent = ${index + 1}::smallint,
      next_at = ${nextAt.toISOString()}::timestamptz WHERE item_id = ${run.item_id}::int`);
  }
  return chosen.length;
}

/** The queue of the listing alerts' job. */
export const LISTING_ALERTS_QUEUE = 'listing-alerts';

/**
 * Listing alerts every BARTER_EXPIRY_SWEEP_SECONDS (60 by default: the first wave goes within about a
 * minute of the listing, two on PostgreSQL with ADR 066's clock and poll), once across processes;
 * off when the setting is 0 (tests call `sendListingAlerts` with their clock).
 */
export const listingAlertsJob: PeriodicJob = {
  name: LISTING_ALERTS_QUEUE,
  seconds: (config) => config.barterExpirySweepSeconds,
  run: async (app) => {
    const told = await sendListingAlerts(app.db);
    if (told > 0) app.log.info({ told }, 'sent listing alerts');
  },
};
