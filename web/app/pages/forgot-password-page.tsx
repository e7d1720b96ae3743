import { useLingui } from '@lingui/react/macro';
import { ForgotPasswordForm } from '../../features/account/components/forgot-password-form';
import { AuthLayout } from '../../features/auth/components/auth-layout';

/** /forgot-password (ADR 024). */
export default function ForgotPasswordPage() {
  const { t } = useLingui();
  return (
    <AuthLayout title={t`Forgot your password?`} subtitle={t`We'll email you a link to set a new one`}>
      <ForgotPasswordForm />
    </AuthLayout>
  );
}
