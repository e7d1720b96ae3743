import { and, asc, count, desc, eq, inArray, isNull, lte, ne, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { BARTER_BOX_STATUSES, type BarterBox } from '#common/barter-machine.ts';
import { intArray } from '../../db/arrays';
import type { Db } from '../../db/client';
import { type Page, type PageRequest, withTotal } from '../../db/paging';
import { queryRows } from '../../db/rows';
import {
  type BarterRequestRow,
  barterRequestItems,
  barterRequests,
  circles,
  items,
  messages,
  ratings,
  swapDays,
} from '../../db/schema/trading';
import { users } from '../../db/schema/users';
import type { ItemStateRow } from '../items';
import type { MemberRefRow } from '../member-refs';
import type { RatingRow } from './ratings-repository';

/**
 * Barter requests (proposals, counters and hand-overs alike): the Barters lists and a request as a
 * member sees it, the writes of its actions inside the service's transactions, and their expiry.
 * Item states are read and locked through items (lockItemsInIdOrder); ratings, messages and a
 * circle's hand-over legs have repositories of their own.
 */
/** One item of a proposal: its snapshot, and the item's state now (null fields once deleted). */
export interface RequestItemRow {
  requestId: number;
  side: 'from' | 'to';
  position: number;
  itemId: number | null;
  title: string;
  category: string;
  isService: boolean;
  /** The item's current feed-size photo (or large one); null once deleted or without a photo. */
  thumbnailUrl: string | null;
  /** The item row still exists. */
  exists: boolean;
  isActive: boolean;
  reservedByRequestId: number | null;
}

/** A barter request with everything a viewer's Barter is made of. */
export interface BarterView {
  row: BarterRequestRow;
  fromUser: MemberRefRow | null;
  toUser: MemberRefRow | null;
  items: RequestItemRow[];
  /** Messages to the viewer in the request's thread they have not read. */
  unreadMessages: number;
  /** The counter that answered this request, if any. */
  counteredById: number | null;
  myRating: RatingRow | null;
  theirRating: RatingRow | null;
  /** The swap day whose hand-over this is (a loop of its circle), or null (issue 30). */
  swapDay: { id: number; name: string } | null;
}

const fromUser = alias(users, 'from_user');
const toUser = alias(users, 'to_user');
const myRating = alias(ratings, 'my_rating');
const theirRating = alias(ratings, 'their_rating');

/** A request's conversation: its thread (the first request of the negotiation). */
export const threadIdOf = (row: Pick<BarterRequestRow, 'id' | 'threadId'>): number => row.threadId ?? row.id;

const participant = (viewerId: string): SQL =>
  or(eq(barterRequests.fromUserId, viewerId), eq(barterRequests.toUserId, viewerId)) as SQL;

const memberColumns = (table: typeof fromUser | typeof toUser) => ({
  id: table.id,
  displayName: table.displayName,
  firstName: table.firstName,
  lastName: table.lastName,
  profileImageUrl: table.profileImageUrl,
});

/** A pending request whose 14 days are over at `now` (the sweep may not have marked it yet). */
const overdue = (now: Date): SQL =>
  and(eq(barterRequests.status, 'pending'), lte(barterRequests.expiresAt, now)) as SQL;
const notOverdue = (now: Date): SQL =>
  sql`(${barterRequests.expiresAt} IS NULL OR ${barterRequests.expiresAt} > ${now.toISOString()}::timestamptz)`;

/**
 * The requests of one of the Barters screen's lists (common/barter-machine.ts BARTER_BOXES): pending
 * ones past their expiry are already in 'past', like the sweep will mark them.
 */
export function boxWhere(viewerId: string, box: BarterBox, now: Date): SQL {
  const pending = eq(barterRequests.status, 'pending');
  switch (box) {
    case 'incoming':
      return and(eq(barterRequests.toUserId, viewerId), pending, notOverdue(now)) as SQL;
    case 'outgoing':
      return and(eq(barterRequests.fromUserId, viewerId), pending, notOverdue(now)) as SQL;
    case 'active':
      return and(participant(viewerId), eq(barterRequests.status, 'accepted')) as SQL;
    case 'past':
      return and(
        participant(viewerId),
        or(inArray(barterRequests.status, [...BARTER_BOX_STATUSES.past]), overdue(now)),
      ) as SQL;
  }
}

/**
 * Requests matching `where` as `viewerId` sees them, newest updated first: both members, the
 * viewer's unread messages in each thread, the counter that answered each and both ratings joined
 * in one statement, then every item of the page in a second.
 */
async function findViews(
  db: Db,
  viewerId: string,
  where: SQL,
  page: PageRequest | null,
): Promise<BarterView[]> {
  const query = db
    .select({
      row: barterRequests,
      fromUser: memberColumns(fromUser),
      toUser: memberColumns(toUser),
      unreadMessages: sql<number>`(SELECT count(*)::int FROM ${messages} m
        WHERE m.to_user_id = ${viewerId}::uuid AND NOT m.is_read
          AND m.barter_request_id = coalesce(${barterRequests.threadId}, ${barterRequests.id}))`.mapWith(
        Number,
      ),
      counteredById: sql<number | null>`(SELECT c.id FROM ${barterRequests} c
        WHERE c.thread_id = ${barterRequests.threadId} AND c.counter_of_id = ${barterRequests.id}
        ORDER BY c.id LIMIT 1)`,
      myRating: { stars: myRating.stars, comment: myRating.comment, revealedAt: myRating.revealedAt },
      theirRating: {
        stars: theirRating.stars,
        comment: theirRating.comment,
        revealedAt: theirRating.revealedAt,
      },
      swapDay: { id: swapDays.id, name: swapDays.name },
    })
    .from(barterRequests)
    .leftJoin(fromUser, eq(fromUser.id, barterRequests.fromUserId))
    .leftJoin(toUser, eq(toUser.id, barterRequests.toUserId))
    .leftJoin(circles, eq(circles.id, barterRequests.circleId))
    .leftJoin(swapDays, eq(swapDays.id, circles.swapDayId))
    .leftJoin(myRating, and(eq(myRating.barterRequestId, barterRequests.id), eq(myRating.raterId, viewerId)))
    .leftJoin(
      theirRating,
      and(eq(theirRating.barterRequestId, barterRequests.id), eq(theirRating.rateeId, viewerId)),
    )
    .where(where)
    .orderBy(desc(barterRequests.updatedAt), desc(barterRequests.id))
    .$dynamic();
  const rows = await (page ? query.limit(page.limit).offset(page.offset) : query);
  const itemsByRequest = await findRequestItems(
    db,
    rows.map((row) => row.row.id),
  );
  return rows.map((row) => ({
    row: row.row,
    fromUser: row.fromUser,
    toUser: row.toUser,
    items: itemsByRequest.get(row.row.id) ?? [],
    unreadMessages: row.unreadMessages,
    counteredById: row.counteredById === null ? null : Number(row.counteredById),
    myRating: row.myRating,
    theirRating: row.theirRating,
    swapDay: row.swapDay,
  }));
}

/** One page of a Barters list as the viewer sees it, with how many there are in all. */
export async function findBarterPage(
  db: Db,
  viewerId: string,
  box: BarterBox,
  page: PageRequest,
  now: Date,
): Promise<Page<BarterView>> {
  const where = boxWhere(viewerId, box, now);
  const views = await findViews(db, viewerId, where, page);
  return withTotal(views, page, async () => {
    const [row] = await db.select({ n: count() }).from(barterRequests).where(where);
    return row?.n ?? 0;
  });
}

/** A request as one of its members sees it; null when there is none or the viewer is not a member. */
export async function findBarterView(db: Db, viewerId: string, id: number): Promise<BarterView | null> {
  const [view] = await findViews(
    db,
    viewerId,
    and(eq(barterRequests.id, id), participant(viewerId)) as SQL,
    null,
  );
  return view ?? null;
}

/** Every item of these requests, snapshot and current state, by request, in side and position order. */
export async function findRequestItems(
  db: Db,
  requestIds: readonly number[],
): Promise<Map<number, RequestItemRow[]>> {
  const byRequest = new Map<number, RequestItemRow[]>();
  if (requestIds.length === 0) return byRequest;
  const rows = await db
    .select({
      requestId: barterRequestItems.barterRequestId,
      side: barterRequestItems.side,
      position: barterRequestItems.position,
      itemId: barterRequestItems.itemId,
      title: barterRequestItems.title,
      category: barterRequestItems.category,
      isService: barterRequestItems.isService,
      thumbnailUrl: sql<string | null>`coalesce(${items.thumbnailUrl}, ${items.imageUrl})`,
      currentId: items.id,
      isActive: items.isActive,
      reservedByRequestId: items.reservedByRequestId,
    })
    .from(barterRequestItems)
    .leftJoin(items, eq(items.id, barterRequestItems.itemId))
    .where(inArray(barterRequestItems.barterRequestId, [...requestIds]))
    .orderBy(
      asc(barterRequestItems.barterRequestId),
      asc(barterRequestItems.side),
      asc(barterRequestItems.position),
    );
  for (const row of rows) {
    const item: RequestItemRow = {
      requestId: row.requestId,
      side: row.side === 'to' ? 'to' : 'from',
      position: row.position,
      itemId: row.itemId,
      title: row.title,
      category: row.category,
      isService: row.isService,
      thumbnailUrl: row.thumbnailUrl,
      exists: row.currentId !== null,
      isActive: row.isActive === true,
      reservedByRequestId: row.reservedByRequestId,
    };
    const list = byRequest.get(row.requestId);
    if (list) list.push(item);
    else byRequest.set(row.requestId, [item]);
  }
  return byRequest;
}

// ------------------------------------------------------------------------------------------------
// Writes (inside the service's transactions)

/**
 * Lock a request for an action: FOR NO KEY UPDATE, so two actions on it wait for each other while
 * rows that merely reference it (notifications, a counter) can still be written meanwhile.
 */
export async function lockRequest(db: Db, id: number): Promise<BarterRequestRow | null> {
  const [row] = await db.select().from(barterRequests).where(eq(barterRequests.id, id)).for('no key update');
  return row ?? null;
}

/** The items of a request's rows, snapshots only (no current state). */
export async function findItemIdsOfRequest(db: Db, requestId: number): Promise<Array<number | null>> {
  const rows = await db
    .select({ itemId: barterRequestItems.itemId })
    .from(barterRequestItems)
    .where(eq(barterRequestItems.barterRequestId, requestId));
  return rows.map((row) => row.itemId);
}

/** Reserve these items for an accepted request, only those still active and free; the ids reserved. */
export async function reserveItems(db: Db, requestId: number, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .update(items)
    .set({ reservedByRequestId: requestId })
    .where(and(inArray(items.id, [...ids]), isNull(items.reservedByRequestId), eq(items.isActive, true)))
    .returning({ id: items.id });
  return rows.map((row) => row.id);
}

/** Free the items a request holds (cancelled); the ids freed. */
export async function releaseItems(db: Db, requestId: number): Promise<number[]> {
  const rows = await db
    .update(items)
    .set({ reservedByRequestId: null })
    .where(eq(items.reservedByRequestId, requestId))
    .returning({ id: items.id });
  return rows.map((row) => row.id);
}

/**
 * The items of a completed barter changed hands: traded in it for good (never shown again nor
 * edited, issue 30), no longer listed, no longer reserved.
 */
export async function retireItems(db: Db, requestId: number, now: Date = new Date()): Promise<number[]> {
  const rows = await db
    .update(items)
    .set({ isActive: false, reservedByRequestId: null, tradedAt: now, tradedInRequestId: requestId })
    .where(eq(items.reservedByRequestId, requestId))
    .returning({ id: items.id });
  return rows.map((row) => row.id);
}

export type RequestChanges = Partial<
  Pick<
    BarterRequestRow,
    | 'status'
    | 'expiresAt'
    | 'acceptedAt'
    | 'fromConfirmedAt'
    | 'toConfirmedAt'
    | 'closedById'
    | 'closeReason'
    | 'threadId'
  >
>;

export async function updateRequest(db: Db, id: number, changes: RequestChanges): Promise<void> {
  await db
    .update(barterRequests)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(barterRequests.id, id));
}

/** The two members of a request, for notices. */
export interface RequestMembers {
  id: number;
  threadId: number;
  fromUserId: string | null;
  toUserId: string | null;
}

/**
 * Other live pending requests (not expired at `now`) that use any of these items, with their members:
 * they can no longer be accepted once the items are reserved.
 */
export async function findPendingUsingItems(
  db: Db,
  itemIds: readonly number[],
  exceptId: number,
  now: Date,
): Promise<RequestMembers[]> {
  if (itemIds.length === 0) return [];
  const rows = await db
    .selectDistinct({
      id: barterRequests.id,
      threadId: barterRequests.threadId,
      fromUserId: barterRequests.fromUserId,
      toUserId: barterRequests.toUserId,
    })
    .from(barterRequestItems)
    .innerJoin(barterRequests, eq(barterRequests.id, barterRequestItems.barterRequestId))
    .where(
      and(
        inArray(barterRequestItems.itemId, [...itemIds]),
        eq(barterRequests.status, 'pending'),
        ne(barterRequests.id, exceptId),
        notOverdue(now),
      ),
    )
    .orderBy(asc(barterRequests.id));
  return rows.map((row) => ({ ...row, threadId: threadIdOf(row) }));
}

/** Item ids ascending, as the stored sides are compared (one int[] parameter). */
const sortedIds = (ids: readonly number[]) => intArray([...ids].sort((a, b) => a - b));

/**
 * A live pending request from `fromUserId` to `toUserId` offering exactly these items for exactly
 * those; its id, or null.
 */
export async function findIdenticalPending(
  db: Db,
  input: { fromUserId: string; toUserId: string; offered: readonly number[]; requested: readonly number[] },
  now: Date,
): Promise<number | null> {
  const side = (name: 'from' | 'to') =>
    sql`(SELECT array_agg(x.item_id ORDER BY x.item_id) FROM ${barterRequestItems} x
      WHERE x.barter_request_id = ${barterRequests.id} AND x.side = ${name})`;
  const [row] = await db
    .select({ id: barterRequests.id })
    .from(barterRequests)
    .where(
      and(
        eq(barterRequests.fromUserId, input.fromUserId),
        eq(barterRequests.toUserId, input.toUserId),
        eq(barterRequests.status, 'pending'),
        notOverdue(now),
        sql`${side('from')} = ${sortedIds(input.offered)}::int[]`,
        sql`${side('to')} = ${sortedIds(input.requested)}::int[]`,
      ),
    )
    .limit(1);
  return row?.id ?? null;
}

/**
 * Serialise one member's proposals (for the duplicate check) with a lock held until the transaction
 * ends; other members' proposals do not wait.
 */
export async function lockProposalsOf(db: Db, userId: string): Promise<void> {
  await db.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`barter-proposals:${userId}`}::text))`);
}

export interface NewRequest {
  fromUserId: string;
  toUserId: string;
  message: string | null;
  expiresAt: Date;
  threadId: number | null;
  counterOfId: number | null;
  offered: readonly ItemStateRow[];
  requested: readonly ItemStateRow[];
}

/** Store a pending request and its items (a new thread of its own unless `threadId` is given). */
export async function insertRequest(db: Db, input: NewRequest): Promise<BarterRequestRow> {
  const [inserted] = await db
    .insert(barterRequests)
    .values({
      fromUserId: input.fromUserId,
      toUserId: input.toUserId,
      fromItemId: input.offered[0]?.id ?? null,
      toItemId: input.requested[0]?.id ?? null,
      message: input.message,
      status: 'pending',
      expiresAt: input.expiresAt,
      threadId: input.threadId,
      counterOfId: input.counterOfId,
    })
    .returning();
  if (!inserted) throw new Error('insert into barter_requests returned no row');
  let row = inserted;
  if (input.threadId === null) {
    const [updated] = await db
      .update(barterRequests)
      .set({ threadId: inserted.id })
      .where(eq(barterRequests.id, inserted.id))
      .returning();
    if (!updated) throw new Error('update of barter_requests returned no row');
    row = updated;
  }
  const snapshot = (side: 'from' | 'to') => (item: ItemStateRow, position: number) => ({
    barterRequestId: row.id,
    itemId: item.id,
    side,
    position,
    title: item.title,
    category: item.category,
    isService: item.isService,
  });
  await db
    .insert(barterRequestItems)
    .values([...input.offered.map(snapshot('from')), ...input.requested.map(snapshot('to'))]);
  return row;
}

// ------------------------------------------------------------------------------------------------
// Expiry

/**
 * Mark up to `batch` pending requests due at `now` expired and return them. Rows another process is
 * expiring (or acting on) are skipped, so sweeps running side by side never wait or mark twice.
 */
export async function expireDue(db: Db, now: Date, batch: number): Promise<RequestMembers[]> {
  const rows = await queryRows<{
    id: number;
    thread_id: number | null;
    from_user_id: string | null;
    to_user_id: string | null;
  }>(
    db,
    sql`UPDATE ${barterRequests} SET status = 'expired', updated_at = ${now.toISOString()}::timestamptz
      WHERE status = 'pending' AND id IN (
        SELECT id FROM ${barterRequests}
        WHERE status = 'pending' AND expires_at <= ${now.toISOString()}::timestamptz
        ORDER BY expires_at
        LIMIT ${batch}::int
        FOR NO KEY UPDATE SKIP LOCKED)
      RETURNING id, thread_id, from_user_id::text AS from_user_id, to_user_id::text AS to_user_id`,
  );
  return rows.map((row) => ({
    id: row.id,
    threadId: row.thread_id ?? row.id,
    fromUserId: row.from_user_id,
    toUserId: row.to_user_id,
  }));
}
