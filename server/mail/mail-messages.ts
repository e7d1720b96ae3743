/**
 * Every sentence of the e-mail Barterhood sends, in English as the source (ADR 060). Each is a Lingui
 * message descriptor marked `/*i18n*\/` whose id is its English text, so `npm run i18n:extract` puts
 * it in web/locales/*.po beside the web app's messages (explicit ids, like the known messages of
 * ADR 036): the Spanish is translated there, `vite build` refuses a catalogue that lacks it, and
 * web/i18n/catalogues.test.ts checks its placeholders. server/mail/mail-i18n.ts renders them.
 *
 * Placeholders are ICU ({name}, plurals); links stay on lines of their own, outside the messages.
 */
export interface MailMessage {
  id: string;
  message: string;
}

export const MAIL_TEXT = {
  greeting: /*i18n*/ { id: 'Hi {name},', message: 'Hi {name},' },
  greetingNeighbor: /*i18n*/ { id: 'Hi neighbor,', message: 'Hi neighbor,' },
  signOff: /*i18n*/ { id: 'Happy trading,', message: 'Happy trading,' },

  resetSubject: /*i18n*/ { id: 'Set a new Barterhood password', message: 'Set a new Barterhood password' },
  resetAsked: /*i18n*/ {
    id: 'Someone (we hope you) asked to set a new password for your Barterhood account.',
    message: 'Someone (we hope you) asked to set a new password for your Barterhood account.',
  },
  resetFollow: /*i18n*/ {
    id: 'Follow this link within 30 minutes to choose one. It works once:',
    message: 'Follow this link within 30 minutes to choose one. It works once:',
  },
  resetSignsOut: /*i18n*/ {
    id: 'Setting a new password signs you out on every other device.',
    message: 'Setting a new password signs you out on every other device.',
  },
  resetIgnore: /*i18n*/ {
    id: "If you didn't ask, ignore this email: your password stays as it is.",
    message: "If you didn't ask, ignore this email: your password stays as it is.",
  },

  verifySubject: /*i18n*/ {
    id: 'Confirm your Barterhood email address',
    message: 'Confirm your Barterhood email address',
  },
  verifyChangeSubject: /*i18n*/ {
    id: 'Confirm your new Barterhood email address',
    message: 'Confirm your new Barterhood email address',
  },
  verifyWelcome: /*i18n*/ {
    id: 'Welcome to Barterhood! Follow this link to confirm your email address:',
    message: 'Welcome to Barterhood! Follow this link to confirm your email address:',
  },
  verifyChangeFollow: /*i18n*/ {
    id: 'Follow this link to make this your Barterhood email address:',
    message: 'Follow this link to make this your Barterhood email address:',
  },
  verifyIgnore: /*i18n*/ {
    id: "If you didn't create a Barterhood account, ignore this email.",
    message: "If you didn't create a Barterhood account, ignore this email.",
  },
  verifyChangeIgnore: /*i18n*/ {
    id: "Until you do, your account keeps its current address. If you didn't ask, ignore this email.",
    message: "Until you do, your account keeps its current address. If you didn't ask, ignore this email.",
  },

  changedSubject: /*i18n*/ {
    id: 'Your Barterhood email address was changed',
    message: 'Your Barterhood email address was changed',
  },
  changedBody: /*i18n*/ {
    id: 'The email address of your Barterhood account was just changed, and this address no longer signs in.',
    message:
      'The email address of your Barterhood account was just changed, and this address no longer signs in.',
  },
  changedNotYou: /*i18n*/ {
    id: "If you didn't do this, write to {supportEmail} straight away.",
    message: "If you didn't do this, write to {supportEmail} straight away.",
  },

  digestSubject: /*i18n*/ {
    id: '{count, plural, one {Something new on Barterhood} other {# new things on Barterhood}}',
    message: '{count, plural, one {Something new on Barterhood} other {# new things on Barterhood}}',
  },
  digestAway: /*i18n*/ { id: 'While you were away:', message: 'While you were away:' },
  digestOpen: /*i18n*/ { id: 'Open Barterhood: {link}', message: 'Open Barterhood: {link}' },
  digestStopProposals: /*i18n*/ {
    id: 'Stop emails about new proposals, hand-over reminders and no-show reports: {link}',
    message: 'Stop emails about new proposals, hand-over reminders and no-show reports: {link}',
  },
  digestStopMessages: /*i18n*/ {
    id: 'Stop emails about new messages: {link}',
    message: 'Stop emails about new messages: {link}',
  },
  // The groups of ADR 090 that reach the digest only when a member chooses it.
  digestStopBarters: /*i18n*/ {
    id: 'Stop emails about your barters, hand-over plans and ratings: {link}',
    message: 'Stop emails about your barters, hand-over plans and ratings: {link}',
  },
  digestStopCircles: /*i18n*/ {
    id: 'Stop emails about trade circles and swap days: {link}',
    message: 'Stop emails about trade circles and swap days: {link}',
  },
  digestStopListingAlerts: /*i18n*/ {
    id: 'Stop emails about new listings matching your saved searches and wants: {link}',
    message: 'Stop emails about new listings matching your saved searches and wants: {link}',
  },
  digestStopListings: /*i18n*/ {
    id: 'Stop emails asking whether your listings are still available: {link}',
    message: 'Stop emails asking whether your listings are still available: {link}',
  },
  digestStopModeration: /*i18n*/ {
    id: "Stop emails about moderators' warnings: {link}",
    message: "Stop emails about moderators' warnings: {link}",
  },
  digestSomeone: /*i18n*/ { id: 'Someone', message: 'Someone' },
  digestProposal: /*i18n*/ { id: '{name} proposed a barter', message: '{name} proposed a barter' },
  digestCounter: /*i18n*/ { id: '{name} countered your proposal', message: '{name} countered your proposal' },
  digestReminderDay: /*i18n*/ {
    id: 'Reminder: your hand-over with {name} is in 24 hours: {when}, at {place}',
    message: 'Reminder: your hand-over with {name} is in 24 hours: {when}, at {place}',
  },
  digestReminderHour: /*i18n*/ {
    id: 'Reminder: your hand-over with {name} is in 1 hour: {when}, at {place}',
    message: 'Reminder: your hand-over with {name} is in 1 hour: {when}, at {place}',
  },
  // Keeping your word (ADR 079): the bell's own sentences (common/notification-text.ts), so the
  // catalogue's Spanish for the bell serves the mail too.
  digestNoShowReported: /*i18n*/ {
    id: 'Your trading partner reported that you did not come to your hand-over: answer within 48 hours',
    message: 'Your trading partner reported that you did not come to your hand-over: answer within 48 hours',
  },
  digestNoShowAnswered: /*i18n*/ {
    id: '{who} answered your report about your hand-over',
    message: '{who} answered your report about your hand-over',
  },
  digestMessages: /*i18n*/ {
    id: '{count, plural, one {New message from {name}} other {# new messages from {name}}}',
    message: '{count, plural, one {New message from {name}} other {# new messages from {name}}}',
  },
} as const satisfies Record<string, MailMessage>;
