/** Notifications: the bell (what happened to a member), unread counts, the e-mail digest and Web Push. */
export { markSeen, sendMailDigests, unsubscribeToken } from './mail-digest';
export { mailDigestJob } from './mail-digest-job';
export { mailLinkRoutes, notificationChannelRoutes } from './mail-routes';
export { exportNotificationSettingsOf } from './notification-channels';
export { notificationsRoutes } from './notifications-routes';
export {
  countsEvent,
  type EntryContext,
  lockMessageEntries,
  type NotifyInput,
  notificationEntry,
  notifyMember,
  notifyMembers,
  unreadCounts,
  withdrawItemNotifications,
  withdrawNotifications,
} from './notify';
export { pushRoutes } from './push-routes';
export { webPushPlugin } from './web-push';
