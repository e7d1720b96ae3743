import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Locale } from '#common/locales.ts';
import { memberDisplayName } from '#common/member-name.ts';
import { GROUP_OF_KIND, NOTIFICATION_GROUPS, type NotificationGroup } from '#common/notification-channels.ts';
import type { NotificationKind } from '#common/notification-text.ts';
import { uuidArray } from '../../db/arrays';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/rows';
import { users } from '../../db/schema/users';
import { mailGreeting, mailLocale, mailTranslator } from '../../mail/mail-i18n';
import { MAIL_TEXT, type MailMessage } from '../../mail/mail-messages';
import type { OutgoingMail } from '../../mail/mailer';
import { stopGroup } from './notification-channels';
import { findSwapDaysOfNotifications } from './notifications-repository';
import { type PushEntry, pushLink, pushPayload } from './push-text';

/**
 * E-mail about new proposals and messages (ADR 026), hand-over reminders (ADR 078) and no-show
 * reports and answers (ADR 079), and any other kind whose group the member chose to get by e-mail
 * (ADR 090: listing alerts, the barters' progress, circles, warnings): a member who has had no page
 * open for AWAY_MINUTES gets one mail listing what they have not seen, at most one every
 * DIGEST_EVERY_MINUTES. Only verified addresses; each group can be stopped in one click.
 */
export const AWAY_MINUTES = 10;
export const DIGEST_EVERY_MINUTES = 60;

/** What a one-click link stops: a group of kinds (ADR 090; 'proposals' and 'messages' as in ADR 026). */
export const MAIL_KINDS = NOTIFICATION_GROUPS;
export type MailKind = NotificationGroup;

/** The kinds the digest has a line of its own for (ADR 026, 078, 079); others read as the bell does. */
const OWN_LINES = new Set([
  'proposal_received',
  'proposal_countered',
  'hand_over_reminder_day',
  'hand_over_reminder_hour',
  'no_show_reported',
  'no_show_answered',
  'message_received',
]);

const STOP_LINE: Record<MailKind, MailMessage> = {
  proposals: MAIL_TEXT.digestStopProposals,
  messages: MAIL_TEXT.digestStopMessages,
  barters: MAIL_TEXT.digestStopBarters,
  circles: MAIL_TEXT.digestStopCircles,
  listing_alerts: MAIL_TEXT.digestStopListingAlerts,
  listings: MAIL_TEXT.digestStopListings,
  moderation: MAIL_TEXT.digestStopModeration,
};

function groupOf(kind: string): MailKind {
  return GROUP_OF_KIND[kind as NotificationKind] ?? 'moderation';
}

type App = Pick<FastifyInstance, 'db' | 'mailer' | 'config' | 'log'>;

/**
 * Members with a page open were seen now. `locale`: the language that page is shown in, kept as the
 * member's for the mail we send them (ADR 060).
 */
export async function markSeen(db: Db, userIds: readonly string[], locale?: Locale): Promise<void> {
  if (userIds.length === 0) return;
  await db.execute(
    locale
      ? sql`UPDATE users SET last_seen_at = now(), locale = ${locale} WHERE id = ANY(${uuidArray(userIds)}::uuid[])`
      : sql`UPDATE users SET last_seen_at = now() WHERE id = ANY(${uuidArray(userIds)}::uuid[])`,
  );
}

/** The token of a one-click unsubscribe link: an HMAC of the member and kind (nothing stored). */
export function unsubscribeToken(secret: string, userId: string, kind: MailKind): string {
  return createHmac('sha256', secret).update(`unsubscribe:${userId}:${kind}`).digest('base64url');
}

/** Turn one kind of mail off, when the token is right; false otherwise. */
export async function unsubscribe(
  db: Db,
  secret: string,
  input: { userId: string; kind: MailKind; token: string },
): Promise<boolean> {
  const expected = Buffer.from(unsubscribeToken(secret, input.userId, input.kind));
  const given = Buffer.from(input.token);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
  return stopGroup(db, input.userId, input.kind);
}

export interface DigestRow {
  user_id: string;
  email: string;
  first_name: string | null;
  locale: string | null;
  kind: string;
  count: number;
  barter_request_id: number | null;
  actor_first: string | null;
  actor_last: string | null;
  /** The actor's shown name, told apart from near namesakes (ADR 058). */
  actor_name: string | null;
  /** A hand-over reminder's window start (epoch milliseconds) and place (ADR 078). */
  hand_over_ms: number | null;
  hand_over_place: string | null;
  notification_id: number;
  circle_id: number | null;
  /** A listing alert's item and what it matched (ADR 084). */
  item_id: number | null;
  matched: string | null;
  /** A stale listing's entry: the member's own item and its title (notifications.item_id, ADR 088). */
  own_item_id: number | null;
  own_item_title: string | null;
  /** The swap day the entry is about, if any (read after the query). */
  swap_day_id?: number | null;
}

/**
 * Send the digests that are due, and return how many went. Each member is claimed with a
 * compare-and-set on `mailed_until`, so several processes running the sweep mail them once.
 */
export async function sendMailDigests(app: App, now = new Date()): Promise<number> {
  const rows = await queryRows<DigestRow>(
    app.db,
    sql`SELECT u.id::text AS user_id, u.email, u.first_name, u.locale,
        n.id AS notification_id, n.kind, n.count, n.barter_request_id, n.circle_id, la.item_id, la.matched,
        n.item_id AS own_item_id, n.item_title AS own_item_title, a.first_name AS actor_first, a.last_name AS actor_last,
        a.display_name AS actor_name,
        (extract(epoch FROM n.hand_over_starts_at) * 1000)::float8 AS hand_over_ms, n.hand_over_place
      FROM notifications n
      JOIN users u ON u.id = n.user_id
      LEFT JOIN users a ON a.id = n.actor_id
      LEFT JOIN listing_alerts la ON la.notification_id = n.id
      WHERE n.read_at IS NULL
        AND notification_channel(n.user_id, n.kind) = 'digest'
        AND n.created_at > coalesce(u.mailed_until, '-infinity'::timestamptz)
        AND n.created_at > coalesce(u.last_seen_at, '-infinity'::timestamptz)
        AND coalesce(u.last_seen_at, '-infinity'::timestamptz) < ${now.toISOString()}::timestamptz - make_interval(mins => ${AWAY_MINUTES})
        AND coalesce(u.mailed_until, '-infinity'::timestamptz) < ${now.toISOString()}::timestamptz - make_interval(mins => ${DIGEST_EVERY_MINUTES})
        AND u.email IS NOT NULL AND u.email_verified_at IS NOT NULL AND u.banned_at IS NULL
      ORDER BY n.user_id, n.id
      LIMIT 5000`,
  );
  const days = await findSwapDaysOfNotifications(
    app.db,
    rows.map((row) => row.notification_id),
  );
  for (const row of rows) row.swap_day_id = days.get(row.notification_id)?.id ?? null;
  const byMember = new Map<string, DigestRow[]>();
  for (const row of rows) {
    const entries = byMember.get(row.user_id);
    if (entries) entries.push(row);
    else byMember.set(row.user_id, [row]);
  }
  let sent = 0;
  for (const [userId, entries] of byMember) {
    const member = entries[0];
    if (!member) continue;
    const kept = entries;
    // Claim the member: only the process whose update moves mailed_until sends.
    const claimed = await app.db
      .update(users)
      .set({ mailedUntil: now })
      .where(
        and(
          eq(users.id, userId),
          sql`coalesce(${users.mailedUntil}, '-infinity'::timestamptz) < ${now.toISOString()}::timestamptz - make_interval(mins => ${DIGEST_EVERY_MINUTES})`,
        ),
      )
      .returning({ id: users.id });
    if (claimed.length === 0 || kept.length === 0) continue;
    try {
      await app.mailer.send(digestMail(app.config, member, kept));
      sent++;
    } catch (error) {
      app.log.error({ err: error }, 'could not send a notification digest');
    }
  }
  return sent;
}

/** One line of the digest, in the member's language (ADR 060). */
function digestLine(tr: ReturnType<typeof mailTranslator>, locale: Locale, entry: DigestRow): string {
  const name = entry.actor_first
    ? (entry.actor_name ?? memberDisplayName(entry.actor_first, entry.actor_last))
    : tr(MAIL_TEXT.digestSomeone);
  if (entry.kind === 'message_received') return tr(MAIL_TEXT.digestMessages, { count: entry.count, name });
  // The report's entry has no actor and the line names nobody, as on the bell (ADR 079).
  if (entry.kind === 'no_show_reported') return tr(MAIL_TEXT.digestNoShowReported);
  if (entry.kind === 'no_show_answered') return tr(MAIL_TEXT.digestNoShowAnswered, { who: name });
  if (entry.kind === 'hand_over_reminder_day' || entry.kind === 'hand_over_reminder_hour') {
    // The server knows no member's time zone: the time is written in UTC and says so; the barter's
    // page (linked on the line) shows it in the member's own.
    const first = entry.actor_first?.trim() || tr(MAIL_TEXT.digestSomeone);
    const when =
      entry.hand_over_ms === null
        ? ''
        : `${new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(Number(entry.hand_over_ms)))} UTC`;
    const values = { name: first, when, place: entry.hand_over_place ?? '' };
    return tr(
      entry.kind === 'hand_over_reminder_day' ? MAIL_TEXT.digestReminderDay : MAIL_TEXT.digestReminderHour,
      values,
    );
  }
  if (entry.kind === 'proposal_countered') return tr(MAIL_TEXT.digestCounter, { name });
  if (entry.kind === 'proposal_received') return tr(MAIL_TEXT.digestProposal, { name });
  // Every other kind in the bell's own words, as its push says it (ADR 087, 090).
  return pushPayload(locale, pushEntryOf(entry)).body;
}

function pushEntryOf(entry: DigestRow): PushEntry {
  const pushEntry: PushEntry = {
    id: entry.notification_id,
    kind: entry.kind,
    count: entry.count,
    barterRequestId: entry.barter_request_id,
    circleId: entry.circle_id,
    swapDayId: entry.swap_day_id ?? null,
    actorName: entry.actor_first
      ? (entry.actor_name ?? memberDisplayName(entry.actor_first, entry.actor_last))
      : null,
    listing: entry.item_id === null ? null : { itemId: entry.item_id, matched: entry.matched ?? '' },
  };
  // A stale listing's own item (ADR 088), which its sentence names and its link opens.
  return entry.item_id === null && entry.own_item_id !== null
    ? Object.assign(pushEntry, { item: { id: entry.own_item_id, title: entry.own_item_title ?? '' } })
    : pushEntry;
}

/** The page a line links to: the barter for the digest's own lines (as before), else the bell's. */
function lineLink(entry: DigestRow): string | null {
  if (OWN_LINES.has(entry.kind))
    return entry.barter_request_id ? `/barters/${entry.barter_request_id}` : null;
  const link = pushLink(pushEntryOf(entry));
  return link === '/' ? null : link;
}

export function digestMail(
  config: Pick<App['config'], 'publicUrl' | 'sessionSecret'>,
  member: DigestRow,
  entries: DigestRow[],
): OutgoingMail {
  const locale = mailLocale(member.locale);
  const tr = mailTranslator(locale);
  const lines = entries.map((entry) => {
    const path = lineLink(entry);
    const link = path ? ` ${config.publicUrl}${path}` : '';
    return `- ${digestLine(tr, locale, entry)}:${link}`;
  });
  const kinds = MAIL_KINDS.filter((kind) => entries.some((entry) => groupOf(entry.kind) === kind));
  // The body links to a page with a button (link scanners follow links); the header is the RFC 8058
  // one-click POST that mail apps send.
  const query = (kind: MailKind) =>
    `u=${member.user_id}&k=${kind}&t=${unsubscribeToken(config.sessionSecret, member.user_id, kind)}`;
  const links = Object.fromEntries(
    kinds.map((kind) => [kind, `${config.publicUrl}/unsubscribe?${query(kind)}`]),
  ) as Partial<Record<MailKind, string>>;
  const first = kinds[0];
  return {
    to: member.email,
    subject: tr(MAIL_TEXT.digestSubject, { count: entries.length }),
    text: [
      mailGreeting(tr, member.first_name),
      '',
      tr(MAIL_TEXT.digestAway),
      '',
      ...lines,
      '',
      tr(MAIL_TEXT.digestOpen, { link: `${config.publicUrl}/barters` }),
      '',
      ...kinds.map((kind) => tr(STOP_LINE[kind], { link: links[kind] })),
    ].join('\n'),
    headers: first
      ? {
          'List-Unsubscribe': `<${config.publicUrl}/api/mail/unsubscribe?${query(first)}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        }
      : {},
  };
}
