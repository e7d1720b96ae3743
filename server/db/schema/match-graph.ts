import {
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { items, wants } from './trading';
import { users } from './users';

/**
 * The match graph (ADR 022, server/features/match-graph/README.md): for each member who opened
 * Barter Match, every listed item that matches one of their active wants within the largest feed
 * radius (anywhere when they have no location), with the want it matches best and the score's
 * parts, kept up to date off the request path from `match_graph_changes`. Barter Match reads its
 * pages from here through one index per sort, stopping after the page.
 */
export const matchGraph = pgTable(
  'match_graph',
  {
    memberId: uuid('member_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    itemId: integer('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    /** The item's owner, for the updates a change of theirs brings (reciprocity, a move). */
    itemUserId: uuid('item_user_id').notNull(),
    /** The member's want the item matches best (relevance and value fit, then the oldest). */
    wantId: integer('want_id')
      .notNull()
      .references(() => wants.id, { onDelete: 'cascade' }),
    sameCategory: boolean('same_category').notNull(),
    /** Text similarity in whole percent (match-score.ts). */
    textPct: smallint('text_pct').notNull(),
    valuePoints: smallint('value_points').notNull(),
    /** The owner wants something the member offers: `theirWantId` names that want. */
    mutual: boolean('mutual').notNull(),
    theirWantId: integer('their_want_id'),
    /**
     * Miles from the member's own point to the item's copy of its owner's public point; null when
     * either has no location. Never sent as is: pages round it as every feed does.
     */
    distance: doublePrecision('distance'),
    /** The Barter Match score of the columns above, written by feed-sql.ts scoreSql (the feed's one formula). */
    score: smallint('score').notNull(),
    /** The item's, for the Recent and Value orders. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    value: numeric('value', { precision: 10, scale: 2, mode: 'number' }),
  },
  (t) => [
    primaryKey({ columns: [t.memberId, t.itemId] }),
    // One index per Barter Match order, spelt as the feed orders (pageOrder), so a page stops early.
    index('match_graph_score_idx').on(t.memberId, t.score.desc(), t.itemId.desc().nullsLast()),
    index('match_graph_recent_idx').on(
      t.memberId,
      t.createdAt.desc().nullsLast(),
      t.itemId.desc().nullsLast(),
    ),
    index('match_graph_distance_idx').on(t.memberId, t.distance.asc(), t.itemId.desc().nullsLast()),
    index('match_graph_value_idx').on(t.memberId, t.value.desc().nullsLast(), t.itemId.desc().nullsLast()),
    index('match_graph_item_idx').on(t.itemId),
    index('match_graph_owner_idx').on(t.itemUserId),
  ],
);

/** Members whose graph is kept: built once they open Barter Match, dropped after GRAPH_IDLE_DAYS unread. */
export const matchGraphMembers = pgTable('match_graph_members', {
  memberId: uuid('member_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Null until the first build has finished (pages come from the ranking query until then). */
  builtAt: timestamp('built_at', { withTimezone: true }),
  /** Last day a page was read from the graph (moved at most once a day). */
  readAt: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * What changed since the graph was last brought up to date, written by triggers on items, wants
 * and users in the writer's own transaction (so no writer can forget it) and drained by the
 * match-graph job. kind: 'item' (item_id, member_id = its owner), 'wants' (member_id), 'member'
 * (member_id: their own point moved), 'build' (member_id: build their graph).
 */
export const matchGraphChanges = pgTable(
  'match_graph_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    itemId: integer('item_id'),
    memberId: uuid('member_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('match_graph_changes_member_idx').on(t.memberId)],
);

/**
 * Related terms (ADR 085): single words that name the same thing ('bicycle' for 'bike', 'couch' for
 * 'sofa'), as full-text lexemes, each pair both ways. Within a want's category, a title word related
 * to one of the want's words counts as that word in the match score (match-score.ts). Filled by its
 * migration.
 */
export const matchRelatedTerms = pgTable(
  'match_related_terms',
  {
    lexeme: text('lexeme').notNull(),
    related: text('related').notNull(),
  },
  (t) => [primaryKey({ columns: [t.lexeme, t.related] })],
);
