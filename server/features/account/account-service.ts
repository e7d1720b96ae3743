import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Locale } from '#common/locales.ts';
import {
  ACCOUNT_MESSAGES,
  type AccountSession,
  AUTH_ERROR_CODES,
  type ChangeEmailInput,
  type ChangePasswordInput,
  normalizeEmail,
} from '#common/schemas/auth.ts';
import type { Db } from '../../db/client';
import { type UserRow, users } from '../../db/schema/users';
import { badRequest, conflict, forbidden, isUniqueViolation, notFound } from '../../errors';
import { requestLocale } from '../../lib/request-locale';
import { mailLocale } from '../../mail/mail-i18n';
import type { OutgoingMail } from '../../mail/mailer';
import { SESSION_IDLE_MS } from '../../plugins/session';
import { forgetCachedUser } from '../../plugins/session-cache';
import { deleteUserSessions, listUserSessions } from '../../plugins/session-store';
import {
  checkNewPassword,
  endSessions,
  findUserByEmail,
  hashPassword,
  updateUserRow,
  verifyPassword,
} from '../auth';
import { ACCOUNT_LINKS, emailChangedMail, passwordResetMail, verifyEmailMail } from './account-mail';
import { consumeToken, findToken, issueToken, lastIssuedAt, retireTokens } from './account-tokens';

/** At most one account e-mail of a kind per member per minute, whatever is asked. */
export const ACCOUNT_MAIL_INTERVAL_MS = 60_000;

const linkInvalid = () => badRequest(ACCOUNT_MESSAGES.linkInvalid, AUTH_ERROR_CODES.linkInvalid);
const emailTaken = () => conflict('An account with this email already exists.', AUTH_ERROR_CODES.emailTaken);

/**
 * What the account functions use of the app; `locale`: the asking request's language, for the mail
 * of a member whose own is not known yet (ADR 060).
 */
type App = Pick<FastifyInstance, 'db' | 'mailer' | 'config' | 'log' | 'eventHub'> & { locale?: Locale };

/**
 * The app as one request uses it: its log is the request's, so what is logged later on its behalf
 * (an account e-mail sent in the background) carries the request id; its language writes the mail of
 * a member whose own language is not stored.
 */
export function forRequest(
  app: App,
  request: Parameters<typeof requestLocale>[0] & { log: FastifyBaseLogger },
): App {
  return {
    db: app.db,
    mailer: app.mailer,
    config: app.config,
    eventHub: app.eventHub,
    log: request.log,
    locale: requestLocale(request),
  };
}

/**
 * Send an account e-mail without making the request wait for the mail server (so the time an answer
 * takes says nothing about whether an account exists); a failure is logged.
 */
function sendLater(app: App, mail: OutgoingMail, what: string): void {
  app.mailer
    .send(mail, app.log)
    .catch((error: unknown) => app.log.error({ err: error, what }, 'could not send account mail'));
}

async function updateUser(
  db: Db,
  userId: string,
  values: Partial<typeof users.$inferInsert>,
): Promise<UserRow> {
  const row = await updateUserRow(db, userId, values);
  if (!row) throw notFound('Account not found.');
  return row;
}

/** A member with a password must give it (400 CURRENT_PASSWORD_WRONG otherwise). */
async function checkCurrentPassword(member: UserRow, password: string | undefined): Promise<void> {
  if (member.passwordHash === null) return;
  if (!(await verifyPassword(member.passwordHash, password ?? ''))) {
    throw badRequest(ACCOUNT_MESSAGES.currentPasswordWrong, AUTH_ERROR_CODES.currentPasswordWrong);
  }
}

function refuseDemo(member: UserRow): void {
  if (member.isDemo) {
    throw forbidden('Demo accounts have no email address or password.', AUTH_ERROR_CODES.demoAccount);
  }
}

/** Is the member's last token of this kind recent enough that another would be a flood? */
async function sentRecently(
  db: Db,
  userId: string,
  kind: 'password-reset' | 'verify-email',
): Promise<boolean> {
  const last = await lastIssuedAt(db, userId, kind);
  return last !== null && Date.now() - last.getTime() < ACCOUNT_MAIL_INTERVAL_MS;
}

/**
 * Mail a password-reset link when an account uses this address (demo accounts have none). The
 * answer is the same either way, and comes before the mail is sent.
 */
export async function requestPasswordReset(app: App, rawEmail: string): Promise<void> {
  const member = await findUserByEmail(app.db, normalizeEmail(rawEmail));
  if (!member?.email || member.isDemo || member.bannedAt) return;
  if (await sentRecently(app.db, member.id, 'password-reset')) return;
  const token = await issueToken(app.db, member.id, 'password-reset', member.email);
  const link = ACCOUNT_LINKS.resetPassword(app.config.publicUrl, token);
  sendLater(
    app,
    passwordResetMail(member.email, member.firstName, link, mailLocale(member.locale, app.locale)),
    'password reset',
  );
}

/**
 * Set a new password from a reset link: the link is used up (and every other reset link of the
 * member), every session of the member ends, and the address counts as verified (the member read
 * mail there). The caller signs this browser in.
 */
export async function resetPassword(app: App, token: string, password: string): Promise<UserRow> {
  // The link is looked at first (the password is judged against its member's name and address),
  // and used up only once the password is accepted, so a refused password leaves it working.
  const link = await findToken(app.db, token, 'password-reset');
  if (!link) throw linkInvalid();
  const [member] = await app.db.select().from(users).where(eq(users.id, link.userId));
  // The address changed since the link was sent: the link belonged to the old one.
  if (!member || member.email !== link.email) throw linkInvalid();
  await checkNewPassword(password, member);
  // Two requests racing with the same link: only one uses it.
  const used = await consumeToken(app.db, token, 'password-reset');
  if (!used || used.userId !== member.id) throw linkInvalid();
  const passwordHash = await hashPassword(password);
  const updated = await updateUser(app.db, member.id, {
    passwordHash,
    emailVerifiedAt: member.emailVerifiedAt ?? new Date(),
  });
  await retireTokens(app.db, member.id, 'password-reset');
  await endSessions(app, member.id);
  return updated;
}

/**
 * Mail a link that confirms `email` for the member (their own, or the one they change to). Always
 * asked for by the signed-in member themselves (registering, Resend, a change of address): in the
 * language of the page they asked from, which is theirs now even before their stored one follows.
 */
async function sendVerification(app: App, member: UserRow, email: string): Promise<void> {
  const token = await issueToken(app.db, member.id, 'verify-email', email);
  const link = ACCOUNT_LINKS.verifyEmail(app.config.publicUrl, token);
  sendLater(
    app,
    verifyEmailMail(
      email,
      member.firstName,
      link,
      email !== member.email,
      app.locale ?? mailLocale(member.locale),
    ),
    'email verification',
  );
}

/**
 * After registering: keep the language they registered in (ADR 060) and ask them to confirm their
 * address in it (they use the site meanwhile).
 */
export async function welcomeNewMember(app: App, member: UserRow): Promise<void> {
  let welcomed = member;
  if (member.locale === null && app.locale)
    welcomed = await updateUser(app.db, member.id, { locale: app.locale });
  if (welcomed.email && welcomed.emailVerifiedAt === null)
    await sendVerification(app, welcomed, welcomed.email);
}

/** Send the verification link again (at most once a minute); nothing to do once verified. */
export async function resendVerification(app: App, member: UserRow): Promise<void> {
  refuseDemo(member);
  if (!member.email || member.emailVerifiedAt !== null) return;
  if (await sentRecently(app.db, member.id, 'verify-email')) return;
  await sendVerification(app, member, member.email);
}

/**
 * Follow a verification link: confirms the member's address, or, for a change of address, makes the
 * new one theirs (409 EMAIL_TAKEN when another account took it meanwhile) and tells the old one.
 */
export async function verifyEmail(app: App, token: string): Promise<{ email: string }> {
  const used = await consumeToken(app.db, token, 'verify-email');
  if (!used) throw linkInvalid();
  const [member] = await app.db.select().from(users).where(eq(users.id, used.userId));
  if (!member) throw linkInvalid();
  // One confirmed address ends every other pending link: an old link can never switch it back.
  await retireTokens(app.db, member.id, 'verify-email');
  if (member.email === used.email) {
    if (member.emailVerifiedAt === null) await updateUser(app.db, member.id, { emailVerifiedAt: new Date() });
    return { email: used.email };
  }
  try {
    await updateUser(app.db, member.id, { email: used.email, emailVerifiedAt: new Date() });
  } catch (error) {
    if (isUniqueViolation(error, 'users_email_unique')) throw emailTaken();
    throw error;
  }
  // Reset links sent to the old address die with it.
  await retireTokens(app.db, member.id, 'password-reset');
  if (member.email) {
    sendLater(
      app,
      emailChangedMail(
        member.email,
        member.firstName,
        app.config.supportEmail,
        mailLocale(member.locale, app.locale),
      ),
      'email changed',
    );
  }
  return { email: used.email };
}

/** Change the password (the current one first, when there is one); the member's other sessions end. */
export async function changePassword(
  app: App,
  member: UserRow,
  input: ChangePasswordInput,
  currentSid: string | null,
): Promise<void> {
  refuseDemo(member);
  await checkCurrentPassword(member, input.currentPassword);
  await checkNewPassword(input.newPassword, member);
  await updateUser(app.db, member.id, { passwordHash: await hashPassword(input.newPassword) });
  await retireTokens(app.db, member.id, 'password-reset');
  await endSessions(app, member.id, currentSid);
}

/** Ask to change the address: a link goes to the new one, and the change happens when it is followed. */
export async function changeEmail(app: App, member: UserRow, input: ChangeEmailInput): Promise<void> {
  refuseDemo(member);
  await checkCurrentPassword(member, input.password);
  const email = normalizeEmail(input.email);
  if (email === member.email) {
    throw badRequest('That is already your email address.', AUTH_ERROR_CODES.emailUnchanged);
  }
  if (await findUserByEmail(app.db, email)) throw emailTaken();
  if (await sentRecently(app.db, member.id, 'verify-email')) {
    throw badRequest('We sent a link a moment ago. Please wait a minute before asking again.');
  }
  await sendVerification(app, member, email);
}

/** Where the member is signed in, newest first; `current` marks this browser's session. */
export async function listSessions(
  app: App,
  member: UserRow,
  currentSid: string | null,
): Promise<AccountSession[]> {
  const rows = await listUserSessions(app.db, member.id, new Date());
  return rows.map((row) => ({
    id: row.sid,
    device: row.sess.device ?? 'A browser on another system',
    signedInAt: new Date(row.sess.createdAt).toISOString(),
    // The idle expiry moves on at most once a day: the last activity is known to the day.
    lastActiveAt: new Date(Math.min(Date.now(), row.expire.getTime() - SESSION_IDLE_MS)).toISOString(),
    current: row.sid === currentSid,
  }));
}

/** Sign out one of the member's sessions (404 when it is not theirs or already over). */
export async function endOneSession(app: App, member: UserRow, sid: string): Promise<void> {
  const ended = await deleteUserSessions(app.db, member.id, { onlySid: sid });
  if (ended.length === 0) throw notFound('That session has already ended.');
  forgetCachedUser(member.id);
  app.eventHub.endSession(member.id, sid);
}
