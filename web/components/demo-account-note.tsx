import { msg, t } from '@lingui/core/macro';
import { cn } from '../lib/utils';

/** What a demo account is (ADR 016): the visitor's own, with no password, so it lasts until sign-out. */
export const DEMO_ACCOUNT_NOTE =
  'You get a demo account of your own. It has no password: this browser keeps it until you sign out.';

/** DEMO_ACCOUNT_NOTE for the active language: show it with `t(DEMO_ACCOUNT_NOTE_MESSAGE)` (useLingui). */
export const DEMO_ACCOUNT_NOTE_MESSAGE = msg`You get a demo account of your own. It has no password: this browser keeps it until you sign out.`;

/**
 * Marks the signed-in member's account as a demo account (`isDemo` of the current user), e.g. in the
 * account menu where a real account shows its e-mail.
 */
export function DemoAccountNote({ className }: { className?: string }) {
  return (
    <p className={cn('text-xs text-amber-800', className)}>
      {t`Demo account: kept in this browser until you sign out`}
    </p>
  );
}
