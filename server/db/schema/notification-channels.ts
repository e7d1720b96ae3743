import { sql } from 'drizzle-orm';
import { check, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * How a group of notification kinds reaches a member outside the app (issue 31, ADR 090): 'push',
 * 'digest' or 'none'. A group without a row has its default (common/notification-channels.ts);
 * the SQL functions notification_kind_group() and notification_channel() (migration 0049) read
 * this for the push trigger and the digest.
 */
export const notificationChannels = pgTable(
  'notification_channels',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kindGroup: text('kind_group').notNull(),
    channel: text('channel', { enum: ['push', 'digest', 'none'] }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.kindGroup] }),
    check('notification_channels_channel', sql`${t.channel} IN ('push', 'digest', 'none')`),
  ],
);
