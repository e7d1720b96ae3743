import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigserial,
  boolean,
  check,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { items, wants } from './items';
import { users } from './users';

/**
 * A trade circle (issue 16, ADR 029): members in a loop, each giving one item to the next. Found in
 * the match graph by the circle finder (2 to 4 members, each once), or a loop of a solved swap day
 * (`swapDayId`: any length, created 'accepted'). 'proposed' until every member accepted (then 'accepted':
 * one accepted barter request per hand-over, `barter_requests.circle_id`), or until one declines
 * ('declined') or three days pass ('expired'); an accepted circle whose hand-overs are all done is
 * 'completed', one whose barter was cancelled 'cancelled'.
 */
export const circles = pgTable(
  'circles',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    status: text('status').notNull().default('proposed'),
    size: smallint('size').notNull(),
    /** A proposed circle dissolves at this time unless all accepted (3 days). */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    /** Who declined it or cancelled a hand-over, and when it stopped. */
    closedById: uuid('closed_by_id').references(() => users.id, { onDelete: 'set null' }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** The conversation of an accepted circle: the thread of its hand-overs (the first one's id). */
    threadId: integer('thread_id'),
    /** A loop of a solved swap day (any length, accepted when solved, no shared conversation). */
    swapDayId: integer('swap_day_id').references((): AnyPgColumn => swapDays.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('circles_proposed_expiry_idx').on(t.expiresAt).where(sql`${t.status} = 'proposed'`),
    index('circles_swap_day_idx').on(t.swapDayId).where(sql`${t.swapDayId} IS NOT NULL`),
    check('circles_size_range', sql`${t.size} >= 2`),
  ],
);

/**
 * The members of a circle in order: the member at `position` gives `itemId` to the member at the
 * next position (the last to the first). Title, category and kind are kept as proposed.
 */
export const circleMembers = pgTable(
  'circle_members',
  {
    circleId: integer('circle_id')
      .notNull()
      .references(() => circles.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull(),
    memberId: uuid('member_id').references(() => users.id, { onDelete: 'set null' }),
    itemId: integer('item_id').references(() => items.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    category: text('category').notNull(),
    isService: boolean('is_service').notNull(),
    value: numeric('value', { precision: 10, scale: 2, mode: 'number' }),
    /** The receiver's want this item matches. */
    wantId: integer('want_id').references(() => wants.id, { onDelete: 'set null' }),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    /** The accepted barter request of this member's hand-over, once the circle is accepted. */
    barterRequestId: integer('barter_request_id'),
  },
  (t) => [
    primaryKey({ columns: [t.circleId, t.position] }),
    index('circle_members_member_idx').on(t.memberId, t.circleId.desc()),
    index('circle_members_item_idx').on(t.itemId),
  ],
);

/**
 * Members whose possible circles may have changed (their matches moved, a circle of theirs
 * dissolved), written in the same transaction as the change and drained by the circle finder's job
 * (ADR 029), like `match_graph_changes` for the graph. A member is logged once until drained, so
 * the log stays within one row per member even while the finder is off (`CIRCLE_FINDER=false`).
 */
export const circleChanges = pgTable(
  'circle_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    memberId: uuid('member_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('circle_changes_member_idx').on(t.memberId)],
);

/**
 * A neighbourhood swap day (issue 16): a member organises it (name, place, when, a deadline for
 * want lists); neighbours join, offer items and rank, for each of theirs, the items they would
 * accept. At the deadline (or when the organiser closes it) the engine solves it with loops of any
 * length; each loop becomes an accepted circle (`circles.swap_day_id`) whose hand-overs are
 * accepted barter requests.
 * status: 'open', 'matching' (want lists closed, the match job on its way: ADR 050), 'solved',
 * 'failed' (the match could not be stored; `match_failure` says why, the organiser may retry),
 * 'cancelled'.
 */
export const swapDays = pgTable(
  'swap_days',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    organiserId: uuid('organiser_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    place: text('place').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    deadline: timestamp('deadline', { withTimezone: true }).notNull(),
    status: text('status').notNull().default('open'),
    /** The organiser's public point when it was made (never sent): swap days near a member. */
    latitude: numeric('latitude', { precision: 10, scale: 8, mode: 'number' }),
    longitude: numeric('longitude', { precision: 11, scale: 8, mode: 'number' }),
    solvedAt: timestamp('solved_at', { withTimezone: true }),
    itemsTraded: integer('items_traded'),
    membersTrading: integer('members_trading'),
    /** While 'matching': 'waiting', 'gathering', 'solving' or 'saving' (ADR 050). */
    matchStage: text('match_stage'),
    /** When 'failed': 'time-limit' or 'error'. */
    matchFailure: text('match_failure'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('swap_days_open_deadline_idx').on(t.deadline).where(sql`${t.status} = 'open'`),
    index('swap_days_matching_idx').on(t.id).where(sql`${t.status} = 'matching'`),
    index('swap_days_starts_idx').on(t.startsAt),
    index('swap_days_organiser_idx').on(t.organiserId),
  ],
);

export const swapDayMembers = pgTable(
  'swap_day_members',
  {
    swapDayId: integer('swap_day_id')
      .notNull()
      .references(() => swapDays.id, { onDelete: 'cascade' }),
    memberId: uuid('member_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.swapDayId, t.memberId] }),
    index('swap_day_members_member_idx').on(t.memberId),
  ],
);

/** An item a member brings to a swap day. */
export const swapDayOffers = pgTable(
  'swap_day_offers',
  {
    swapDayId: integer('swap_day_id')
      .notNull()
      .references(() => swapDays.id, { onDelete: 'cascade' }),
    itemId: integer('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    memberId: uuid('member_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.swapDayId, t.itemId] }),
    index('swap_day_offers_member_idx').on(t.swapDayId, t.memberId),
    index('swap_day_offers_item_idx').on(t.itemId),
  ],
);

/** "I would give `offerItemId` for `wantedItemId`", rank 1 the most wanted. */
export const swapDayWants = pgTable(
  'swap_day_wants',
  {
    swapDayId: integer('swap_day_id')
      .notNull()
      .references(() => swapDays.id, { onDelete: 'cascade' }),
    offerItemId: integer('offer_item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    wantedItemId: integer('wanted_item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    rank: smallint('rank').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.swapDayId, t.offerItemId, t.wantedItemId] }),
    index('swap_day_wants_wanted_idx').on(t.wantedItemId),
    check('swap_day_wants_rank_positive', sql`${t.rank} >= 1`),
  ],
);

export type CircleRow = typeof circles.$inferSelect;
export type CircleMemberRow = typeof circleMembers.$inferSelect;
export type SwapDayRow = typeof swapDays.$inferSelect;
