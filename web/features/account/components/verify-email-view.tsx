import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef } from 'react';
import { Link, useSearch } from 'wouter';
import { Button } from '#web/components/ui/button.tsx';
import { serverMessageOf } from '#web/lib/api-client.ts';
import { useUser } from '#web/lib/get-user.ts';
import { paths } from '#web/lib/paths.ts';
import { useVerifyEmail } from '../api/account-api';

/** /verify-email?token=: confirms the address as soon as the page opens (signed in or not). */
export function VerifyEmailView() {
  const { t } = useLingui();
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const verify = useVerifyEmail();
  const { isAuthenticated } = useUser();
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current || !token) return;
    asked.current = true;
    verify.mutate(token);
  }, [token, verify]);

  const next = (
    <Button asChild>
      <Link href={isAuthenticated ? paths.home : paths.login}>
        {isAuthenticated ? t`Go to Barterhood` : t`Sign In`}
      </Link>
    </Button>
  );
  if (verify.isSuccess) {
    const email = verify.data;
    return (
      <div className="grid gap-4 text-center" role="status">
        <p className="text-slate-700">
          <Trans>
            Thanks! <strong>{email}</strong> is confirmed as your email address.
          </Trans>
        </p>
        {next}
      </div>
    );
  }
  if (verify.isError || !token) {
    return (
      <div className="grid gap-4 text-center" role="alert">
        <p className="text-slate-700">
          {serverMessageOf(
            verify.error,
            t`This link has expired or was already used. Please ask for a new one.`,
          )}
        </p>
        {next}
      </div>
    );
  }
  return (
    <p className="text-center text-slate-600" role="status">
      <Trans>Confirming your email address...</Trans>
    </p>
  );
}
