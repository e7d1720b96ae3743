import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Server-side sessions (spec section 3): id, data and expiry. */
export const sessions = pgTable(
  'sessions',
  {
    sid: text('sid').primaryKey(),
    sess: jsonb('sess').notNull(),
    expire: timestamp('expire', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_expire_idx').on(t.expire)],
);
