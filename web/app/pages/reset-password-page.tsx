import { useLingui } from '@lingui/react/macro';
import { ResetPasswordForm } from '../../features/account/components/reset-password-form';
import { AuthLayout } from '../../features/auth/components/auth-layout';

/** /reset-password?token= (ADR 024). */
export default function ResetPasswordPage() {
  const { t } = useLingui();
  return (
    <AuthLayout title={t`Set a new password`} subtitle={t`Choose a password you don't use anywhere else`}>
      <ResetPasswordForm />
    </AuthLayout>
  );
}
