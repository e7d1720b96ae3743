import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { REPORT_REASON_VALUES } from '#common/schemas/safety.ts';
import { users } from './users';

/** A member hides another (ADR 025): neither sees the other's listings, proposes or writes to them. */
export const memberBlocks = pgTable(
  'member_blocks',
  {
    blockerId: uuid('blocker_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    blockedId: uuid('blocked_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.blockerId, t.blockedId] }),
    index('member_blocks_blocked_idx').on(t.blockedId),
    check('member_blocks_not_self', sql`${t.blockerId} <> ${t.blockedId}`),
  ],
);

/** What can be reported, and the reasons the Terms give (common/schemas/safety.ts has their labels). */
export const REPORT_TARGETS = ['item', 'member', 'message', 'rating', 'appeal'] as const;
export const REPORT_REASONS = REPORT_REASON_VALUES;
export const REPORT_STATUSES = ['open', 'dismissed', 'actioned'] as const;

/**
 * A member's report of something that breaks the Terms (or, target 'appeal', a suspended member's
 * appeal): one open report per reporter and target. `targetUserId` is whose content it is.
 */
export const reports = pgTable(
  'reports',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** Null for the automatic photo screening's reports (ADR 027). */
    reporterId: uuid('reporter_id').references(() => users.id, { onDelete: 'cascade' }),
    targetKind: text('target_kind', { enum: REPORT_TARGETS }).notNull(),
    /** The item, message or rating id, or the member's uuid, as text. */
    targetId: text('target_id').notNull(),
    targetUserId: uuid('target_user_id').references(() => users.id, { onDelete: 'cascade' }),
    reason: text('reason', { enum: REPORT_REASONS }).notNull(),
    note: text('note'),
    status: text('status', { enum: REPORT_STATUSES }).notNull().default('open'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: uuid('resolved_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('reports_open_unique')
      .on(t.reporterId, t.targetKind, t.targetId)
      .where(sql`${t.status} = 'open'`),
    index('reports_open_idx').on(t.createdAt).where(sql`${t.status} = 'open'`),
    index('reports_target_idx').on(t.targetKind, t.targetId),
  ],
);

export const MODERATION_ACTIONS = [
  'dismiss',
  'remove',
  'warn',
  'suspend',
  'ban',
  'lift',
  'grant',
  'revoke',
  // A moderator's decision on a disputed no-show report (ADR 079); target kind 'no_show'.
  'no_show_kept',
  'no_show_missed',
  'no_show_dismissed',
] as const;

/** What an audit entry is about: a reported thing, or a no-show report (ADR 079). */
export const MODERATION_TARGETS = [...REPORT_TARGETS, 'no_show'] as const;

/** Every moderator action, kept: who, what, to whom, why (visible to moderators). */
export const moderationActions = pgTable(
  'moderation_actions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** Null for actions taken from the command line (npm run admin). */
    moderatorId: uuid('moderator_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action', { enum: MODERATION_ACTIONS }).notNull(),
    reportId: integer('report_id').references(() => reports.id, { onDelete: 'set null' }),
    targetKind: text('target_kind', { enum: MODERATION_TARGETS }),
    targetId: text('target_id'),
    targetUserId: uuid('target_user_id').references(() => users.id, { onDelete: 'set null' }),
    reason: text('reason').notNull(),
    days: integer('days'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('moderation_actions_recent_idx').on(t.createdAt)],
);

/** What text a refusal was about. */
export const REFUSAL_KINDS = [
  'item',
  'want',
  'proposal',
  'message',
  'rating',
  'cancellation',
  'profile',
  /** A profile photo the screening refused (ADR 027). */
  'profile-photo',
  /** A swap day's name or place (issue 16). */
  'swap-day',
] as const;

/**
 * Wording the automatic moderation refused (server/moderation), for the moderators' screen: who,
 * what kind of text, why, and the start of the text. Kept 30 days.
 */
export const moderationRefusals = pgTable(
  'moderation_refusals',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    memberId: uuid('member_id').references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: REFUSAL_KINDS }).notNull(),
    reason: text('reason').notNull(),
    excerpt: text('excerpt').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('moderation_refusals_recent_idx').on(t.createdAt)],
);
