import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { ITEM_CONDITIONS, ITEM_MODERATION, type ItemPhotoUrls } from '#common/schemas/listings.ts';
import { users } from './users';

// Items, wants, barters, circles and swap days, in one file because their tables reference one
// another: an item is reserved by a barter request, a request may be a leg of a circle, a circle may
// be a swap day's, and a circle's members give items. Apart, the files imported each other in a loop.

/** PostgreSQL full-text document (tsvector); only ever written by the database (generated columns). */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/** What members offer: goods or services (spec section 3). */
export const items = pgTable(
  'items',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull(),
    category: text('category').notNull(),
    isService: boolean('is_service').notNull().default(false),
    imageUrl: text('image_url'),
    /** The feed-size version of the photo (600 px WebP); null when there is no photo or for older rows. */
    thumbnailUrl: text('thumbnail_url'),
    /**
     * All the item's photos in order, at most ITEM_PHOTOS_MAX (issue 31, ADR 082). The first is the
     * cover, and imageUrl and thumbnailUrl above are always its copy (cards, proposals and the photo
     * analysis read those); empty when there is no photo.
     */
    photos: jsonb('photos').$type<ItemPhotoUrls[]>().notNull().default(sql`'[]'::jsonb`),
    /** A good's condition (issue 31, ADR 082); null for services and for goods listed without one. */
    condition: text('condition', { enum: ITEM_CONDITIONS }),
    estimatedValue: numeric('estimated_value', { precision: 10, scale: 2, mode: 'number' }),
    viewCount: integer('view_count').notNull().default(0),
    isActive: boolean('is_active').notNull().default(true),
    /**
     * Hidden by moderation (ADR 025): 'removed' for good (the owner cannot show it again), 'suspended'
     * while its owner is suspended (shown again when the suspension ends), 'held' while a moderator
     * looks at a photo the screening found likely explicit (ADR 027). Such items are inactive.
     */
    moderation: text('moderation', { enum: ITEM_MODERATION }),
    /**
     * The accepted barter holding this item (issue 13): set when a barter using it is accepted, at
     * most one at a time (the accept updates only rows where it is null), cleared when that barter is
     * cancelled or completed. A reserved item is not listed to other members.
     */
    reservedByRequestId: integer('reserved_by_request_id').references((): AnyPgColumn => barterRequests.id, {
      onDelete: 'set null',
    }),
    /**
     * When the item changed hands in a completed barter, circle or swap-day hand-over (issue 30,
     * ADR 073): traded items stay inactive for good (never shown again nor edited) and My Items says
     * to whom ("Traded to Ann R.") or where ("Given at <swap day>").
     */
    tradedAt: timestamp('traded_at', { withTimezone: true }),
    /** The completed barter request the item was traded in (its receiver and swap day). */
    tradedInRequestId: integer('traded_in_request_id').references((): AnyPgColumn => barterRequests.id, {
      onDelete: 'set null',
    }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
    /**
     * When the owner last said the listing is still there (issue 31, ADR 088): listed, edited,
     * answered "Yes, still available" or renewed. STALE_LISTING_DAYS after it the owner is asked.
     */
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the owner was asked "Still available?" (ADR 088); null while no question is open. */
    staleAskedAt: timestamp('stale_asked_at', { withTimezone: true }),
    /**
     * When the listing left the feeds for want of an answer (ADR 088): such an item is inactive, and
     * the owner's Renew (or Show) lists it again and clears this.
     */
    stalePausedAt: timestamp('stale_paused_at', { withTimezone: true }),
    /**
     * Search and want matching (server/features/feed): title (weight A), description (B) and
     * category (C) as lexemes, kept by the database, so no query parses text per row.
     */
    /**
     * The owner's coordinates, copied by the database (triggers of migration 0007) whenever the
     * item is written or its owner moves, so feeds filter by radius inside their index scans.
     * Never sent to clients, like the owner's own.
     */
    latitude: numeric('latitude', { precision: 10, scale: 8, mode: 'number' }),
    longitude: numeric('longitude', { precision: 11, scale: 8, mode: 'number' }),
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', description), 'B') || setweight(to_tsvector('english', category), 'C')`,
    ),
    /**
     * The title's lexemes (the weight-A words of search_vector), kept by the database like a want's,
     * so the match score compares a want's words with an item's title without taking the document
     * apart for every pair (ADR 085).
     */
    titleLexemes: text('title_lexemes')
      .array()
      .generatedAlwaysAs(sql`tsvector_to_array(to_tsvector('english', title))`),
  },
  (t) => [
    index('items_user_id_idx').on(t.userId),
    // Feeds read active items newest first, ties broken by id.
    index('items_active_recent_idx').on(t.createdAt.desc(), t.id.desc()).where(sql`${t.isActive}`),
    // Want matching probes a category within the latitude band of the viewer's radius.
    index('items_active_category_lat_idx').on(t.category, t.isService, t.latitude).where(sql`${t.isActive}`),
    // Feed sort by value (highest first, unknown last).
    // The feeds' condition filter (ADR 082, addendum) while few goods state one: the stated ones.
    index('items_active_condition_idx')
      .on(t.condition)
      .where(sql`${t.isActive} AND ${t.condition} IS NOT NULL`),
    index('items_active_value_idx')
      .on(t.estimatedValue.desc().nullsLast(), t.id.desc())
      .where(sql`${t.isActive}`),
    index('items_active_search_vector_idx').using('gin', t.searchVector).where(sql`${t.isActive}`),
    // random-barter walks active items in this fixed pseudo-random order (server/features/feed/feed-sql.ts).
    index('items_active_shuffle_idx').on(sql`hashint4(${t.id})`, t.id).where(sql`${t.isActive}`),
    // Near spellings of titles ("dril" finds "Cordless drill"); needs pg_trgm (migration 0002).
    index('items_active_title_trgm_idx').using('gin', t.title.op('gin_trgm_ops')).where(sql`${t.isActive}`),
    // The stale-listings job (ADR 088): active listings not yet asked, oldest confirmation first,
    // and open questions, oldest first.
    index('items_active_unasked_confirmed_idx')
      .on(t.confirmedAt)
      .where(sql`${t.isActive} AND ${t.staleAskedAt} IS NULL`),
    index('items_active_asked_idx')
      .on(t.staleAskedAt)
      .where(sql`${t.isActive} AND ${t.staleAskedAt} IS NOT NULL`),
    check('items_estimated_value_non_negative', sql`${t.estimatedValue} >= 0`),
    // At most eight photos (ITEM_PHOTOS_MAX), whatever writes them; the service says so first (400).
    check(
      'items_photos_at_most_8',
      sql`jsonb_typeof(${t.photos}) = 'array' AND jsonb_array_length(${t.photos}) <= 8`,
    ),
    check(
      'items_condition_known',
      sql`${t.condition} IS NULL OR (NOT ${t.isService} AND ${t.condition} IN ('new', 'like-new', 'good', 'fair', 'for-parts'))`,
    ),
    // A traded item is never listed again (issue 30): whatever path would show it, the row refuses.
    check('items_traded_inactive', sql`${t.tradedAt} IS NULL OR NOT ${t.isActive}`),
  ],
);

/** What members are looking for (spec section 3). */
export const wants = pgTable(
  'wants',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description'),
    category: text('category').notNull(),
    isService: boolean('is_service').notNull().default(false),
    maxValue: numeric('max_value', { precision: 10, scale: 2, mode: 'number' }),
    isActive: boolean('is_active').notNull().default(true),
    /**
     * When a completed trade met this want (issue 30, ADR 073); a fulfilled want is inactive, so it
     * matches nothing, until its member keeps it open ("I want more of these": null and active again).
     */
    fulfilledAt: timestamp('fulfilled_at', { withTimezone: true }),
    /** The completed barter request that met it, when known. */
    fulfilledByRequestId: integer('fulfilled_by_request_id').references(
      (): AnyPgColumn => barterRequests.id,
      {
        onDelete: 'set null',
      },
    ),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The title's lexemes, kept by the database, for matching against items (server/features/feed). */
    titleLexemes: text('title_lexemes')
      .array()
      .generatedAlwaysAs(sql`tsvector_to_array(to_tsvector('english', title))`),
  },
  (t) => [
    index('wants_user_id_idx').on(t.userId),
    // Newest active wants first (the community flyer's neighbourhood list).
    index('wants_active_recent_idx').on(t.createdAt.desc(), t.id.desc()).where(sql`${t.isActive}`),
    index('wants_active_category_idx').on(t.category, t.isService).where(sql`${t.isActive}`),
    check('wants_max_value_non_negative', sql`${t.maxValue} >= 0`),
  ],
);

/** Items a member saved for later (spec section 3); one row per member and item. */
export const savedItems = pgTable(
  'saved_items',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    itemId: integer('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('saved_items_user_item_unique').on(t.userId, t.itemId),
    index('saved_items_item_id_idx').on(t.itemId),
  ],
);

export type ItemRow = typeof items.$inferSelect;
export type WantRow = typeof wants.$inferSelect;

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
    // The inbox (ADR 076): the messages sent to a member, by conversation (those they sent are found
    // through messages_conversation_idx, which starts with the sender).
    index('messages_to_user_thread_idx').on(t.toUserId, t.barterRequestId, t.id),
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
    /**
     * From when the member rated and everyone else see it (issue 30, ADR 074: revealed together).
     * The first rating of a barter is stored hidden until RATING_REVEAL_DAYS later; the other side's
     * rating brings both to that moment. Ratings made before the rule were revealed when made.
     * No default: the server writes it from the clock it reads it with (milliseconds), since the
     * database clock (microseconds) would put a rating read in the same millisecond in the future.
     */
    revealedAt: timestamp('revealed_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('ratings_request_rater_unique').on(t.barterRequestId, t.raterId),
    index('ratings_ratee_idx').on(t.rateeId),
    check('ratings_stars_range', sql`${t.stars} BETWEEN 1 AND 5`),
  ],
);

/**
 * "Did this fill your want?" (issue 30, ADR 073): written when a trade completes, one row per want of
 * the receiving member that an item they received matches (when the trade did not name the want).
 * Answering removes the row; a row whose want is no longer active is not asked.
 */
export const wantQuestions = pgTable(
  'want_questions',
  {
    barterRequestId: integer('barter_request_id')
      .notNull()
      .references(() => barterRequests.id, { onDelete: 'cascade' }),
    wantId: integer('want_id')
      .notNull()
      .references(() => wants.id, { onDelete: 'cascade' }),
    memberId: uuid('member_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.barterRequestId, t.wantId] }),
    index('want_questions_member_idx').on(t.memberId, t.barterRequestId),
    index('want_questions_want_idx').on(t.wantId),
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
    /**
     * A hand-over reminder's window start and place as they stood when it was sent (ADR 078), so the
     * entry keeps saying what it said after a reschedule; null for every other kind.
     */
    handOverStartsAt: timestamp('hand_over_starts_at', { withTimezone: true }),
    handOverPlace: text('hand_over_place'),
    /**
     * The listing a "Still available?" entry asks about and its title then (ADR 088); null for every
     * other kind. The entry goes with the item.
     */
    itemId: integer('item_id').references((): AnyPgColumn => items.id, { onDelete: 'cascade' }),
    itemTitle: text('item_title'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    index('notifications_user_idx').on(t.userId, t.id.desc()),
    index('notifications_circle_idx').on(t.circleId).where(sql`${t.circleId} IS NOT NULL`),
    index('notifications_user_unread_idx').on(t.userId, t.barterRequestId).where(sql`${t.readAt} IS NULL`),
    // The e-mail digest's sweep: unread entries, newest last (ADR 026).
    index('notifications_unread_recent_idx').on(t.createdAt).where(sql`${t.readAt} IS NULL`),
    // A listing's entries, withdrawn when its owner answers (ADR 088); the cascade of a deleted item.
    index('notifications_item_idx').on(t.itemId).where(sql`${t.itemId} IS NOT NULL`),
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
    /**
     * The circle this one replaces (issue 30, ADR 081): a member declined it or let it expire, and
     * this circle, with a replacement member or fewer members, was offered to those left.
     */
    replacesId: integer('replaces_id').references((): AnyPgColumn => circles.id, { onDelete: 'set null' }),
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
