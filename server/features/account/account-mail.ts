import type { OutgoingMail } from '../../mail/mailer';

/** The web pages account e-mails link to (web/app/paths.ts has the same paths). */
export const ACCOUNT_LINKS = {
  resetPassword: (publicUrl: string, token: string) => `${publicUrl}/reset-password?token=${token}`,
  verifyEmail: (publicUrl: string, token: string) => `${publicUrl}/verify-email?token=${token}`,
} as const;

const greeting = (firstName: string | null) => `Hi ${firstName?.trim() || 'neighbor'},`;
const signature = ['', 'Happy trading,', 'Barterhood'];

/** The password-reset link (30 minutes, single use). */
export function passwordResetMail(to: string, firstName: string | null, link: string): OutgoingMail {
  return {
    to,
    subject: 'Set a new Barterhood password',
    text: [
      greeting(firstName),
      '',
      'Someone (we hope you) asked to set a new password for your Barterhood account.',
      'Follow this link within 30 minutes to choose one. It works once:',
      '',
      link,
      '',
      'Setting a new password signs you out on every other device.',
      "If you didn't ask, ignore this email: your password stays as it is.",
      ...signature,
    ].join('\n'),
  };
}

/** Confirm an address: the member's own after registering, or the new one they asked to change to. */
export function verifyEmailMail(
  to: string,
  firstName: string | null,
  link: string,
  change: boolean,
): OutgoingMail {
  return {
    to,
    subject: change ? 'Confirm your new Barterhood email address' : 'Confirm your Barterhood email address',
    text: [
      greeting(firstName),
      '',
      change
        ? 'Follow this link to make this your Barterhood email address:'
        : 'Welcome to Barterhood! Follow this link to confirm your email address:',
      '',
      link,
      '',
      change
        ? "Until you do, your account keeps its current address. If you didn't ask, ignore this email."
        : "If you didn't create a Barterhood account, ignore this email.",
      ...signature,
    ].join('\n'),
  };
}

/** Sent to the old address once the change is confirmed. */
export function emailChangedMail(to: string, firstName: string | null, supportEmail: string): OutgoingMail {
  return {
    to,
    subject: 'Your Barterhood email address was changed',
    text: [
      greeting(firstName),
      '',
      'The email address of your Barterhood account was just changed, and this address no longer signs in.',
      `If you didn't do this, write to ${supportEmail} straight away.`,
      ...signature,
    ].join('\n'),
  };
}
