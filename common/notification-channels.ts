import { NOTIFICATION_KINDS, type NotificationKind } from './notification-text';

/**
 * How each kind of notification reaches a member outside the app (issue 31, ADR 090): pushed to
 * their devices, in the e-mail digest, or not at all. The bell always has the entry; the choice is
 * made per group of kinds, the groups the Account tab shows. Without zod, so the web's section and
 * the server's SQL read one list.
 */
export const NOTIFICATION_CHANNELS = ['push', 'digest', 'none'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/**
 * The groups, in the Account tab's order. `proposals` and `messages` keep the digest's two
 * switches of ADR 026 (and their one-click unsubscribe links) as they were.
 */
export const NOTIFICATION_GROUPS = [
  'proposals',
  'messages',
  'barters',
  'circles',
  'listing_alerts',
  'listings',
  'moderation',
] as const;
export type NotificationGroup = (typeof NOTIFICATION_GROUPS)[number];

const GROUPS = {
  proposal_received: 'proposals',
  proposal_countered: 'proposals',
  hand_over_reminder_day: 'proposals',
  hand_over_reminder_hour: 'proposals',
  no_show_reported: 'proposals',
  no_show_answered: 'proposals',
  message_received: 'messages',
  proposal_accepted: 'barters',
  proposal_declined: 'barters',
  proposal_withdrawn: 'barters',
  proposal_expired: 'barters',
  proposal_unavailable: 'barters',
  barter_cancelled: 'barters',
  completion_requested: 'barters',
  barter_completed: 'barters',
  rating_received: 'barters',
  want_question: 'barters',
  hand_over_proposed: 'barters',
  hand_over_agreed: 'barters',
  hand_over_rescheduled: 'barters',
  hand_over_running_late: 'barters',
  circle_proposed: 'circles',
  circle_accepted: 'circles',
  circle_declined: 'circles',
  circle_expired: 'circles',
  circle_unavailable: 'circles',
  swap_day_solved: 'circles',
  listing_alert: 'listing_alerts',
  // "Still available?" about the member's own listing and its pause (ADR 088): mailed by default.
  listing_still_available: 'listings',
  listing_paused_stale: 'listings',
  moderation_warning: 'moderation',
} as const;

/**
 * Which group each kind belongs to. The type refuses a kind of NOTIFICATION_KINDS left out; a kind
 * named here before it joins NOTIFICATION_KINDS is allowed (work lands in either order).
 */
export const GROUP_OF_KIND: Readonly<Record<NotificationKind, NotificationGroup>> = GROUPS;

/**
 * What a member gets before choosing (ADR 090): what reached them before the choice existed. The
 * digest's kinds of mail (proposals, messages, and the "Still available?" questions of ADR 088) go
 * by push once the member has a device that gets pushes, and by e-mail until then; everything else
 * was pushed (to the devices they turned push on for, so nowhere outside the app without one) and
 * still is.
 */
export const MAILED_BY_DEFAULT: readonly NotificationGroup[] = ['proposals', 'messages', 'listings'];

export function defaultChannel(group: NotificationGroup, hasPushDevice: boolean): NotificationChannel {
  return MAILED_BY_DEFAULT.includes(group) && !hasPushDevice ? 'digest' : 'push';
}

/** The kinds of one group, in NOTIFICATION_KINDS' order. */
export function kindsOfGroup(group: NotificationGroup): NotificationKind[] {
  return NOTIFICATION_KINDS.filter((kind) => GROUP_OF_KIND[kind] === group);
}
