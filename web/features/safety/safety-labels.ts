import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ModerationCase, ModeratorAction } from '#common/schemas/safety.ts';

/**
 * The web's own words for the safety codes (ADR 036): common/schemas/safety.ts keeps the English for
 * the server; these are rendered with `t(descriptor)` or `i18n._(descriptor)` at render time.
 */

/** What a moderator can do with a report, as the action menu says it. */
export const ACTION_LABELS: Record<ModeratorAction, MessageDescriptor> = {
  dismiss: msg`Dismiss`,
  remove: msg`Remove the content`,
  warn: msg`Warn the member`,
  suspend: msg`Suspend the member`,
  ban: msg`Ban the member`,
  lift: msg`Lift their suspension or ban`,
};

/** What a reported thing is. */
export const KIND_LABELS: Record<ModerationCase['targetKind'], MessageDescriptor> = {
  item: msg`Listing`,
  member: msg`Member`,
  message: msg`Message`,
  rating: msg`Rating`,
  appeal: msg`Appeal`,
};

/** The audit log's action codes, in words (English keeps the code itself). */
export const AUDIT_ACTION_WORDS: Record<string, MessageDescriptor> = {
  dismiss: msg({ message: 'dismiss', context: 'audit log action' }),
  remove: msg({ message: 'remove', context: 'audit log action' }),
  warn: msg({ message: 'warn', context: 'audit log action' }),
  suspend: msg({ message: 'suspend', context: 'audit log action' }),
  ban: msg({ message: 'ban', context: 'audit log action' }),
  lift: msg({ message: 'lift', context: 'audit log action' }),
  grant: msg({ message: 'grant', context: 'audit log action' }),
  revoke: msg({ message: 'revoke', context: 'audit log action' }),
  no_show_kept: msg({ message: 'no-show: kept', context: 'audit log action' }),
  no_show_missed: msg({ message: 'no-show: missed', context: 'audit log action' }),
  no_show_dismissed: msg({ message: 'no-show: dismissed', context: 'audit log action' }),
};

/** The audit log's target codes, in words (English keeps the code itself). */
export const AUDIT_TARGET_WORDS: Record<string, MessageDescriptor> = {
  item: msg({ message: 'item', context: 'audit log target' }),
  member: msg({ message: 'member', context: 'audit log target' }),
  message: msg({ message: 'message', context: 'audit log target' }),
  rating: msg({ message: 'rating', context: 'audit log target' }),
  appeal: msg({ message: 'appeal', context: 'audit log target' }),
  no_show: msg({ message: 'no-show report', context: 'audit log target' }),
};

/** What kind of text an automatic refusal was about (English keeps the code itself). */
export const REFUSAL_KIND_WORDS: Record<string, MessageDescriptor> = {
  item: msg({ message: 'item', context: 'refusal kind' }),
  want: msg({ message: 'want', context: 'refusal kind' }),
  proposal: msg({ message: 'proposal', context: 'refusal kind' }),
  message: msg({ message: 'message', context: 'refusal kind' }),
  rating: msg({ message: 'rating', context: 'refusal kind' }),
  cancellation: msg({ message: 'cancellation', context: 'refusal kind' }),
  profile: msg({ message: 'profile', context: 'refusal kind' }),
  'profile-photo': msg({ message: 'profile-photo', context: 'refusal kind' }),
  'swap-day': msg({ message: 'swap-day', context: 'refusal kind' }),
};

/** Why the automatic moderation refused a text (English keeps the code itself). */
export const REFUSAL_REASON_WORDS: Record<string, MessageDescriptor> = {
  dating: msg({ message: 'dating', context: 'refusal reason' }),
  explicit: msg({ message: 'explicit', context: 'refusal reason' }),
  'drugs-alcohol': msg({ message: 'drugs-alcohol', context: 'refusal reason' }),
  'contact-details': msg({ message: 'contact-details', context: 'refusal reason' }),
  profanity: msg({ message: 'profanity', context: 'refusal reason' }),
};

/** A code in words when it has some, else the code as the server sent it. */
export function codeWords(
  words: Record<string, MessageDescriptor>,
  code: string,
  t: (descriptor: MessageDescriptor) => string,
): string {
  const descriptor = Object.hasOwn(words, code) ? words[code] : undefined;
  return descriptor ? t(descriptor) : code;
}
