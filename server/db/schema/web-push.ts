import { sql } from 'drizzle-orm';
import {
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
import { notifications } from './trading';
import { users } from './users';

/**
 * The site's VAPID key pair for Web Push (ADR 087), made by the first process that needs it and
 * shared by every process on the database: one row, id 1. Unused when the operator sets
 * WEB_PUSH_PUBLIC_KEY and WEB_PUSH_PRIVATE_KEY.
 */
export const webPushKeys = pgTable(
  'web_push_keys',
  {
    id: smallint('id').primaryKey(),
    /** The public key, uncompressed P-256 point, base64url (what PushManager.subscribe takes). */
    publicKey: text('public_key').notNull(),
    /** The private key, the P-256 scalar, base64url. */
    privateKey: text('private_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('web_push_keys_one_row', sql`${t.id} = 1`)],
);

/**
 * One device's push subscription (a browser or the installed app), as PushManager.subscribe gave it.
 * An endpoint belongs to one member: the device's last one to turn push on.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Where the push service takes messages for the device (https). */
    endpoint: text('endpoint').notNull(),
    /** The device's P-256 public key and auth secret, base64url (RFC 8291). */
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    /** The browser's User-Agent when it subscribed, to name the device in the Account tab. */
    userAgent: text('user_agent').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint_unique').on(t.endpoint),
    index('push_subscriptions_user_idx').on(t.userId, t.createdAt),
  ],
);

/**
 * Pushes waiting to go (an outbox, ADR 087): one row per notification and device, written in the
 * notification's transaction, taken by the web-push job; a retry moves `due_at` on.
 */
export const pushDeliveries = pgTable(
  'push_deliveries',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => pushSubscriptions.id, { onDelete: 'cascade' }),
    notificationId: integer('notification_id')
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    attempts: integer('attempts').notNull().default(0),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('push_deliveries_due_idx').on(t.dueAt),
    index('push_deliveries_subscription_idx').on(t.subscriptionId),
    index('push_deliveries_notification_idx').on(t.notificationId),
  ],
);
