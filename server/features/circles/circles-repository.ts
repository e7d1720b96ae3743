import { and, asc, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { uuidArray } from '../../db/arrays';
import type { Db } from '../../db/client';
import { queryPrepared } from '../../db/prepared';
import { queryRows } from '../../db/rows';
import {
  type CircleMemberRow,
  type CircleRow,
  circleChanges,
  circleMembers,
  circles,
  items,
} from '../../db/schema/trading';
import { users } from '../../db/schema/users';
import { freeToGive, lockItemsInIdOrder } from '../items';
import type { MemberRefRow } from '../member-refs';
import type { FoundCircle } from './circle-finder';

/** A circle with its members in order, each with their member reference and item's state now. */
export interface CircleView {
  row: CircleRow;
  steps: Array<
    CircleMemberRow & {
      member: MemberRefRow | null;
      thumbnailUrl: string | null;
      itemExists: boolean;
    }
  >;
}

/** Mark members whose possible circles changed; the finder's job looks at them next. */
export async function markCircleChanges(db: Db, memberIds: Iterable<string | null>): Promise<void> {
  const ids = [...new Set([...memberIds].filter((id): id is string => id !== null))];
  if (ids.length === 0) return;
  // Sorted, so two transactions logging the same members take the index's locks in one order.
  await db
    .insert(circleChanges)
    .values(ids.sort().map((memberId) => ({ memberId })))
    .onConflictDoNothing({ target: circleChanges.memberId });
}

/** Take up to `batch` logged changes (deleted with the caller's transaction), members once each. */
export async function takeCircleChanges(db: Db, batch: number): Promise<string[]> {
  const rows = await queryRows<{ member_id: string }>(
    db,
    sql`DELETE FROM circle_changes WHERE id IN (
          SELECT id FROM circle_changes ORDER BY id LIMIT ${batch}::int FOR UPDATE SKIP LOCKED)
        RETURNING member_id::text AS member_id`,
  );
  return [...new Set(rows.map((row) => row.member_id))];
}

/**
 * Of these members, those free for a new circle now: not in a live proposed circle. Locks each
 * member's circles by an advisory lock so two finders never propose the same member twice.
 */
export async function freeMembers(db: Db, memberIds: readonly string[], now: Date): Promise<Set<string>> {
  if (memberIds.length === 0) return new Set();
  await db.execute(sql`SELECT pg_advisory_xact_lock(hashtext('circle-finder'))`);
  const rows = await queryRows<{ member_id: string }>(
    db,
    sql`SELECT DISTINCT cm.member_id::text AS member_id FROM circle_members cm
      JOIN circles c ON c.id = cm.circle_id
      WHERE cm.member_id = ANY(${uuidArray(memberIds)}::uuid[])
        AND c.status = 'proposed' AND c.expires_at > ${now.toISOString()}::timestamptz`,
  );
  const busy = new Set(rows.map((row) => row.member_id));
  return new Set(memberIds.filter((id) => !busy.has(id)));
}

/**
 * Store a proposed circle and its members; the new circle's id. A healed circle (ADR 081) names the
 * one it `replaces` and keeps the acceptance of the members in `accepted` (their hand-overs stay).
 */
export async function insertCircle(
  db: Db,
  circle: FoundCircle,
  expiresAt: Date,
  heal: { replaces: number; accepted: ReadonlyMap<string, Date> } | null = null,
): Promise<number> {
  const ids = circle.steps.map((step) => step.itemId);
  const found = await lockItemsInIdOrder(db, ids, 'share');
  const byId = new Map(found.map((item) => [item.id, item]));
  const [row] = await db
    .insert(circles)
    .values({ status: 'proposed', size: circle.steps.length, expiresAt, replacesId: heal?.replaces ?? null })
    .returning({ id: circles.id });
  if (!row) throw new Error('insert into circles returned no row');
  await db.insert(circleMembers).values(
    circle.steps.map((step, position) => {
      const item = byId.get(step.itemId);
      if (!freeToGive(item, step.giverId)) {
        throw new CircleGoneError();
      }
      return {
        circleId: row.id,
        position,
        memberId: step.giverId,
        itemId: item.id,
        title: item.title,
        category: item.category,
        isService: item.isService,
        value: item.estimatedValue,
        wantId: step.wantId,
        acceptedAt: heal?.accepted.get(step.giverId) ?? null,
      };
    }),
  );
  return row.id;
}

/** An item of a circle about to be proposed changed meanwhile: leave that circle for the next run. */
export class CircleGoneError extends Error {}

const memberRef = {
  id: users.id,
  displayName: users.displayName,
  firstName: users.firstName,
  lastName: users.lastName,
  profileImageUrl: users.profileImageUrl,
};

/** Circles matching `where` with their members, in two statements. */
async function findViews(db: Db, where: SQL, page: { limit: number; offset: number } | null) {
  const query = db.select().from(circles).where(where).orderBy(desc(circles.id)).$dynamic();
  const rows = await (page ? query.limit(page.limit).offset(page.offset) : query);
  if (rows.length === 0) return [];
  const steps = await db
    .select({
      step: circleMembers,
      member: memberRef,
      thumbnailUrl: sql<string | null>`coalesce(${items.thumbnailUrl}, ${items.imageUrl})`,
      itemId: items.id,
    })
    .from(circleMembers)
    .leftJoin(users, eq(users.id, circleMembers.memberId))
    .leftJoin(items, eq(items.id, circleMembers.itemId))
    .where(
      inArray(
        circleMembers.circleId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(circleMembers.circleId), asc(circleMembers.position));
  return rows.map(
    (row): CircleView => ({
      row,
      steps: steps
        .filter((step) => step.step.circleId === row.id)
        .map((step) => ({
          ...step.step,
          member: step.member?.id ? step.member : null,
          thumbnailUrl: step.itemId === null ? null : step.thumbnailUrl,
          itemExists: step.itemId !== null,
        })),
    }),
  );
}

const memberOf = (viewerId: string): SQL =>
  sql`${circles.id} IN (SELECT circle_id FROM circle_members WHERE member_id = ${viewerId}::uuid)`;

/** A circle as one of its members sees it; null for anyone else. */
export async function findCircleView(db: Db, viewerId: string, id: number): Promise<CircleView | null> {
  const [view] = await findCircleViews(db, viewerId, [id]);
  return view ?? null;
}

/**
 * The circles among `ids` that the viewer is a member of, as they see them, newest first; the
 * others are left out. Two statements however many (Barter Match marks a page's circles at once).
 */
export async function findCircleViews(
  db: Db,
  viewerId: string,
  ids: readonly number[],
): Promise<CircleView[]> {
  if (ids.length === 0) return [];
  return findViews(db, and(inArray(circles.id, [...ids]), memberOf(viewerId)) as SQL, null);
}

/**
 * The viewer's circles: 'proposed' ones waiting for answers (not past their expiry), or every other
 * one (settled), newest first. Swap-day loops are listed with their swap day, not here.
 */
export async function findCircleList(
  db: Db,
  viewerId: string,
  box: 'proposed' | 'past',
  page: { limit: number; offset: number },
  now: Date,
): Promise<CircleView[]> {
  const live = sql`${circles.status} = 'proposed' AND ${circles.expiresAt} > ${now.toISOString()}::timestamptz`;
  return findViews(
    db,
    and(memberOf(viewerId), isNull(circles.swapDayId), box === 'proposed' ? live : sql`NOT (${live})`) as SQL,
    page,
  );
}

/** Lock a circle for an answer (FOR NO KEY UPDATE: notifications referencing it can still be written). */
export async function lockCircle(db: Db, id: number): Promise<CircleRow | null> {
  const [row] = await db.select().from(circles).where(eq(circles.id, id)).for('no key update');
  return row ?? null;
}

export async function circleSteps(db: Db, circleId: number): Promise<CircleMemberRow[]> {
  return db
    .select()
    .from(circleMembers)
    .where(eq(circleMembers.circleId, circleId))
    .orderBy(asc(circleMembers.position));
}

export async function markAccepted(db: Db, circleId: number, memberId: string, now: Date): Promise<void> {
  await db
    .update(circleMembers)
    .set({ acceptedAt: now })
    .where(
      and(
        eq(circleMembers.circleId, circleId),
        eq(circleMembers.memberId, memberId),
        isNull(circleMembers.acceptedAt),
      ),
    );
}

export type CircleChanges = Partial<Pick<CircleRow, 'status' | 'acceptedAt' | 'closedById' | 'closedAt'>>;

export async function updateCircle(db: Db, id: number, changes: CircleChanges): Promise<void> {
  await db.update(circles).set(changes).where(eq(circles.id, id));
}

/** The viewer's live proposed circle and what they would get in it, for Barter Match's cards. */
export async function findReceivingInCircles(
  db: Db,
  viewerId: string,
  now: Date,
): Promise<Array<{ circleId: number; itemId: number }>> {
  // Read on every Barter Match page: prepared, planned once per connection.
  const rows = await queryPrepared<{ circle_id: number; item_id: number }>(
    db,
    sql`SELECT c.id AS circle_id, giver.item_id
      FROM circle_members me
      JOIN circles c ON c.id = me.circle_id
      JOIN circle_members giver ON giver.circle_id = c.id AND (giver.position + 1) % c.size = me.position
      WHERE me.member_id = ${viewerId}::uuid AND c.status = 'proposed' AND c.swap_day_id IS NULL
        AND c.expires_at > ${now.toISOString()}::timestamptz AND giver.item_id IS NOT NULL`,
  );
  return rows.map((row) => ({ circleId: Number(row.circle_id), itemId: Number(row.item_id) }));
}

/**
 * Mark up to `batch` proposed circles due at `now` expired and return them with their members
 * (SKIP LOCKED: sweeps side by side never take the same circle).
 */
export async function expireDueCircles(
  db: Db,
  now: Date,
  batch: number,
): Promise<Array<{ id: number; memberIds: string[] }>> {
  const rows = await queryRows<{ id: number; member_ids: string[] }>(
    db,
    sql`UPDATE circles c SET status = 'expired', closed_at = ${now.toISOString()}::timestamptz
      WHERE c.status = 'proposed' AND c.id IN (
        SELECT id FROM circles WHERE status = 'proposed' AND expires_at <= ${now.toISOString()}::timestamptz
        ORDER BY expires_at LIMIT ${batch}::int FOR NO KEY UPDATE SKIP LOCKED)
      RETURNING c.id, ARRAY(SELECT cm.member_id::text FROM circle_members cm
        WHERE cm.circle_id = c.id AND cm.member_id IS NOT NULL) AS member_ids`,
  );
  return rows.map((row) => ({ id: Number(row.id), memberIds: row.member_ids }));
}

/**
 * Live proposed circles of these members with an item that can no longer change hands in them,
 * locked (SKIP LOCKED: one being answered now is left to its answer), with their members.
 */
export async function lockBrokenCircles(
  db: Db,
  memberIds: readonly string[],
  now: Date,
): Promise<Array<{ id: number; memberIds: string[] }>> {
  const rows = await queryRows<{ id: number; member_ids: string[] }>(
    db,
    sql`SELECT c.id, ARRAY(SELECT m.member_id::text FROM circle_members m
        WHERE m.circle_id = c.id AND m.member_id IS NOT NULL) AS member_ids
      FROM circles c
      WHERE c.status = 'proposed' AND c.expires_at > ${now.toISOString()}::timestamptz
        AND c.id IN (SELECT circle_id FROM circle_members WHERE member_id = ANY(${uuidArray(memberIds)}::uuid[]))
        AND EXISTS (SELECT 1 FROM circle_members cm LEFT JOIN items i ON i.id = cm.item_id
          WHERE cm.circle_id = c.id AND (cm.member_id IS NULL OR i.id IS NULL OR i.user_id <> cm.member_id
            OR NOT i.is_active OR i.reserved_by_request_id IS NOT NULL))
      ORDER BY c.id
      FOR NO KEY UPDATE OF c SKIP LOCKED`,
  );
  return rows.map((row) => ({ id: Number(row.id), memberIds: row.member_ids }));
}

/** Blocks among these members, both ways, as "blocker|blocked" and "blocked|blocker". */
export async function findHiddenPairs(db: Db, memberIds: readonly string[]): Promise<Set<string>> {
  if (memberIds.length < 2) return new Set();
  const rows = await queryRows<{ a: string; b: string }>(
    db,
    sql`SELECT blocker_id::text AS a, blocked_id::text AS b FROM member_blocks
      WHERE blocker_id = ANY(${uuidArray(memberIds)}::uuid[]) AND blocked_id = ANY(${uuidArray(memberIds)}::uuid[])`,
  );
  return new Set(rows.flatMap((row) => [`${row.a}|${row.b}`, `${row.b}|${row.a}`]));
}

/** Every member with an item in someone's match graph (who could give in a circle), in id order. */
export async function findGivers(db: Db): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`SELECT DISTINCT item_user_id::text AS id FROM match_graph ORDER BY 1`,
  );
  return rows.map((row) => row.id);
}

/**
 * The member's trade circles for their data export (ADR 025): each circle's state and its loop in
 * order, other members by id only. Two reads: the circles, then every step of them.
 */
export async function exportCirclesOf(db: Db, memberId: string) {
  const rows = await db
    // Distinct: a swap day's loop may pass through one member twice.
    .selectDistinct({
      id: circles.id,
      status: circles.status,
      swapDayId: circles.swapDayId,
      createdAt: circles.createdAt,
      expiresAt: circles.expiresAt,
      acceptedAt: circles.acceptedAt,
      closedAt: circles.closedAt,
    })
    .from(circles)
    .innerJoin(circleMembers, eq(circleMembers.circleId, circles.id))
    .where(eq(circleMembers.memberId, memberId))
    .orderBy(asc(circles.id));
  const steps = rows.length
    ? await db
        .select()
        .from(circleMembers)
        .where(
          inArray(
            circleMembers.circleId,
            rows.map((row) => row.id),
          ),
        )
        .orderBy(asc(circleMembers.circleId), asc(circleMembers.position))
    : [];
  return rows.map((row) => ({
    ...row,
    loop: steps
      .filter((step) => step.circleId === row.id)
      .map((step) => ({
        position: step.position,
        me: step.memberId === memberId,
        memberId: step.memberId,
        gives: { itemId: step.itemId, title: step.title, category: step.category, isService: step.isService },
        estimatedValue: step.value,
        acceptedAt: step.acceptedAt,
        barterRequestId: step.barterRequestId,
      })),
  }));
}
