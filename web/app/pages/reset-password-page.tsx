import { ResetPasswordForm } from '../../features/account/components/reset-password-form';
import { AuthLayout } from '../../features/auth/components/auth-layout';

/** /reset-password?token= (ADR 024). */
export default function ResetPasswordPage() {
  return (
    <AuthLayout title="Set a new password" subtitle="Choose a password you don't use anywhere else">
      <ResetPasswordForm />
    </AuthLayout>
  );
}
