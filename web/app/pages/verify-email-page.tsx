import { useLingui } from '@lingui/react/macro';
import { VerifyEmailView } from '../../features/account/components/verify-email-view';
import { AuthLayout } from '../../features/auth/components/auth-layout';

/** /verify-email?token= (ADR 024). */
export default function VerifyEmailPage() {
  const { t } = useLingui();
  return (
    <AuthLayout title={t`Confirm your email`} subtitle={t`One click keeps your account yours`}>
      <VerifyEmailView />
    </AuthLayout>
  );
}
