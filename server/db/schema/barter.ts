import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { circles } from './circles';
import { items } from './items';
import { users } from './users';

/**
 * A proposed barter (spec section 3, `{product}_requests` settled as `barter_requests`).
 * Members and items may be deleted later; the request then keeps its history with a null side,
 * which the trade history shows as 'User'.
 *
 * Its states and who may move it between them are `common/barter-machine.ts` (issue 13). Every item
 * of each side is a row of `barter_request_items`; `fromItemId` and `toItemId` keep the spec's shape
 * and name the first item of each side. A counter is a new request whose `counterOfId` is the one it
 * answers; every request of one negotiation shares `threadId` (the first request's id), and the
 * conversation (`messages.barterRequestId`) hangs on that thread.
 */
export const barterRequests = pgTable(
  'barter_requests',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    fromUserId: uuid('from_user_id').references(() => users.id, { onDelete: 'set null' }),
    toUserId: uuid('to_user_id').references(() => users.id, { onDelete: 'set null' }),
    fromItemId: integer('from_item_id').references(() => items.id, { onDelete: 'set null' }),
    toItemId: integer('to_item_id').references(() => items.id, { onDelete: 'set null' }),
    message: text('message'),
    status: text('status').notNull().default('pending'),
    /** The first request of the negotiation (itself for a new proposal; set right after insert). */
    threadId: integer('thread_id').references((): AnyPgColumn => barterRequests.id, { onDelete: 'set null' }),
    /** The request this one counters, if any. */
    counterOfId: integer('counter_of_id').references((): AnyPgColumn => barterRequests.id, {
      onDelete: 'set null',
    }),
    /** When a pending request expires (14 days after it was made, common/barter-machine.ts). */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** When each side confirmed the hand-over of an accepted barter; both set completes it. */
    fromConfirmedAt: timestamp('from_confirmed_at', { withTimezone: true }),
    toConfirmedAt: timestamp('to_confirmed_at', { withTimezone: true }),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    /** Who declined, withdrew or cancelled it, and the reason given when cancelling. */
    closedById: uuid('closed_by_id').references(() => users.id, { onDelete: 'set null' }),
    closeReason: text('close_reason'),
    /**
     * A hand-over of a trade circle or swap-day loop (issue 16): one item from `fromUserId` to
     * `toUserId`, nothing on the 'to' side.
     */
    circleId: integer('circle_id').references(() => circles.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (t) => [
    index('barter_requests_from_user_idx').on(t.fromUserId, t.status, t.updatedAt.desc()),
    index('barter_requests_to_user_idx').on(t.toUserId, t.status, t.updatedAt.desc()),
    index('barter_requests_from_item_idx').on(t.fromItemId),
    index('barter_requests_to_item_idx').on(t.toItemId),
    index('barter_requests_thread_idx').on(t.threadId),
    index('barter_requests_circle_idx').on(t.circleId).where(sql`${t.circleId} IS NOT NULL`),
    // The expiry sweep reads due pending requests only.
    index('barter_requests_pending_expiry_idx').on(t.expiresAt).where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * The items of each side of a barter request: `side` 'from' is what the proposer offers, 'to' what
 * they ask for. Title, category and kind are kept as they were when proposed, so the history still
 * reads right after the item is edited or deleted (`itemId` then null).
 */
export const barterRequestItems = pgTable(
  'barter_request_items',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    barterRequestId: integer('barter_request_id')
      .notNull()
      .references(() => barterRequests.id, { onDelete: 'cascade' }),
    itemId: integer('item_id').references(() => items.id, { onDelete: 'set null' }),
    side: text('side').notNull(),
    position: smallint('position').notNull(),
    title: text('title').notNull(),
    category: text('category').notNull(),
    isService: boolean('is_service').notNull(),
  },
  (t) => [
    uniqueIndex('barter_request_items_request_side_position_unique').on(
      t.barterRequestId,
      t.side,
      t.position,
    ),
    uniqueIndex('barter_request_items_request_item_unique').on(t.barterRequestId, t.itemId),
    index('barter_request_items_item_idx').on(t.itemId),
    check('barter_request_items_side', sql`${t.side} IN ('from', 'to')`),
  ],
);

/**
 * Messages between members, optionally about a barter request (spec section 3). When a member deletes
 * their account (ADR 025) their messages stay in the other member's conversation, without a sender.
 */
export const messages = pgTable(
  'messages',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    fromUserId: uuid('from_user_id').references(() => users.id, { onDelete: 'set null' }),
    toUserId: uuid('to_user_id').references(() => users.id, { onDelete: 'set null' }),
    barterRequestId: integer('barter_request_id').references(() => barterRequests.id, {
      onDelete: 'set null',
    }),
    content: text('content').notNull(),
    /**
     * In a circle's conversation (three or four members) a message is stored once per recipient:
     * the first row is the original (its sender lists it), the others name it here.
     */
    copyOfId: integer('copy_of_id').references((): AnyPgColumn => messages.id, { onDelete: 'cascade' }),
    isRead: boolean('is_read').notNull().default(false),
    /** Removed by a moderator (ADR 025): shown as removed, its text never sent again. */
    removedAt: timestamp('removed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('messages_to_user_unread_idx').on(t.toUserId).where(sql`NOT ${t.isRead}`),
    index('messages_conversation_idx').on(t.fromUserId, t.toUserId, t.createdAt),
    // A conversation in order, and a member's unread messages per conversation.
    index('messages_barter_request_idx').on(t.barterRequestId, t.id),
    index('messages_copy_of_idx').on(t.copyOfId).where(sql`${t.copyOfId} IS NOT NULL`),
    index('messages_to_user_unread_thread_idx').on(t.toUserId, t.barterRequestId).where(sql`NOT ${t.isRead}`),
  ],
);

/** One rating per participant per completed trade, 1 to 5 stars. */
export const ratings = pgTable(
  'ratings',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    barterRequestId: integer('barter_request_id')
      .notNull()
      .references(() => barterRequests.id, { onDelete: 'cascade' }),
    raterId: uuid('rater_id').references(() => users.id, { onDelete: 'set null' }),
    rateeId: uuid('ratee_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    stars: smallint('stars').notNull(),
    comment: text('comment'),
    /** Removed by a moderator (ADR 025): left out of every list and average. */
    removedAt: timestamp('removed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ratings_request_rater_unique').on(t.barterRequestId, t.raterId),
    index('ratings_ratee_idx').on(t.rateeId),
    check('ratings_stars_range', sql`${t.stars} BETWEEN 1 AND 5`),
  ],
);

/**
 * What the bell lists (issue 13). `kind` is one of NOTIFICATION_KINDS (common/schemas/notifications.ts);
 * unread while `readAt` is null. New messages in one conversation share one unread entry, whose
 * `count` grows.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    barterRequestId: integer('barter_request_id').references(() => barterRequests.id, {
      onDelete: 'cascade',
    }),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    /** A trade circle the entry is about (issue 16), when it is not about one barter. */
    circleId: integer('circle_id').references(() => circles.id, { onDelete: 'cascade' }),
    count: integer('count').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    index('notifications_user_idx').on(t.userId, t.id.desc()),
    index('notifications_circle_idx').on(t.circleId).where(sql`${t.circleId} IS NOT NULL`),
    index('notifications_user_unread_idx').on(t.userId, t.barterRequestId).where(sql`${t.readAt} IS NULL`),
    // The e-mail digest's sweep: unread entries, newest last (ADR 026).
    index('notifications_unread_recent_idx').on(t.createdAt).where(sql`${t.readAt} IS NULL`),
  ],
);

/**
 * Every event pushed to a member's open pages (server/events), kept for a day so a page that
 * reconnects catches up from its last event id. Delivered live through LISTEN/NOTIFY.
 */
export const memberEvents = pgTable(
  'member_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    data: jsonb('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('member_events_user_idx').on(t.userId, t.id),
    index('member_events_created_idx').on(t.createdAt),
  ],
);

export type BarterRequestRow = typeof barterRequests.$inferSelect;
export type BarterRequestItemRow = typeof barterRequestItems.$inferSelect;
export type NotificationRow = typeof notifications.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
