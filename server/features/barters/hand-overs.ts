import { sql } from 'drizzle-orm';
import { BARTER_ERROR_CODES } from '#common/schemas/barters.ts';
import { intArray } from '../../db/arrays';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/rows';
import { barterRequestItems, barterRequests } from '../../db/schema/trading';
import { conflict } from '../../errors';
import { type NewMemberEvent, publishMemberEvents } from '../../events/publish';
import { freeToGive, type ItemStateRow, lockItemsInIdOrder } from '../items';
import { type NotifyInput, notifyMembers } from '../notifications';
import { barterEvents } from './barters-service';
import { findPendingUsingItems, type RequestMembers } from './requests-repository';

/**
 * One step of a loop: `giverId` gives `itemId` to `receiverId`. A circle's steps in order: each
 * giver receives from the step before.
 */
export interface LoopStep {
  giverId: string;
  receiverId: string;
  itemId: number;
}

/** An accepted loop to write: its circle (already stored, with its members) and its steps in order. */
export interface HandOverLoop {
  circleId: number;
  steps: readonly LoopStep[];
}

/** A loop written: its barter ids in step order, and its thread (null unless shared). */
export interface WrittenLoop {
  barterIds: number[];
  threadId: number | null;
}

export const handOverUnavailable = () =>
  conflict(
    'An item in this circle is no longer available: it was deleted, hidden or reserved in another barter.',
    BARTER_ERROR_CODES.itemUnavailable,
  );

/**
 * Rows per multi-row statement: a bound on the parameters of one INSERT (nine columns a barter, far
 * under PostgreSQL's 65,535) whatever the size of a swap day; a 100-member day's 1,000 hand-overs
 * fit in one.
 */
const ROWS_PER_STATEMENT = 1_000;

function chunked<T>(rows: readonly T[]): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    chunks.push(rows.slice(start, start + ROWS_PER_STATEMENT));
  }
  return chunks;
}

/** A PostgreSQL int[] literal that may hold NULL (`intArray` truncates numbers only). */
const nullableIntArray = (values: ReadonlyArray<number | null>) =>
  `{${values.map((value) => (value === null ? 'NULL' : Math.trunc(value))).join(',')}}`;

/**
 * Turn accepted loops into accepted barters, one per hand-over (issue 16), set-wise (ADR 056): a
 * handful of statements whatever the number of loops and hand-overs, so a solved swap day's 1,000
 * hand-overs hold the embedded database's one connection for a few statements, not thousands.
 *
 * Each hand-over's giver is the sender, the one item they give the only item ('from' side), the
 * receiver the recipient. Every item is locked in id order (one order for every transaction) and
 * reserved for its hand-over; an item hidden, deleted, moved to another owner or reserved meanwhile,
 * or one item in two hand-overs, throws 409 (the caller's transaction rolls back). With
 * `sharedThread` a loop's hand-overs hang on one conversation (its first hand-over's id: a circle's
 * members talk together); otherwise each has its own (giver and receiver). Each circle member's step
 * points at its barter, and the circle at its thread.
 *
 * Nothing is told here: answered are the notices for members of other pending proposals using these
 * items (they can no longer be accepted; each such proposal once) and the 'barter' events for every
 * member's pages, for the caller to write with its own in one batch (`notifyMembers`,
 * `publishMemberEvents`) in the same transaction.
 */
export async function writeHandOvers(
  tx: Db,
  loops: readonly HandOverLoop[],
  options: { sharedThread: boolean; now: Date },
): Promise<{ loops: WrittenLoop[]; notices: NotifyInput[]; events: NewMemberEvent[] }> {
  const steps = loops.flatMap((loop) =>
    loop.steps.map((step, position) => ({ ...step, circleId: loop.circleId, position })),
  );
  if (steps.length === 0)
    return { loops: loops.map(() => ({ barterIds: [], threadId: null })), notices: [], events: [] };
  const itemIds = steps.map((step) => step.itemId);
  if (new Set(itemIds).size !== itemIds.length) throw handOverUnavailable();
  const locked = await lockItemsInIdOrder(
    tx,
    [...itemIds].sort((a, b) => a - b),
    'no key update',
  );
  const byId = new Map<number, ItemStateRow>(locked.map((item) => [item.id, item]));
  const stepItems = steps.map((step) => {
    const item = byId.get(step.itemId);
    if (!freeToGive(item, step.giverId)) {
      throw handOverUnavailable();
    }
    return item;
  });

  // The barters, in step order: identity values are given in the order of the rows, so the ids
  // ascending are the steps in order (whatever order RETURNING lists them in).
  const barterIds: number[] = [];
  for (const chunk of chunked(
    steps.map((step, index) => ({ step, item: stepItems[index] as ItemStateRow })),
  )) {
    const rows = await tx
      .insert(barterRequests)
      .values(
        chunk.map(({ step, item }) => ({
          fromUserId: step.giverId,
          toUserId: step.receiverId,
          fromItemId: item.id,
          toItemId: null,
          status: 'accepted',
          acceptedAt: options.now,
          expiresAt: null,
          threadId: null,
          circleId: step.circleId,
        })),
      )
      .returning({ id: barterRequests.id });
    if (rows.length !== chunk.length) throw new Error('insert into barter_requests returned too few rows');
    barterIds.push(...rows.map((row) => row.id).sort((a, b) => a - b));
  }

  // Each loop's thread: its first hand-over (shared), or each hand-over its own.
  const written: WrittenLoop[] = [];
  const threadOf: number[] = [];
  let offset = 0;
  for (const loop of loops) {
    const ids = barterIds.slice(offset, offset + loop.steps.length);
    offset += loop.steps.length;
    const shared = options.sharedThread ? (ids[0] ?? null) : null;
    written.push({ barterIds: ids, threadId: shared });
    for (const id of ids) threadOf.push(shared ?? id);
  }
  // Only rows that are their own thread are updated, as one row at a time did before.
  const ownThread = barterIds.filter((id, index) => threadOf[index] === id);
  await tx.execute(sql`
    UPDATE ${barterRequests} SET thread_id = id, updated_at = ${new Date().toISOString()}::timestamptz
     WHERE id = ANY(${intArray(ownThread)}::int[])`);
  if (options.sharedThread) {
    const joining = barterIds.flatMap((id, index) => (threadOf[index] === id ? [] : [[id, threadOf[index]]]));
    if (joining.length > 0) {
      await tx.execute(sql`
        UPDATE ${barterRequests} AS b SET thread_id = v.thread_id
          FROM unnest(${intArray(joining.map(([id]) => id as number))}::int[],
                      ${intArray(joining.map(([, thread]) => thread as number))}::int[]) AS v(id, thread_id)
         WHERE b.id = v.id`);
    }
  }

  for (const chunk of chunked([...steps.keys()])) {
    await tx.insert(barterRequestItems).values(
      chunk.map((index) => {
        const item = stepItems[index] as ItemStateRow;
        return {
          barterRequestId: barterIds[index] as number,
          itemId: item.id,
          side: 'from',
          position: 0,
          title: item.title,
          category: item.category,
          isService: item.isService,
        };
      }),
    );
  }

  // Locked above, checked free and each in one hand-over: no reservation can miss.
  const reserved = await queryRows<{ id: number }>(
    tx,
    sql`UPDATE items SET reserved_by_request_id = v.request_id, updated_at = ${new Date().toISOString()}::timestamptz
          FROM unnest(${intArray(itemIds)}::int[], ${intArray(barterIds)}::int[]) AS v(item_id, request_id)
         WHERE items.id = v.item_id AND items.reserved_by_request_id IS NULL AND items.is_active
     RETURNING items.id::int AS id`,
  );
  if (reserved.length !== steps.length) throw handOverUnavailable();

  await tx.execute(sql`
    UPDATE circle_members AS m SET barter_request_id = v.request_id
      FROM unnest(${intArray(steps.map((step) => step.circleId))}::int[],
                  ${intArray(steps.map((step) => step.position))}::int[],
                  ${intArray(barterIds)}::int[]) AS v(circle_id, position, request_id)
     WHERE m.circle_id = v.circle_id AND m.position = v.position`);
  await tx.execute(sql`
    UPDATE circles AS c SET thread_id = v.thread_id
      FROM unnest(${intArray(loops.map((loop) => loop.circleId))}::int[],
                  ${nullableIntArray(written.map((loop) => loop.threadId))}::int[]) AS v(id, thread_id)
     WHERE c.id = v.id`);

  const touched: RequestMembers[] = steps.map((step, index) => ({
    id: barterIds[index] as number,
    threadId: threadOf[index] as number,
    fromUserId: step.giverId,
    toUserId: step.receiverId,
  }));
  const blocked = await findPendingUsingItems(tx, itemIds, -1, options.now);
  const notices: NotifyInput[] = blocked.flatMap((other) =>
    [...new Set([other.fromUserId, other.toUserId])].flatMap((userId) =>
      userId
        ? [{ userId, kind: 'proposal_unavailable' as const, barterRequestId: other.id, actorId: null }]
        : [],
    ),
  );
  return { loops: written, notices, events: barterEvents([...touched, ...blocked]) };
}

/**
 * Turn one accepted loop (circle `circleId`) into accepted barters (`writeHandOvers`), and tell: the
 * members of other pending proposals using its items are notified, every member's pages told.
 * Answers the barter ids in step order and the thread (null unless shared).
 */
export async function createHandOvers(
  tx: Db,
  circleId: number,
  steps: readonly LoopStep[],
  options: { sharedThread: boolean; now: Date },
): Promise<WrittenLoop> {
  const written = await writeHandOvers(tx, [{ circleId, steps }], options);
  await notifyMembers(tx, written.notices);
  await publishMemberEvents(tx, written.events);
  return written.loops[0] ?? { barterIds: [], threadId: null };
}
