import { t } from '@lingui/core/macro';
import type { ErrorOption } from 'react-hook-form';
import { toast } from '#web/components/ui/use-toast.ts';
import {
  contactDetailsField,
  contactDetailsInListing,
  isContentNotAllowed,
} from '#web/lib/content-errors.ts';

/**
 * Spec section 8: 'Content Not Allowed' when the server says not appropriate, contact details under
 * the field that has them (Terms section 4), otherwise `failed`.
 */
export function showListingError(
  error: unknown,
  form: {
    setError: (name: 'title' | 'description', error: ErrorOption, options: { shouldFocus: boolean }) => void;
  },
  texts: { notAllowed: string; failed: string },
) {
  const contactIn = contactDetailsField(error);
  if (contactIn !== null) {
    // A phone number or an e-mail address: said under the field that has it (Terms section 4).
    const name = contactIn === 'title' ? 'title' : 'description';
    form.setError(name, { type: 'server', message: contactDetailsInListing() }, { shouldFocus: true });
  } else if (isContentNotAllowed(error)) {
    toast({ title: t`Content Not Allowed`, description: texts.notAllowed, variant: 'destructive' });
  } else {
    toast({ title: t`Error`, description: texts.failed, variant: 'destructive' });
  }
}
