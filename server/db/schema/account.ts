import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/** What an account token lets its holder do (ADR 024). */
export const ACCOUNT_TOKEN_KINDS = ['password-reset', 'verify-email'] as const;
export type AccountTokenKind = (typeof ACCOUNT_TOKEN_KINDS)[number];

/**
 * Single-use links sent by e-mail: a password reset (30 minutes) or the verification of an address
 * (the member's own, or the new one they asked to change to). Only a hash of the token is kept, so
 * a copy of the database opens no account.
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ACCOUNT_TOKEN_KINDS }).notNull(),
    /** SHA-256 of the token in the link (base64url). */
    tokenHash: text('token_hash').notNull(),
    /** The address the link was sent to: for verify-email, the address it verifies. */
    email: text('email').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('account_tokens_hash_unique').on(t.tokenHash),
    index('account_tokens_user_idx').on(t.userId, t.kind, t.createdAt),
  ],
);

export type AccountTokenRow = typeof accountTokens.$inferSelect;
