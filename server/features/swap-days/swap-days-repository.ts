import { and, asc, count, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import { intArray, uuidArray } from '../../db/arrays';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/rows';
import { memberBlocks } from '../../db/schema/safety';
import {
  barterRequests,
  circleMembers,
  circles,
  items,
  type SwapDayRow,
  swapDayMembers,
  swapDayOffers,
  swapDays,
  swapDayWants,
} from '../../db/schema/trading';
import { users } from '../../db/schema/users';
import { viewerPoint } from '../../geo/earth';
import { distanceMiles, swapDayPoint, withinRadius } from '../../geo/sql';
import { type ItemStateRow, lockItemsInIdOrder } from '../items';
import type { MemberRefRow } from '../member-refs';
import { hiddenMembersOf } from '../safety';

/** The viewer of a swap day: their own point (the origin of what they see) and travel distance. */
export interface Viewer {
  id: string;
  latitude: number | string | null;
  longitude: number | string | null;
  /** Where distances to swap days are measured from (ADR 059). */
  publicLatitude: number | string | null;
  publicLongitude: number | string | null;
  maxTravelDistance: number;
}

/** A swap day with what a list or page shows of it for one viewer. */
export interface SwapDaySummaryRow {
  row: SwapDayRow;
  organiser: MemberRefRow | null;
  memberCount: number;
  joined: boolean;
  /** Within the viewer's travel distance of where it was organized. */
  near: boolean;
  /** The organizer and the viewer hide from each other (a block either way). */
  organiserHidden: boolean;
  distanceMiles: number | null;
}

const organiserRef = {
  id: users.id,
  displayName: users.displayName,
  firstName: users.firstName,
  lastName: users.lastName,
  profileImageUrl: users.profileImageUrl,
};

/** The swap day's point as the query builder names it (the table is not aliased). */
const point = swapDayPoint('swap_days');

/** Swap days matching `where`, with the viewer's view of each, in `order`, at most `limit`. */
async function findSummaries(
  db: Db,
  viewer: Viewer,
  where: SQL,
  order: SQL[],
  limit: number,
): Promise<SwapDaySummaryRow[]> {
  const origin = viewerPoint(viewer);
  const rows = await db
    .select({
      row: swapDays,
      organiser: organiserRef,
      memberCount: sql<number>`(SELECT count(*)::int FROM ${swapDayMembers} m
        WHERE m.swap_day_id = ${swapDays.id})`.mapWith(Number),
      joined: sql<boolean>`EXISTS (SELECT 1 FROM ${swapDayMembers} m
        WHERE m.swap_day_id = ${swapDays.id} AND m.member_id = ${viewer.id}::uuid)`,
      near: origin
        ? sql<boolean>`coalesce(${withinRadius(origin, viewer.maxTravelDistance, point)}, false)`
        : sql<boolean>`false`,
      organiserHidden: sql<boolean>`coalesce(${swapDays.organiserId} IN ${hiddenMembersOf(viewer.id)}, false)`,
      distanceMiles: sql<number | null>`${distanceMiles(origin, point)}`,
    })
    .from(swapDays)
    .leftJoin(users, eq(users.id, swapDays.organiserId))
    .where(where)
    .orderBy(...order)
    .limit(limit);
  return rows.map((row) => ({
    row: row.row,
    organiser: row.organiser?.id ? row.organiser : null,
    memberCount: Number(row.memberCount),
    joined: row.joined === true,
    near: row.near === true,
    organiserHidden: row.organiserHidden === true,
    distanceMiles:
      row.distanceMiles === null || row.distanceMiles === undefined ? null : Number(row.distanceMiles),
  }));
}

/** One swap day as `viewer` would see it (whether they may is the service's call); null if none. */
export async function findSummary(db: Db, viewer: Viewer, id: number): Promise<SwapDaySummaryRow | null> {
  const [row] = await findSummaries(db, viewer, eq(swapDays.id, id), [asc(swapDays.id)], 1);
  return row ?? null;
}

const isMemberOf = (viewerId: string): SQL =>
  sql`EXISTS (SELECT 1 FROM ${swapDayMembers} m
    WHERE m.swap_day_id = ${swapDays.id} AND m.member_id = ${viewerId}::uuid)`;

/** The swap days the viewer organizes or joined: upcoming soonest first, then past ones, latest first. */
export function findMine(db: Db, viewer: Viewer, now: Date, limit: number): Promise<SwapDaySummaryRow[]> {
  const at = now.toISOString();
  return findSummaries(
    db,
    viewer,
    or(eq(swapDays.organiserId, viewer.id), isMemberOf(viewer.id)) as SQL,
    [
      sql`(${swapDays.startsAt} < ${at}::timestamptz)`,
      sql`CASE WHEN ${swapDays.startsAt} >= ${at}::timestamptz THEN ${swapDays.startsAt} END ASC`,
      desc(swapDays.startsAt),
      desc(swapDays.id),
    ],
    limit,
  );
}

/**
 * Open swap days the viewer has not joined whose want lists are still open, within the viewer's
 * travel distance of where they were organized, organizers hidden from them left out; soonest first.
 * None without a location.
 */
export async function findNearby(
  db: Db,
  viewer: Viewer,
  now: Date,
  limit: number,
): Promise<SwapDaySummaryRow[]> {
  const origin = viewerPoint(viewer);
  if (!origin) return [];
  return findSummaries(
    db,
    viewer,
    and(
      eq(swapDays.status, 'open'),
      sql`${swapDays.deadline} > ${now.toISOString()}::timestamptz`,
      withinRadius(origin, viewer.maxTravelDistance, point),
      sql`NOT ${isMemberOf(viewer.id)}`,
      sql`(${swapDays.organiserId} IS NULL OR ${swapDays.organiserId} NOT IN ${hiddenMembersOf(viewer.id)})`,
    ) as SQL,
    [asc(swapDays.startsAt), asc(swapDays.id)],
    limit,
  );
}

// ------------------------------------------------------------------------------------------------
// Members, offers, rankings

/** The swap day's members, the organizer first, then in the order they joined. */
export async function findMembers(db: Db, swapDay: SwapDayRow): Promise<MemberRefRow[]> {
  const rows = await db
    .select({ ...organiserRef, joinedAt: swapDayMembers.joinedAt })
    .from(swapDayMembers)
    .innerJoin(users, eq(users.id, swapDayMembers.memberId))
    .where(eq(swapDayMembers.swapDayId, swapDay.id))
    .orderBy(
      sql`(${swapDayMembers.memberId} IS DISTINCT FROM ${swapDay.organiserId}::uuid)`,
      asc(swapDayMembers.joinedAt),
      asc(swapDayMembers.memberId),
    );
  return rows.map(({ joinedAt: _joinedAt, ...ref }) => ref);
}

/** Member ids of the swap day. */
export async function findMemberIds(db: Db, swapDayId: number): Promise<string[]> {
  const rows = await db
    .select({ id: swapDayMembers.memberId })
    .from(swapDayMembers)
    .where(eq(swapDayMembers.swapDayId, swapDayId));
  return rows.map((row) => row.id);
}

export async function isMember(db: Db, swapDayId: number, memberId: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(swapDayMembers)
    .where(and(eq(swapDayMembers.swapDayId, swapDayId), eq(swapDayMembers.memberId, memberId)));
  return row !== undefined;
}

export async function countMembers(db: Db, swapDayId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(swapDayMembers)
    .where(eq(swapDayMembers.swapDayId, swapDayId));
  return row?.n ?? 0;
}

/** Add a member (nothing when they are one already). */
export async function insertMember(db: Db, swapDayId: number, memberId: string): Promise<void> {
  await db.insert(swapDayMembers).values({ swapDayId, memberId }).onConflictDoNothing();
}

/**
 * A member leaves: their offers go (with every ranking of those items, theirs and other members'),
 * then their membership.
 */
export async function deleteMember(db: Db, swapDayId: number, memberId: string): Promise<void> {
  const offered = await db
    .select({ itemId: swapDayOffers.itemId })
    .from(swapDayOffers)
    .where(and(eq(swapDayOffers.swapDayId, swapDayId), eq(swapDayOffers.memberId, memberId)));
  await deleteOffers(
    db,
    swapDayId,
    offered.map((row) => row.itemId),
  );
  await db
    .delete(swapDayMembers)
    .where(and(eq(swapDayMembers.swapDayId, swapDayId), eq(swapDayMembers.memberId, memberId)));
}

/** An offer of the swap day with its item's state now and its owner. */
export interface OfferRow {
  itemId: number;
  memberId: string;
  title: string;
  category: string;
  isService: boolean;
  thumbnailUrl: string | null;
  /** Active, not reserved, still its owner's: it can trade here. */
  available: boolean;
  owner: MemberRefRow;
}

/**
 * Every offer of the swap day, oldest first. One row (a JSON array built by the database) rather than
 * one row per offer: a 100-member day has 1,000 offers, and decoding them field by field was most of
 * the page's main-thread time (issue 27). The owners are the swap day's members, one reference each.
 */
export async function findOffers(db: Db, swapDayId: number): Promise<OfferRow[]> {
  const [row] = await queryRows<{ offers: string | null }>(
    db,
    sql`SELECT json_agg(json_build_array(o.item_id, o.member_id, i.title, i.category, i.is_service,
          coalesce(i.thumbnail_url, i.image_url),
          (i.is_active AND i.reserved_by_request_id IS NULL AND i.user_id = o.member_id),
          u.display_name, u.profile_image_url)
          ORDER BY o.created_at, o.item_id)::text AS offers
      FROM ${swapDayOffers} o
      JOIN ${items} i ON i.id = o.item_id
      JOIN ${users} u ON u.id = o.member_id
      WHERE o.swap_day_id = ${swapDayId}::int`,
  );
  if (!row?.offers) return [];
  const owners = new Map<string, MemberRefRow>();
  const tuples = JSON.parse(row.offers) as Array<
    [number, string, string, string, boolean, string | null, boolean, string | null, string | null]
  >;
  return tuples.map(
    ([itemId, memberId, title, category, isService, thumbnailUrl, available, name, image]) => {
      let owner = owners.get(memberId);
      if (!owner) {
        owner = { id: memberId, displayName: name, profileImageUrl: image };
        owners.set(memberId, owner);
      }
      return {
        itemId,
        memberId,
        title,
        category,
        isService,
        thumbnailUrl,
        available: available === true,
        owner,
      };
    },
  );
}

/** Item ids a member offers at the swap day. */
export async function findOfferedIdsOf(db: Db, swapDayId: number, memberId: string): Promise<number[]> {
  const rows = await db
    .select({ itemId: swapDayOffers.itemId })
    .from(swapDayOffers)
    .where(and(eq(swapDayOffers.swapDayId, swapDayId), eq(swapDayOffers.memberId, memberId)));
  return rows.map((row) => row.itemId);
}

/** Who offers these items at the swap day (item id -> member id); items not offered are absent. */
export async function findOfferOwners(
  db: Db,
  swapDayId: number,
  itemIds: readonly number[],
): Promise<Map<number, string>> {
  if (itemIds.length === 0) return new Map();
  const rows = await db
    .select({ itemId: swapDayOffers.itemId, memberId: swapDayOffers.memberId })
    .from(swapDayOffers)
    .where(and(eq(swapDayOffers.swapDayId, swapDayId), inArray(swapDayOffers.itemId, [...itemIds])));
  return new Map(rows.map((row) => [row.itemId, row.memberId]));
}

/** The member's rankings: for each of their offers, the wanted item ids, most wanted first. */
export async function findRankingsOf(
  db: Db,
  swapDayId: number,
  memberId: string,
): Promise<Map<number, number[]>> {
  const rows = await db
    .select({ offerItemId: swapDayWants.offerItemId, wantedItemId: swapDayWants.wantedItemId })
    .from(swapDayWants)
    .innerJoin(
      swapDayOffers,
      and(
        eq(swapDayOffers.swapDayId, swapDayWants.swapDayId),
        eq(swapDayOffers.itemId, swapDayWants.offerItemId),
      ),
    )
    .where(and(eq(swapDayWants.swapDayId, swapDayId), eq(swapDayOffers.memberId, memberId)))
    .orderBy(asc(swapDayWants.offerItemId), asc(swapDayWants.rank));
  const byOffer = new Map<number, number[]>();
  for (const row of rows) {
    const list = byOffer.get(row.offerItemId);
    if (list) list.push(row.wantedItemId);
    else byOffer.set(row.offerItemId, [row.wantedItemId]);
  }
  return byOffer;
}

/** The member's items they could offer: active, not reserved, not offered here yet; newest first. */
export async function findOfferableItems(db: Db, swapDayId: number, memberId: string, limit: number) {
  return db
    .select({
      id: items.id,
      title: items.title,
      category: items.category,
      isService: items.isService,
      thumbnailUrl: sql<string | null>`coalesce(${items.thumbnailUrl}, ${items.imageUrl})`,
    })
    .from(items)
    .where(
      and(
        eq(items.userId, memberId),
        eq(items.isActive, true),
        sql`${items.reservedByRequestId} IS NULL`,
        sql`NOT EXISTS (SELECT 1 FROM ${swapDayOffers} o
          WHERE o.swap_day_id = ${swapDayId}::int AND o.item_id = ${items.id})`,
      ),
    )
    .orderBy(desc(items.createdAt), desc(items.id))
    .limit(limit);
}

export async function insertOffers(
  db: Db,
  swapDayId: number,
  memberId: string,
  itemIds: readonly number[],
): Promise<void> {
  if (itemIds.length === 0) return;
  await db
    .insert(swapDayOffers)
    .values(itemIds.map((itemId) => ({ swapDayId, itemId, memberId })))
    .onConflictDoNothing();
}

/** Withdraw offers: the rows go, with every ranking that names the items (as offer or as wanted). */
export async function deleteOffers(db: Db, swapDayId: number, itemIds: readonly number[]): Promise<void> {
  if (itemIds.length === 0) return;
  const ids = intArray(itemIds);
  await db
    .delete(swapDayWants)
    .where(
      and(
        eq(swapDayWants.swapDayId, swapDayId),
        sql`(${swapDayWants.offerItemId} = ANY(${ids}::int[]) OR ${swapDayWants.wantedItemId} = ANY(${ids}::int[]))`,
      ),
    );
  await db
    .delete(swapDayOffers)
    .where(and(eq(swapDayOffers.swapDayId, swapDayId), sql`${swapDayOffers.itemId} = ANY(${ids}::int[])`));
}

/** Replace what the member would accept for one offer: rank 1 first. */
export async function replaceRanking(
  db: Db,
  swapDayId: number,
  offerItemId: number,
  wantedItemIds: readonly number[],
): Promise<void> {
  await db
    .delete(swapDayWants)
    .where(and(eq(swapDayWants.swapDayId, swapDayId), eq(swapDayWants.offerItemId, offerItemId)));
  if (wantedItemIds.length === 0) return;
  await db
    .insert(swapDayWants)
    .values(
      wantedItemIds.map((wantedItemId, index) => ({ swapDayId, offerItemId, wantedItemId, rank: index + 1 })),
    );
}

// ------------------------------------------------------------------------------------------------
// The swap day row

export interface NewSwapDay {
  organiserId: string;
  name: string;
  place: string;
  startsAt: Date;
  deadline: Date;
  latitude: number;
  longitude: number;
}

export async function insertSwapDay(db: Db, values: NewSwapDay): Promise<SwapDayRow> {
  const [row] = await db.insert(swapDays).values(values).returning();
  if (!row) throw new Error('insert into swap_days returned no row');
  return row;
}

/** A member's public point (what others are measured against), null without a location. */
export async function findPublicPoint(
  db: Db,
  memberId: string,
): Promise<{ latitude: number; longitude: number } | null> {
  const [row] = await db
    .select({ latitude: users.publicLatitude, longitude: users.publicLongitude })
    .from(users)
    .where(eq(users.id, memberId));
  if (!row || row.latitude === null || row.longitude === null) return null;
  return { latitude: Number(row.latitude), longitude: Number(row.longitude) };
}

/** Swap days the member organizes that are not matched or cancelled yet (open, matching or failed). */
export async function countOpenOrganisedBy(db: Db, organiserId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(swapDays)
    .where(
      and(eq(swapDays.organiserId, organiserId), inArray(swapDays.status, ['open', 'matching', 'failed'])),
    );
  return row?.n ?? 0;
}

/**
 * Lock a swap day: `share` for a member's change (joins, offers and rankings go side by side, but
 * never while it is being matched), `no key update` to match or cancel it (one at a time, after
 * every change in flight). Null when there is none.
 */
export async function lockSwapDay(
  db: Db,
  id: number,
  strength: 'share' | 'no key update',
): Promise<SwapDayRow | null> {
  const [row] = await db.select().from(swapDays).where(eq(swapDays.id, id)).for(strength);
  return row ?? null;
}

/**
 * Hand every open swap day whose deadline passed at `now` to the match job: 'matching', waiting.
 * Rows a member is changing (or another sweep is moving) are skipped, not waited for: the next sweep
 * takes them. Their ids.
 */
export async function markDueMatching(db: Db, now: Date, limit: number): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`UPDATE swap_days SET status = 'matching', match_stage = 'waiting', match_failure = NULL
         WHERE id IN (
           SELECT id FROM swap_days
            WHERE status = 'open' AND deadline <= ${now.toISOString()}::timestamptz
            ORDER BY deadline, id LIMIT ${limit}
            FOR NO KEY UPDATE SKIP LOCKED)
        RETURNING id`,
  );
  return rows.map((row) => Number(row.id));
}

/** Swap days waiting for (or in) a match, oldest first; `after`: only ids above it. */
export async function findMatching(db: Db, after: number, limit: number): Promise<number[]> {
  const rows = await db
    .select({ id: swapDays.id })
    .from(swapDays)
    .where(and(eq(swapDays.status, 'matching'), sql`${swapDays.id} > ${after}`))
    .orderBy(asc(swapDays.id))
    .limit(limit);
  return rows.map((row) => row.id);
}

export async function updateSwapDay(
  db: Db,
  id: number,
  changes: Partial<
    Pick<SwapDayRow, 'status' | 'solvedAt' | 'itemsTraded' | 'membersTrading' | 'matchStage' | 'matchFailure'>
  >,
): Promise<void> {
  await db.update(swapDays).set(changes).where(eq(swapDays.id, id));
}

/** Set a matching swap day's stage; false when it is no longer matching (nothing changed). */
export async function updateMatchStage(db: Db, id: number, stage: string): Promise<boolean> {
  const rows = await db
    .update(swapDays)
    .set({ matchStage: stage })
    .where(and(eq(swapDays.id, id), eq(swapDays.status, 'matching')))
    .returning({ id: swapDays.id });
  return rows.length > 0;
}

/** Members who block one another among these: each pair once, as "a b" with a < b. */
export async function findHiddenPairs(db: Db, memberIds: readonly string[]): Promise<Set<string>> {
  if (memberIds.length < 2) return new Set();
  const ids = uuidArray(memberIds);
  const rows = await db
    .select({ a: memberBlocks.blockerId, b: memberBlocks.blockedId })
    .from(memberBlocks)
    .where(
      and(
        sql`${memberBlocks.blockerId} = ANY(${ids}::uuid[])`,
        sql`${memberBlocks.blockedId} = ANY(${ids}::uuid[])`,
      ),
    );
  return new Set(rows.map((row) => pairKey(row.a, row.b)));
}

export const pairKey = (a: string, b: string) => (a < b ? `${a} ${b}` : `${b} ${a}`);

/** Members hidden from the viewer (a block either way). */
export async function findHiddenFrom(db: Db, viewerId: string): Promise<Set<string>> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`SELECT x.id::text AS id FROM ${hiddenMembersOf(viewerId)} AS x(id)`,
  );
  return new Set(rows.map((row) => row.id));
}

// ------------------------------------------------------------------------------------------------
// Matching

/** An offer as the solver reads it: its item, with what the loop's snapshot keeps. */
export type SolveItemRow = ItemStateRow;

/** Offers of members still joined: item and member ids. */
export async function findJoinedOffers(
  db: Db,
  swapDayId: number,
): Promise<Array<{ itemId: number; memberId: string }>> {
  return db
    .select({ itemId: swapDayOffers.itemId, memberId: swapDayOffers.memberId })
    .from(swapDayOffers)
    .innerJoin(
      swapDayMembers,
      and(
        eq(swapDayMembers.swapDayId, swapDayOffers.swapDayId),
        eq(swapDayMembers.memberId, swapDayOffers.memberId),
      ),
    )
    .where(eq(swapDayOffers.swapDayId, swapDayId))
    .orderBy(asc(swapDayOffers.itemId));
}

/**
 * The offered items; with `lock`, locked FOR NO KEY UPDATE in id order (lockItemsInIdOrder: the
 * order every barter takes item locks in, so an accept elsewhere waits for the match's store or the
 * store for it, never both for each other).
 */
export function findOfferedItems(db: Db, ids: readonly number[], lock: boolean): Promise<SolveItemRow[]> {
  return lockItemsInIdOrder(db, ids, lock ? 'no key update' : null);
}

/**
 * Every ranking of the swap day, by offer and rank. One row (a JSON array of [offer, [wanted, ...], [rank, ...]]
 * built by the database): 30,000 rankings decoded row by row held the main thread for most of the
 * match's gathering read (issue 27).
 */
export async function findWants(
  db: Db,
  swapDayId: number,
): Promise<Array<{ offerItemId: number; wantedItemId: number; rank: number }>> {
  const [row] = await queryRows<{ wants: string | null }>(
    db,
    sql`SELECT json_agg(json_build_array(w.offer_item_id, w.wanted_ids, w.ranks) ORDER BY w.offer_item_id)::text AS wants
      FROM (SELECT offer_item_id, array_agg(wanted_item_id ORDER BY rank) AS wanted_ids,
          array_agg(rank ORDER BY rank) AS ranks
        FROM ${swapDayWants} WHERE swap_day_id = ${swapDayId}::int GROUP BY offer_item_id) w`,
  );
  if (!row?.wants) return [];
  return (JSON.parse(row.wants) as Array<[number, number[], number[]]>).flatMap(
    ([offerItemId, wanted, ranks]) =>
      wanted.map((wantedItemId, index) => ({ offerItemId, wantedItemId, rank: ranks[index] as number })),
  );
}

/** One hand-over of a loop: the giver at `position` gives the item to the next position's member. */
export interface LoopStepRow {
  memberId: string;
  item: SolveItemRow;
}

/** Rows per multi-row insert: a bound on one statement's parameters whatever the swap day's size. */
const ROWS_PER_INSERT = 1_000;

/**
 * Store loops as accepted circles of the swap day and their members in order, set-wise (ADR 056):
 * one insert of the circles and one of their members (per 1,000 rows); the circles' ids in the
 * order of the loops.
 */
export async function insertLoops(
  db: Db,
  swapDayId: number,
  loops: ReadonlyArray<readonly LoopStepRow[]>,
  now: Date,
): Promise<number[]> {
  const ids: number[] = [];
  for (let start = 0; start < loops.length; start += ROWS_PER_INSERT) {
    const chunk = loops.slice(start, start + ROWS_PER_INSERT);
    const rows = await db
      .insert(circles)
      .values(
        chunk.map((steps) => ({
          status: 'accepted',
          size: steps.length,
          expiresAt: now,
          acceptedAt: now,
          swapDayId,
        })),
      )
      .returning({ id: circles.id });
    if (rows.length !== chunk.length) throw new Error('insert into circles returned too few rows');
    // Identity values are given in the order of the rows: ascending ids are the loops in order.
    ids.push(...rows.map((row) => row.id).sort((a, b) => a - b));
  }
  const members = loops.flatMap((steps, loop) =>
    steps.map((step, position) => ({
      circleId: ids[loop] as number,
      position,
      memberId: step.memberId,
      itemId: step.item.id,
      title: step.item.title,
      category: step.item.category,
      isService: step.item.isService,
      value: step.item.estimatedValue,
      acceptedAt: now,
    })),
  );
  for (let start = 0; start < members.length; start += ROWS_PER_INSERT) {
    await db.insert(circleMembers).values(members.slice(start, start + ROWS_PER_INSERT));
  }
  return ids;
}

/** A hand-over of a matched swap day: the loop's step and its barter's status now. */
export interface HandOverRow {
  circleId: number;
  position: number;
  size: number;
  memberId: string | null;
  itemId: number | null;
  title: string;
  category: string;
  isService: boolean;
  barterRequestId: number | null;
  barterStatus: string | null;
  member: MemberRefRow | null;
}

/** Every step of every loop of the swap day, loop by loop (in the order they were stored), in position order. */
export async function findHandOvers(db: Db, swapDayId: number): Promise<HandOverRow[]> {
  const rows = await db
    .select({
      circleId: circleMembers.circleId,
      position: circleMembers.position,
      size: circles.size,
      memberId: circleMembers.memberId,
      itemId: circleMembers.itemId,
      title: circleMembers.title,
      category: circleMembers.category,
      isService: circleMembers.isService,
      barterRequestId: circleMembers.barterRequestId,
      barterStatus: barterRequests.status,
      member: organiserRef,
    })
    .from(circleMembers)
    .innerJoin(circles, eq(circles.id, circleMembers.circleId))
    .leftJoin(users, eq(users.id, circleMembers.memberId))
    .leftJoin(barterRequests, eq(barterRequests.id, circleMembers.barterRequestId))
    .where(eq(circles.swapDayId, swapDayId))
    .orderBy(asc(circles.id), asc(circleMembers.position));
  return rows.map((row) => ({ ...row, member: row.member?.id ? row.member : null }));
}

/**
 * The member's swap days for their data export (ADR 025): those they organize or joined, with their
 * own offers and rankings (other members by nothing at all, items by id).
 */
export async function exportSwapDaysOf(db: Db, memberId: string) {
  const rows = await db
    .select({
      id: swapDays.id,
      name: swapDays.name,
      place: swapDays.place,
      startsAt: swapDays.startsAt,
      deadline: swapDays.deadline,
      status: swapDays.status,
      organiserId: swapDays.organiserId,
      joinedAt: swapDayMembers.joinedAt,
    })
    .from(swapDays)
    .leftJoin(
      swapDayMembers,
      and(eq(swapDayMembers.swapDayId, swapDays.id), eq(swapDayMembers.memberId, memberId)),
    )
    .where(or(eq(swapDays.organiserId, memberId), sql`${swapDayMembers.memberId} IS NOT NULL`))
    .orderBy(asc(swapDays.id));
  const result = [];
  for (const row of rows) {
    const rankings = await findRankingsOf(db, row.id, memberId);
    const offered = await findOfferedIdsOf(db, row.id, memberId);
    result.push({
      id: row.id,
      name: row.name,
      place: row.place,
      startsAt: row.startsAt,
      deadline: row.deadline,
      status: row.status,
      organizedByMe: row.organiserId === memberId,
      joinedAt: row.joinedAt,
      offers: offered.map((itemId) => ({ itemId, wantedItemIds: rankings.get(itemId) ?? [] })),
    });
  }
  return result;
}
