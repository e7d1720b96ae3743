import { Trans, useLingui } from '@lingui/react/macro';
import { useUser } from '#web/lib/get-user.ts';
import { useResendVerification } from '../api/account-api';

/** Above every member screen until the member confirms their address (ADR 024); the site works meanwhile. */
export function VerifyEmailBanner() {
  const { t } = useLingui();
  const { user } = useUser();
  const resend = useResendVerification();
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
        disabled={resend.isPending}
        onClick={() => resend.mutate()}
      >
        <Trans>Send it again</Trans>
      </button>
    </section>
  );
}
