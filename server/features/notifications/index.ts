/** Notifications: the bell (what happened to a member), unread counts, and the e-mail digest. */
export { markSeen, sendMailDigests, unsubscribeToken } from './mail-digest';
export { mailDigestJob } from './mail-digest-job';
export { mailLinkRoutes, mailPreferenceRoutes } from './mail-routes';
export { notificationsRoutes } from './notifications-routes';
export {
  countsEvent,
  type NotifyInput,
  notifyMember,
  notifyMembers,
  unreadCounts,
  withdrawNotifications,
} from './notify';
