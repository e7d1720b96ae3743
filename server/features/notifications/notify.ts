import { and, eq, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import type { NotificationKind, UnreadCounts } from '#common/schemas/notifications.ts';
import { uuidArray } from '../../db/arrays';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/rows';
import { messages, notifications } from '../../db/schema/trading';
import { users } from '../../db/schema/users';
import { memberEvent, type NewMemberEvent, publishMemberEvents } from '../../events/publish';
import { type MemberRefRow, memberRefColumns, presentMemberRef } from '../member-refs';
import { presentNotification } from './notifications-presenter';
import { findSwapDaysOfNotifications } from './notifications-repository';

/**
 * The member's unread notifications and messages, in one statement (both served by partial
 * indexes on unread rows).
 */
export async function unreadCounts(db: Db, userId: string): Promise<UnreadCounts> {
  const [row] = await queryRows<{ notifications: number; messages: number }>(
    db,
    sql`
    SELECT
      (SELECT count(*)::int FROM ${notifications} WHERE ${notifications.userId} = ${userId}::uuid AND ${notifications.readAt} IS NULL) AS notifications,
      (SELECT count(*)::int FROM ${messages} WHERE ${messages.toUserId} = ${userId}::uuid AND NOT ${messages.isRead}) AS messages`,
  );
  return { notifications: Number(row?.notifications ?? 0), messages: Number(row?.messages ?? 0) };
}

/** An event carrying the member's current unread counts (after a read, for their other pages). */
export async function countsEvent(db: Db, userId: string): Promise<NewMemberEvent<'counts'>> {
  return memberEvent(userId, 'counts', await unreadCounts(db, userId));
}

export interface NotifyInput {
  userId: string;
  kind: NotificationKind;
  barterRequestId: number | null;
  /** The trade circle it is about (circle and swap-day entries). */
  circleId?: number | null;
  /** Who did it; null for the system (expiry). */
  actorId: string | null;
  /** The entry's number: messages it stands for, or a hand_over_running_late's minutes (ADR 077). */
  count?: number;
  /** A hand-over reminder's window start and place (ADR 078), kept on the entry as they stand now. */
  handOver?: { startsAt: Date; place: string };
  /**
   * A listing alert's item and what it matched (ADR 084), as its event carries it; the caller stores
   * it in listing_alerts with the entry's id, which the bell's list reads.
   */
  listing?: { itemId: number; matched: string };
  /** A stale listing's entry (ADR 088): the member's own item and its title as it is now. */
  item?: { id: number; title: string };
}

const handOverColumns = (input: NotifyInput) => ({
  handOverStartsAt: input.handOver?.startsAt ?? null,
  handOverPlace: input.handOver?.place ?? null,
  itemId: input.item?.id ?? null,
  itemTitle: input.item?.title ?? null,
});

/**
 * Make the transaction the only one changing these members' unread message entries until it ends.
 * Those entries are replaced (deleted and written again) by every new message and marked read by
 * every reading: on PostgreSQL, several senders' and readers' transactions doing so for one member
 * at once each waited for rows another held, and PostgreSQL ended one as a deadlock (a 503 to a
 * member sending a message; found by the fault suite's message traffic). A transaction-scoped lock
 * per member, taken in one order, makes them take turns instead. Take it before changing any of the
 * entries; taking it again in the same transaction does not wait.
 */
export async function lockMessageEntries(db: Db, userIds: readonly string[]): Promise<void> {
  for (const userId of [...new Set(userIds)].sort()) {
    await db.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`message-entries:${userId}`}::text))`);
  }
}

/** What a caller already knows about an entry, so `notificationEntry` need not read it again. */
export interface EntryContext {
  /** The transaction already holds `lockMessageEntries` for the entry's member. */
  entriesLocked?: boolean;
  /** The entry is about no swap day (a barter outside any circle): its lookup is skipped. */
  outsideSwapDays?: boolean;
  /** The actor's row as the caller holds it (the member acting, from their session). */
  actor?: MemberRefRow;
}

/**
 * Put an entry on a member's bell list and push it, with their new unread counts, to their open
 * pages. Call it inside the transaction that makes the change. New messages in one conversation
 * share one unread entry: the older unread one is replaced by one counting them all, so the list
 * stays in id order (a transaction sending to several members takes `lockMessageEntries` for all of
 * them first). Answers the member's unread counts after it, as the event carried them.
 */
export async function notifyMember(db: Db, input: NotifyInput): Promise<UnreadCounts> {
  const entry = await notificationEntry(db, input);
  await publishMemberEvents(db, [entry.event]);
  return entry.counts;
}

/**
 * `notifyMember` without the publishing: the entry is stored and its event, with the member's
 * unread counts, is answered for the caller to publish with the rest of its transaction's events
 * (one insert and one NOTIFY for all of them). `known` saves the reads the caller can answer.
 */
export async function notificationEntry(
  db: Db,
  input: NotifyInput,
  known: EntryContext = {},
): Promise<{ event: NewMemberEvent<'notification'>; counts: UnreadCounts }> {
  let count = input.count ?? 1;
  if (input.kind === 'message_received' && input.barterRequestId !== null) {
    if (!known.entriesLocked) await lockMessageEntries(db, [input.userId]);
    const replaced = await db
      .delete(notifications)
      .where(
        and(
          eq(notifications.userId, input.userId),
          eq(notifications.barterRequestId, input.barterRequestId),
          eq(notifications.kind, 'message_received'),
          isNull(notifications.readAt),
        ),
      )
      .returning({ count: notifications.count });
    count += replaced.reduce((sum, row) => sum + row.count, 0);
  }
  const [row] = await db
    .insert(notifications)
    .values({
      userId: input.userId,
      kind: input.kind,
      barterRequestId: input.barterRequestId,
      circleId: input.circleId ?? null,
      actorId: input.actorId,
      count,
      ...handOverColumns(input),
    })
    .returning();
  if (!row) throw new Error('notifyMember: insert returned nothing');
  const knownActor = known.actor && known.actor.id === input.actorId ? known.actor : undefined;
  const [actor] = knownActor
    ? [knownActor]
    : input.actorId
      ? await db.select(memberRefColumns()).from(users).where(eq(users.id, input.actorId))
      : [];
  const swapDay =
    known.outsideSwapDays && input.circleId == null
      ? null
      : ((await findSwapDaysOfNotifications(db, [row.id])).get(row.id) ?? null);
  const notification = presentNotification(
    row,
    input.actorId ? presentMemberRef(actor) : null,
    swapDay,
    input.listing ?? null,
  );
  const counts = await unreadCounts(db, input.userId);
  return { event: memberEvent(input.userId, 'notification', { notification, counts }), counts };
}

/**
 * `notifyMember` for many entries at once, in a handful of statements whatever their number (ADR
 * 056): the rows in one insert, their actors in one read, the members' unread counts in one read,
 * the events in one publish. Each entry's event carries the counts as they stood right after it, as
 * one call after another would have; entries are stored and pushed in the order given. Call it inside
 * the transaction that makes the change. Message entries, which replace an older unread one, go one
 * at a time through `notifyMember`. Answers the new entries' ids in the order given (none for
 * message entries).
 */
export async function notifyMembers(db: Db, inputs: readonly NotifyInput[]): Promise<number[]> {
  if (inputs.some((input) => input.kind === 'message_received')) {
    // Every member's entries first, in one order, as one transaction sending to several must.
    await lockMessageEntries(
      db,
      inputs.filter((input) => input.kind === 'message_received').map((input) => input.userId),
    );
    for (const input of inputs) await notifyMember(db, input);
    return [];
  }
  if (inputs.length === 0) return [];
  const inserted = await db
    .insert(notifications)
    .values(
      inputs.map((input) => ({
        userId: input.userId,
        kind: input.kind,
        barterRequestId: input.barterRequestId,
        circleId: input.circleId ?? null,
        actorId: input.actorId,
        count: input.count ?? 1,
        ...handOverColumns(input),
      })),
    )
    .returning();
  if (inserted.length !== inputs.length) throw new Error('notifyMembers: insert returned too few rows');
  // Identity values are given in the order of the rows: ascending ids are the inputs in order.
  const rows = inserted.sort((a, b) => a.id - b.id);
  const actorIds = [...new Set(inputs.flatMap((input) => (input.actorId ? [input.actorId] : [])))];
  const actors = new Map(
    (actorIds.length === 0
      ? []
      : await db
          .select(memberRefColumns())
          .from(users)
          .where(sql`${users.id} = ANY(${uuidArray(actorIds)}::uuid[])`)
    ).map((actor) => [actor.id, actor]),
  );
  const userIds = [...new Set(inputs.map((input) => input.userId))];
  const finalCounts = new Map(
    (
      await queryRows<{ id: string; notifications: number; messages: number }>(
        db,
        sql`
        SELECT u.id::text AS id,
          (SELECT count(*)::int FROM ${notifications} WHERE ${notifications.userId} = u.id AND ${notifications.readAt} IS NULL) AS notifications,
          (SELECT count(*)::int FROM ${messages} WHERE ${messages.toUserId} = u.id AND NOT ${messages.isRead}) AS messages
        FROM unnest(${uuidArray(userIds)}::uuid[]) AS u(id)`,
      )
    ).map((row) => [row.id, { notifications: Number(row.notifications), messages: Number(row.messages) }]),
  );
  const days = await findSwapDaysOfNotifications(
    db,
    rows.map((row) => row.id),
  );
  // Entries of each member still to come after the one at hand, to step back from the final counts.
  const later = new Map<string, number>();
  for (const input of inputs) later.set(input.userId, (later.get(input.userId) ?? 0) + 1);
  const events = rows.map((row, index) => {
    const input = inputs[index] as NotifyInput;
    const left = (later.get(input.userId) ?? 1) - 1;
    later.set(input.userId, left);
    const final = finalCounts.get(input.userId) ?? { notifications: 0, messages: 0 };
    const counts: UnreadCounts = { notifications: final.notifications - left, messages: final.messages };
    const actor = input.actorId ? actors.get(input.actorId) : undefined;
    const notification = presentNotification(
      row,
      input.actorId ? presentMemberRef(actor) : null,
      days.get(row.id) ?? null,
      input.listing ?? null,
    );
    return memberEvent(input.userId, 'notification', { notification, counts });
  });
  await publishMemberEvents(db, events);
  return rows.map((row) => row.id);
}

/**
 * Take a member's entries of `kind` off their bell, except those about the barters in `keep` (ADR
 * 078: a want question's entry goes once the barter asks nothing more). Their open pages get the new
 * unread counts. Call it inside the transaction that makes the change. How many went.
 */
export async function withdrawNotifications(
  db: Db,
  input: { userId: string; kind: NotificationKind; keep: readonly number[] },
): Promise<number> {
  const gone = await db
    .delete(notifications)
    .where(
      and(
        eq(notifications.userId, input.userId),
        eq(notifications.kind, input.kind),
        input.keep.length > 0 ? notInArray(notifications.barterRequestId, [...input.keep]) : undefined,
      ),
    )
    .returning({ id: notifications.id });
  if (gone.length > 0) await publishMemberEvents(db, [await countsEvent(db, input.userId)]);
  return gone.length;
}

/**
 * Take the entries about one of a member's listings off their bell (ADR 088: "Still available?"
 * once answered, by a renewal, an edit or a hide). Their open pages get the new unread counts. Call
 * it inside the transaction that makes the change. How many went.
 */
export async function withdrawItemNotifications(
  db: Db,
  input: { userId: string; itemId: number; kinds: readonly NotificationKind[] },
): Promise<number> {
  const gone = await db
    .delete(notifications)
    .where(
      and(
        eq(notifications.userId, input.userId),
        eq(notifications.itemId, input.itemId),
        inArray(notifications.kind, [...input.kinds]),
      ),
    )
    .returning({ id: notifications.id });
  if (gone.length > 0) await publishMemberEvents(db, [await countsEvent(db, input.userId)]);
  return gone.length;
}
