import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { withMessages } from '#web/i18n/i18n.ts';
import { useUser } from '#web/lib/get-user.ts';

/** Send the link again; its code loads on the click (the feed's first screen does not carry it). */
const resendVerification = () =>
  withMessages(() => import('../api/account-api')).then((module) => module.resendVerification());

/** Above every member screen until the member confirms their address (ADR 024); the site works meanwhile. */
export function VerifyEmailBanner() {
  const { t } = useLingui();
  const { user } = useUser();
  const [sending, setSending] = useState(false);
  if (!user?.email || user.emailVerified || user.isDemo) return null;
  const email = user.email;
  return (
    <section
      aria-label={t`Confirm your email`}
      className="border-b border-amber-200 bg-amber-50 px-4 py-2 text-center text-sm text-amber-950"
    >
      <Trans>
        Please confirm your email address: we sent a link to <strong className="break-all">{email}</strong>.
      </Trans>{' '}
      <button
        type="button"
        className="font-medium underline"
        disabled={sending}
        onClick={() => {
          setSending(true);
          // A chunk that cannot load says so itself (ADR 052); the button comes back either way.
          void resendVerification()
            .catch(() => {})
            .finally(() => setSending(false));
        }}
      >
        <Trans>Send it again</Trans>
      </button>
    </section>
  );
}
