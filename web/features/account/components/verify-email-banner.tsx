import { useUser } from '../../auth/api/get-user';
import { useResendVerification } from '../api/account-api';

/** Above every member screen until the member confirms their address (ADR 024); the site works meanwhile. */
export function VerifyEmailBanner() {
  const { user } = useUser();
  const resend = useResendVerification();
  if (!user?.email || user.emailVerified || user.isDemo) return null;
  return (
    <section
      aria-label="Confirm your email"
      className="border-b border-amber-200 bg-amber-50 px-4 py-2 text-center text-sm text-amber-950"
    >
      Please confirm your email address: we sent a link to <strong className="break-all">{user.email}</strong>
      .{' '}
      <button
        type="button"
        className="font-medium underline"
        disabled={resend.isPending}
        onClick={() => resend.mutate()}
      >
        Send it again
      </button>
    </section>
  );
}
