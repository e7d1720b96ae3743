import type { Locale } from '#common/locales.ts';
import { type MailTranslate, mailGreeting, mailTranslator } from '../../mail/mail-i18n';
import { MAIL_TEXT } from '../../mail/mail-messages';
import type { OutgoingMail } from '../../mail/mailer';

/** The web pages account e-mails link to (web/app/paths.ts has the same paths). */
export const ACCOUNT_LINKS = {
  resetPassword: (publicUrl: string, token: string) => `${publicUrl}/reset-password?token=${token}`,
  verifyEmail: (publicUrl: string, token: string) => `${publicUrl}/verify-email?token=${token}`,
} as const;

const signature = (tr: MailTranslate) => ['', tr(MAIL_TEXT.signOff), 'Barterhood'];

/** The password-reset link (30 minutes, single use), in `locale` (ADR 060). */
export function passwordResetMail(
  to: string,
  firstName: string | null,
  link: string,
  locale: Locale = 'en',
): OutgoingMail {
  const tr = mailTranslator(locale);
  return {
    to,
    subject: tr(MAIL_TEXT.resetSubject),
    text: [
      mailGreeting(tr, firstName),
      '',
      tr(MAIL_TEXT.resetAsked),
      tr(MAIL_TEXT.resetFollow),
      '',
      link,
      '',
      tr(MAIL_TEXT.resetSignsOut),
      tr(MAIL_TEXT.resetIgnore),
      ...signature(tr),
    ].join('\n'),
  };
}

/** Confirm an address: the member's own after registering, or the new one they asked to change to. */
export function verifyEmailMail(
  to: string,
  firstName: string | null,
  link: string,
  change: boolean,
  locale: Locale = 'en',
): OutgoingMail {
  const tr = mailTranslator(locale);
  return {
    to,
    subject: tr(change ? MAIL_TEXT.verifyChangeSubject : MAIL_TEXT.verifySubject),
    text: [
      mailGreeting(tr, firstName),
      '',
      tr(change ? MAIL_TEXT.verifyChangeFollow : MAIL_TEXT.verifyWelcome),
      '',
      link,
      '',
      tr(change ? MAIL_TEXT.verifyChangeIgnore : MAIL_TEXT.verifyIgnore),
      ...signature(tr),
    ].join('\n'),
  };
}

/** Sent to the old address once the change is confirmed. */
export function emailChangedMail(
  to: string,
  firstName: string | null,
  supportEmail: string,
  locale: Locale = 'en',
): OutgoingMail {
  const tr = mailTranslator(locale);
  return {
    to,
    subject: tr(MAIL_TEXT.changedSubject),
    text: [
      mailGreeting(tr, firstName),
      '',
      tr(MAIL_TEXT.changedBody),
      tr(MAIL_TEXT.changedNotYou, { supportEmail }),
      ...signature(tr),
    ].join('\n'),
  };
}
