import { z } from 'zod';
import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_GROUPS,
  type NotificationChannel,
  type NotificationGroup,
} from '../notification-channels';

export {
  defaultChannel,
  GROUP_OF_KIND,
  kindsOfGroup,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_GROUPS,
  type NotificationChannel,
  type NotificationGroup,
} from '../notification-channels';

const channel = z.enum(NOTIFICATION_CHANNELS);

/** GET /api/account/notification-channels: every group's channel (ADR 090). */
export const notificationChannelsSchema = z.strictObject(
  Object.fromEntries(NOTIFICATION_GROUPS.map((group) => [group, channel])) as Record<
    NotificationGroup,
    typeof channel
  >,
);
export type NotificationChannels = Record<NotificationGroup, NotificationChannel>;

/** PUT /api/account/notification-channels: the groups to change (at least one), the rest kept. */
export const notificationChannelsUpdateSchema = z
  .strictObject(
    Object.fromEntries(NOTIFICATION_GROUPS.map((group) => [group, channel.optional()])) as Record<
      NotificationGroup,
      z.ZodOptional<typeof channel>
    >,
  )
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    message: 'Choose how at least one kind of notification reaches you',
  });
export type NotificationChannelsUpdate = Partial<NotificationChannels>;
