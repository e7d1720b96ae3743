import type { MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { toast } from '../components/ui/use-toast';
import { i18n } from '../i18n/i18n';
import { ApiError, serverMessageOf } from './api-client';

/** Spec section 8: the server refused the wording when its message contains "not appropriate". */
export function isContentNotAllowed(error: unknown): boolean {
  // error.message keeps the server's English body; serverMessage may be in the member's language.
  return (
    error instanceof ApiError && /not appropriate/i.test(`${error.serverMessage ?? ''} ${error.message}`)
  );
}

/**
 * The field of a listing whose phone number, e-mail address or social handle moderation refused
 * (Terms section 4: contact details are for arranging a trade, in the barter's conversation), or
 * null when the refusal was for something else or is not one.
 */
export function contactDetailsField(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.details.reason !== 'contact-details') return null;
  return error.details.field ?? '';
}

/** What a listing form says under the field that had contact details. */
export function contactDetailsInListing(): string {
  return t`Please keep phone numbers and e-mail addresses out of listings; share contact details in the barter's conversation.`;
}

/** The fields callers name in English, in the active language ("your {field}"). */
const FIELD_NAMES: Record<string, MessageDescriptor> = {
  message: msg({ message: 'message', context: 'a field the member wrote in' }),
  comment: msg({ message: 'comment', context: 'a field the member wrote in' }),
  reason: msg({ message: 'reason', context: 'a field the member wrote in' }),
  'swap day': msg({
    message: 'swap day',
    context: 'a field the member wrote in',
  }),
};

/**
 * The toast for a failed write of something the member typed: "Content Not Allowed" asking for
 * appropriate language in `field` when moderation refused it (or, for contact details, to share them
 * in the barter's conversation instead), else the server's sentence (or
 * `fallback`). `fieldName` is one of FIELD_NAMES' English words (translated here) or a word already in the
 * active language.
 */
export function toastWriteError(error: unknown, fieldName: string, fallback: string): void {
  const known = Object.hasOwn(FIELD_NAMES, fieldName) ? FIELD_NAMES[fieldName] : undefined;
  const field = known ? i18n._(known) : fieldName;
  toast(
    contactDetailsField(error) !== null
      ? {
          title: t`Content Not Allowed`,
          description: t`Please keep phone numbers and e-mail addresses out of your ${field}; share contact details in the barter's conversation.`,
          variant: 'destructive',
        }
      : isContentNotAllowed(error)
        ? {
            title: t`Content Not Allowed`,
            description: t`Please use appropriate language in your ${field}.`,
            variant: 'destructive',
          }
        : { title: t`Error`, description: serverMessageOf(error, fallback), variant: 'destructive' },
  );
}
