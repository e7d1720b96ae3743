import { eq, sql } from 'drizzle-orm';
import { NOTIFICATION_KINDS, type NotificationKind } from '#common/notification-text.ts';
import {
  defaultChannel,
  GROUP_OF_KIND,
  kindsOfGroup,
  NOTIFICATION_GROUPS,
  type NotificationChannels,
  type NotificationChannelsUpdate,
  type NotificationGroup,
} from '#common/schemas/notification-channels.ts';
import type { PushKinds } from '#common/schemas/push.ts';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/rows';
import { notificationChannels } from '../../db/schema/notification-channels';
import { pushSubscriptions } from '../../db/schema/web-push';
import { badRequest } from '../../errors';
import { describeDevice } from '../../plugins/session';

/**
 * Each group of notification kinds goes to the member's devices (push), into the e-mail digest, or
 * nowhere outside the app (ADR 090). The bell has every entry whatever the choice. A group the member
 * has not chosen for has its default (common/notification-channels.ts). The push trigger and the
 * digest read the same rows and defaults through the SQL function notification_channel() (migration
 * 0049); a test holds the two to one another.
 */
export async function notificationChannelsOf(db: Db, userId: string): Promise<NotificationChannels> {
  const [rows, devices] = await Promise.all([
    db
      .select({ group: notificationChannels.kindGroup, channel: notificationChannels.channel })
      .from(notificationChannels)
      .where(eq(notificationChannels.userId, userId)),
    db
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId))
      .limit(1),
  ]);
  const chosen = new Map(rows.map((row) => [row.group, row.channel]));
  return Object.fromEntries(
    NOTIFICATION_GROUPS.map((group) => [
      group,
      chosen.get(group) ?? defaultChannel(group, devices.length > 0),
    ]),
  ) as NotificationChannels;
}

/** Set the groups named (one statement: two saves at once each keep their own groups). */
export async function setNotificationChannels(
  db: Db,
  userId: string,
  input: NotificationChannelsUpdate,
): Promise<NotificationChannels> {
  const changes = NOTIFICATION_GROUPS.flatMap((group) => {
    const channel = input[group];
    return channel ? [{ userId, kindGroup: group, channel }] : [];
  });
  if (changes.length > 0)
    await db
      .insert(notificationChannels)
      .values(changes)
      .onConflictDoUpdate({
        target: [notificationChannels.userId, notificationChannels.kindGroup],
        set: { channel: sql`excluded.channel`, updatedAt: sql`now()` },
      });
  return notificationChannelsOf(db, userId);
}

/** One group's channel to 'none' (a one-click unsubscribe from the digest); false: no such member. */
export async function stopGroup(db: Db, userId: string, group: NotificationGroup): Promise<boolean> {
  const done = await queryRows<{ user_id: string }>(
    db,
    sql`INSERT INTO ${notificationChannels} (user_id, kind_group, channel)
        SELECT id, ${group}, 'none' FROM users WHERE id = ${userId}::uuid
        ON CONFLICT (user_id, kind_group) DO UPDATE SET channel = 'none', updated_at = now()
        RETURNING user_id`,
  );
  return done.length > 0;
}

/**
 * GET /api/push/kinds as it was (ADR 087), now a view of the channels: a kind is pushed when its
 * group's channel is push.
 */
export async function pushKinds(db: Db, userId: string): Promise<PushKinds> {
  const channels = await notificationChannelsOf(db, userId);
  return {
    kinds: NOTIFICATION_KINDS.map((kind) => ({ kind, push: channels[GROUP_OF_KIND[kind]] === 'push' })),
  };
}

/**
 * PUT /api/push/kinds ("push every kind but these") on the channels: a group none of whose kinds is
 * named is pushed; a group all of whose kinds are named stops being pushed (push becomes none, a
 * digest stays the digest). Kinds are chosen a group at a time, so naming part of a group is a 400.
 */
export async function setMutedKinds(
  db: Db,
  userId: string,
  muted: readonly NotificationKind[],
): Promise<PushKinds> {
  const named = new Set(muted);
  const current = await notificationChannelsOf(db, userId);
  const update: NotificationChannelsUpdate = {};
  for (const group of NOTIFICATION_GROUPS) {
    const kinds = kindsOfGroup(group);
    const count = kinds.filter((kind) => named.has(kind)).length;
    if (count === 0) update[group] = 'push';
    else if (count === kinds.length) update[group] = current[group] === 'push' ? 'none' : current[group];
    else
      throw badRequest(
        `Kinds are chosen a group at a time: mute all of ${kinds.join(', ')} or none of them.`,
      );
  }
  await setNotificationChannels(db, userId, update);
  return pushKinds(db, userId);
}

/**
 * The member's notification choices and push devices for their data export (ADR 090): each
 * device's browser and system and when it was added, never its endpoint or keys (the endpoint is
 * the address a push reaches the device at; the keys decrypt what is pushed to it).
 */
export async function exportNotificationSettingsOf(
  db: Db,
  userId: string,
): Promise<{
  notificationChannels: NotificationChannels;
  pushDevices: { device: string; createdAt: string }[];
}> {
  const devices = await db
    .select({ userAgent: pushSubscriptions.userAgent, createdAt: pushSubscriptions.createdAt })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(pushSubscriptions.createdAt, pushSubscriptions.id);
  return {
    notificationChannels: await notificationChannelsOf(db, userId),
    pushDevices: devices.map((row) => ({
      device: describeDevice(row.userAgent),
      createdAt: row.createdAt.toISOString(),
    })),
  };
}
