import { plural, t } from '@lingui/core/macro';
import type { NotificationKind } from '#common/notification-text.ts';
import { formatDateTime } from '#web/i18n/format.ts';

/** A hand-over reminder's plan as the entry carries it (ADR 078). */
export interface ReminderPlan {
  startsAt: string;
  place: string;
}

/**
 * The bell's sentence of a notification ("Ann R. accepted your proposal") in the active language
 * (ADR 036). The English is common/notification-text.ts's, which the server's e-mails keep using.
 * Call at render time. `matched` is a listing alert's saved search or want (ADR 084), or a stale
 * listing's title (ADR 088).
 */
export function notificationText(
  kind: NotificationKind,
  actorName: string | null,
  count = 1,
  handOver: ReminderPlan | null = null,
  matched: string | null = null,
): string {
  const who = actorName ?? t`A neighbor`;
  const named = matched ?? '';
  switch (kind) {
    case 'proposal_received':
      return t`${who} proposed a barter`;
    case 'proposal_countered':
      return t`${who} countered your proposal`;
    case 'proposal_accepted':
      return t`${who} accepted your proposal`;
    case 'proposal_declined':
      return t`${who} declined your proposal`;
    case 'proposal_withdrawn':
      return t`${who} withdrew their proposal`;
    case 'proposal_expired':
      return t`A proposal expired after 14 days`;
    case 'proposal_unavailable':
      return t`An item in a proposal is now reserved in another barter`;
    case 'barter_cancelled':
      return t`${who} canceled the barter`;
    case 'completion_requested':
      return t`${who} confirmed the barter is completed`;
    case 'barter_completed':
      return t`Barter completed: you can now rate it`;
    case 'message_received':
      return plural(count, { one: `New message from ${who}`, other: `# new messages from ${who}` });
    case 'rating_received':
      return t`${who} rated your barter`;
    case 'moderation_warning':
      return t`A moderator warned you: please keep to the Terms, or your account may be suspended`;
    case 'circle_proposed':
      return t`You are in a new trade circle: see who gives what`;
    case 'circle_accepted':
      return t`Everyone accepted your trade circle: arrange the hand-overs`;
    case 'circle_declined':
      return t`${who} declined the trade circle`;
    case 'circle_expired':
      return t`A trade circle expired before everyone accepted`;
    case 'circle_unavailable':
      return t`A trade circle fell through: one of its items is no longer available`;
    case 'swap_day_solved':
      return t`Your swap day is matched: see what you give and get`;
    case 'hand_over_proposed':
      return t`${who} proposed a time and place for your hand-over`;
    case 'hand_over_agreed':
      return t`${who} agreed to the time and place of your hand-over`;
    case 'hand_over_rescheduled':
      return t`${who} asked to reschedule your hand-over`;
    case 'hand_over_running_late':
      return t`${who} is running ${count} minutes late for your hand-over`;
    case 'hand_over_reminder_day':
    case 'hand_over_reminder_hour': {
      if (handOver === null) {
        return kind === 'hand_over_reminder_day'
          ? t`Reminder: your hand-over with ${who} is in 24 hours`
          : t`Reminder: your hand-over with ${who} is in 1 hour`;
      }
      const when = formatDateTime(handOver.startsAt);
      const place = handOver.place;
      return kind === 'hand_over_reminder_day'
        ? t`Reminder: your hand-over with ${who} is in 24 hours: ${when}, at ${place}`
        : t`Reminder: your hand-over with ${who} is in 1 hour: ${when}, at ${place}`;
    }
    case 'want_question':
      return t`Did this completed barter fill your want? Answer on the barter page`;
    case 'no_show_reported':
      return t`Your trading partner reported that you did not come to your hand-over: answer within 48 hours`;
    case 'no_show_answered':
      return t`${who} answered your report about your hand-over`;
    case 'listing_alert':
      return matched ? t`New listing matching ${matched}` : t`New listing matching your search or want`;
    // A stale listing (ADR 088): `matched` is its title as the entry keeps it.
    case 'listing_still_available':
      return t`Still available? ${named}`;
    case 'listing_paused_stale':
      return t`Not shown in feeds until you renew it: ${named}`;
  }
}

/** The bell's accessible name: "Notifications", or "Notifications, 2 unread". */
export function bellLabel(unread: number): string {
  return unread > 0 ? t`Notifications, ${unread} unread` : t`Notifications`;
}
