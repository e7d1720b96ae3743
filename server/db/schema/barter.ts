import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { items } from './items';
import { users } from './users';

/**
 * A proposed barter (spec section 3, `{product}_requests` settled as `barter_requests`).
 * Members and items may be deleted later; the request then keeps its history with a null side,
 * which the trade history shows as 'User'.
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
  ],
);

/** Messages between members, optionally about a barter request (spec section 3). */
export const messages = pgTable(
  'messages',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    fromUserId: uuid('from_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    toUserId: uuid('to_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    barterRequestId: integer('barter_request_id').references(() => barterRequests.id, {
      onDelete: 'set null',
    }),
    content: text('content').notNull(),
    isRead: boolean('is_read').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('messages_to_user_unread_idx').on(t.toUserId).where(sql`NOT ${t.isRead}`),
    index('messages_conversation_idx').on(t.fromUserId, t.toUserId, t.createdAt),
    index('messages_barter_request_idx').on(t.barterRequestId),
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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ratings_request_rater_unique').on(t.barterRequestId, t.raterId),
    index('ratings_ratee_idx').on(t.rateeId),
    check('ratings_stars_range', sql`${t.stars} BETWEEN 1 AND 5`),
  ],
);
