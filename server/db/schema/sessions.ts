import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Server-side sessions (spec section 3): id, data and expiry. */
export const sessions = pgTable(
  'sessions',
  {
    sid: text('sid').primaryKey(),
    sess: jsonb('sess').notNull(),
    expire: timestamp('expire', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('sessions_expire_idx').on(t.expire),
    // A member's sessions: the Account tab's list, and ending them all (password reset, sign out everywhere).
    index('sessions_user_idx').on(sql`(${t.sess}->>'userId')`),
  ],
);
