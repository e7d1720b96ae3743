/**
 * What the bell tells a member about and how it says it, without zod: the header paints with these,
 * while the response schemas stay in common/schemas/notifications.ts (which re-exports them) (ADR 033).
 */

/** Everything the bell tells a member about (issue 13). */
export const NOTIFICATION_KINDS = [
  'proposal_received',
  'proposal_countered',
  'proposal_accepted',
  'proposal_declined',
  'proposal_withdrawn',
  'proposal_expired',
  'proposal_unavailable',
  'barter_cancelled',
  'completion_requested',
  'barter_completed',
  'message_received',
  'rating_received',
  'moderation_warning',
  'circle_proposed',
  'circle_accepted',
  'circle_declined',
  'circle_expired',
  'circle_unavailable',
  'swap_day_solved',
  // Planning the hand-over (issue 30, ADR 077); for hand_over_running_late, `count` is the minutes.
  'hand_over_proposed',
  'hand_over_agreed',
  'hand_over_rescheduled',
  'hand_over_running_late',
  // Reminders of an agreed plan (ADR 078): the entry carries the window's start and the place.
  'hand_over_reminder_day',
  'hand_over_reminder_hour',
  // A completed trade asks "Did this fill your want?" (ADR 073, 078); answering removes the entry.
  'want_question',
  // Keeping your word (ADR 079): a no-show report (no actor: the entry never names the reporter)
  // and the reported member's answer, to the reporter.
  'no_show_reported',
  'no_show_answered',
  // A new listing matching a saved search or a want (issue 31, ADR 084): the entry carries the item
  // and what it matched.
  'listing_alert',
  // A listing unconfirmed for STALE_LISTING_DAYS asks its owner "Still available?", and one left
  // unanswered leaves the feeds (issue 31, ADR 088): the entry carries the item and its title.
  'listing_still_available',
  'listing_paused_stale',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/**
 * The sentence of a notification ("Ann R. accepted your proposal"); `matched` is a listing alert's
 * saved search or want, or a stale listing's title (ADR 088), as the entry carries it.
 */
export function notificationText(
  kind: NotificationKind,
  actorName: string | null,
  count = 1,
  matched: string | null = null,
): string {
  const who = actorName ?? 'A neighbor';
  switch (kind) {
    case 'proposal_received':
      return `${who} proposed a barter`;
    case 'proposal_countered':
      return `${who} countered your proposal`;
    case 'proposal_accepted':
      return `${who} accepted your proposal`;
    case 'proposal_declined':
      return `${who} declined your proposal`;
    case 'proposal_withdrawn':
      return `${who} withdrew their proposal`;
    case 'proposal_expired':
      return 'A proposal expired after 14 days';
    case 'proposal_unavailable':
      return 'An item in a proposal is now reserved in another barter';
    case 'barter_cancelled':
      return `${who} canceled the barter`;
    case 'completion_requested':
      return `${who} confirmed the barter is completed`;
    case 'barter_completed':
      return 'Barter completed: you can now rate it';
    case 'message_received':
      return count > 1 ? `${count} new messages from ${who}` : `New message from ${who}`;
    case 'rating_received':
      return `${who} rated your barter`;
    case 'moderation_warning':
      return 'A moderator warned you: please keep to the Terms, or your account may be suspended';
    case 'circle_proposed':
      return 'You are in a new trade circle: see who gives what';
    case 'circle_accepted':
      return 'Everyone accepted your trade circle: arrange the hand-overs';
    case 'circle_declined':
      return `${who} declined the trade circle`;
    case 'circle_expired':
      return 'A trade circle expired before everyone accepted';
    case 'circle_unavailable':
      return 'A trade circle fell through: one of its items is no longer available';
    case 'swap_day_solved':
      return 'Your swap day is matched: see what you give and get';
    case 'hand_over_proposed':
      return `${who} proposed a time and place for your hand-over`;
    case 'hand_over_agreed':
      return `${who} agreed to the time and place of your hand-over`;
    case 'hand_over_rescheduled':
      return `${who} asked to reschedule your hand-over`;
    case 'hand_over_running_late':
      return `${who} is running ${count} minutes late for your hand-over`;
    case 'hand_over_reminder_day':
      return `Reminder: your hand-over with ${who} is in 24 hours`;
    case 'hand_over_reminder_hour':
      return `Reminder: your hand-over with ${who} is in 1 hour`;
    case 'want_question':
      return 'Did this completed barter fill your want? Answer on the barter page';
    case 'no_show_reported':
      return 'Your trading partner reported that you did not come to your hand-over: answer within 48 hours';
    case 'no_show_answered':
      return `${who} answered your report about your hand-over`;
    case 'listing_alert':
      return matched ? `New listing matching ${matched}` : 'New listing matching your search or want';
    case 'listing_still_available':
      return `Still available? ${matched ?? 'Your listing'}`;
    case 'listing_paused_stale':
      return `Not shown in feeds until you renew it: ${matched ?? 'your listing'}`;
  }
}
