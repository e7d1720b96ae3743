import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  customType,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { ITEM_MODERATION } from '../../../common/schemas/listings';
import { barterRequests } from './barter';
import { users } from './users';

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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
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
  },
  (t) => [
    index('items_user_id_idx').on(t.userId),
    // Feeds read active items newest first, ties broken by id.
    index('items_active_recent_idx').on(t.createdAt.desc(), t.id.desc()).where(sql`${t.isActive}`),
    // Want matching probes a category within the latitude band of the viewer's radius.
    index('items_active_category_lat_idx').on(t.category, t.isService, t.latitude).where(sql`${t.isActive}`),
    // Feed sort by value (highest first, unknown last).
    index('items_active_value_idx')
      .on(t.estimatedValue.desc().nullsLast(), t.id.desc())
      .where(sql`${t.isActive}`),
    index('items_active_search_vector_idx').using('gin', t.searchVector).where(sql`${t.isActive}`),
    // random-barter walks active items in this fixed pseudo-random order (server/features/feed/feed-sql.ts).
    index('items_active_shuffle_idx').on(sql`hashint4(${t.id})`, t.id).where(sql`${t.isActive}`),
    // Near spellings of titles ("dril" finds "Cordless drill"); needs pg_trgm (migration 0002).
    index('items_active_title_trgm_idx').using('gin', t.title.op('gin_trgm_ops')).where(sql`${t.isActive}`),
    check('items_estimated_value_non_negative', sql`${t.estimatedValue} >= 0`),
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
