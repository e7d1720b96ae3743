import { generateMessageId } from '@lingui/message-utils/generateMessageId';
import type { Locale } from '#common/locales.ts';
import { mailI18n, mailTranslator } from '../../mail/mail-i18n';
import { MAIL_TEXT } from '../../mail/mail-messages';

/**
 * What a push says, in the member's language (ADR 087): the bell's own sentence
 * (web/features/notifications/notification-text.ts), read from the web app's catalogue by the id
 * Lingui gives it, so the push, the bell and their Spanish never drift apart. A hand-over reminder
 * says when without the time (the server knows no member's time zone; the page shows it).
 */
const SENTENCES: Readonly<Record<string, string>> = {
  proposal_received: '{who} proposed a barter',
  proposal_countered: '{who} countered your proposal',
  proposal_accepted: '{who} accepted your proposal',
  proposal_declined: '{who} declined your proposal',
  proposal_withdrawn: '{who} withdrew their proposal',
  proposal_expired: 'A proposal expired after 14 days',
  proposal_unavailable: 'An item in a proposal is now reserved in another barter',
  barter_cancelled: '{who} canceled the barter',
  completion_requested: '{who} confirmed the barter is completed',
  barter_completed: 'Barter completed: you can now rate it',
  message_received: '{count, plural, one {New message from {who}} other {# new messages from {who}}}',
  rating_received: '{who} rated your barter',
  moderation_warning: 'A moderator warned you: please keep to the Terms, or your account may be suspended',
  circle_proposed: 'You are in a new trade circle: see who gives what',
  circle_accepted: 'Everyone accepted your trade circle: arrange the hand-overs',
  circle_declined: '{who} declined the trade circle',
  circle_expired: 'A trade circle expired before everyone accepted',
  circle_unavailable: 'A trade circle fell through: one of its items is no longer available',
  swap_day_solved: 'Your swap day is matched: see what you give and get',
  hand_over_proposed: '{who} proposed a time and place for your hand-over',
  hand_over_agreed: '{who} agreed to the time and place of your hand-over',
  hand_over_rescheduled: '{who} asked to reschedule your hand-over',
  hand_over_running_late: '{who} is running {count} minutes late for your hand-over',
  hand_over_reminder_day: 'Reminder: your hand-over with {who} is in 24 hours',
  hand_over_reminder_hour: 'Reminder: your hand-over with {who} is in 1 hour',
  want_question: 'Did this completed barter fill your want? Answer on the barter page',
  no_show_reported:
    'Your trading partner reported that you did not come to your hand-over: answer within 48 hours',
  no_show_answered: '{who} answered your report about your hand-over',
  // A saved search's or want's alert (ADR 084): what it matched, as the entry keeps it.
  listing_alert: 'New listing matching {matched}',
  // A stale listing (ADR 088): its title, as the entry keeps it.
  listing_still_available: 'Still available? {named}',
  listing_paused_stale: 'Not shown in feeds until you renew it: {named}',
};
/** A listing alert whose search or want is not known any more. */
const LISTING_ALERT_UNNAMED = 'New listing matching your search or want';

const A_NEIGHBOR = 'A neighbor';

/** Whether `kind` has its own sentence (the test checks every kind does, and its Spanish). */
export function hasPushSentence(kind: string): boolean {
  return kind in SENTENCES;
}

function translate(locale: Locale, message: string, values: Record<string, unknown> = {}): string {
  return mailI18n(locale)._(generateMessageId(message), values, { message });
}

/** The entry a push is about, as the delivery job reads it. */
export interface PushEntry {
  id: number;
  kind: string;
  count: number;
  barterRequestId: number | null;
  circleId: number | null;
  swapDayId: number | null;
  /** The actor's shown name ("Ann R."), null for the system or a deleted account. */
  actorName: string | null;
  /** A listing alert's item and what it matched (listing_alerts, ADR 084); null otherwise. */
  listing: { itemId: number; matched: string } | null;
  /** A stale listing's entry: the member's own item and its title (ADR 088); absent otherwise. */
  item?: { id: number; title: string } | null;
}

/** The page the entry opens: its item, swap day, barter or circle, as the bell links it; else home. */
export function pushLink(
  entry: Pick<PushEntry, 'barterRequestId' | 'circleId' | 'swapDayId' | 'listing' | 'item'>,
): string {
  // A stale listing's question is answered in My Items (ADR 088).
  if (entry.item) return '/profile?tab=items';
  if (entry.listing !== null) return `/items/${entry.listing.itemId}`;
  if (entry.swapDayId !== null) return `/swap-days/${entry.swapDayId}`;
  if (entry.barterRequestId !== null) return `/barters/${entry.barterRequestId}`;
  if (entry.circleId !== null) return `/circles/${entry.circleId}`;
  return '/';
}

/** The push's JSON payload, which the service worker shows (web/sw.ts): title, body, link and tag. */
export interface PushPayload {
  title: string;
  body: string;
  url: string;
  /** One notification per entry on the device (a later push of the same entry replaces it). */
  tag: string;
}

export function pushPayload(locale: Locale, entry: PushEntry): PushPayload {
  const sentence =
    entry.kind === 'listing_alert' && !entry.listing?.matched ? LISTING_ALERT_UNNAMED : SENTENCES[entry.kind];
  const who = entry.actorName ?? translate(locale, A_NEIGHBOR);
  const body = sentence
    ? translate(locale, sentence, {
        who,
        count: entry.count,
        matched: entry.listing?.matched,
        named: entry.item?.title ?? '',
      })
    : // A kind with no sentence here yet (one added since): the digest's subject for one new thing.
      mailTranslator(locale)(MAIL_TEXT.digestSubject, { count: 1 });
  return { title: 'Barterhood', body, url: pushLink(entry), tag: `notification-${entry.id}` };
}
