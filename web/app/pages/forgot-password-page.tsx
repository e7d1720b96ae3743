import { ForgotPasswordForm } from '../../features/account/components/forgot-password-form';
import { AuthLayout } from '../../features/auth/components/auth-layout';

/** /forgot-password (ADR 024). */
export default function ForgotPasswordPage() {
  return (
    <AuthLayout title="Forgot your password?" subtitle="We'll email you a link to set a new one">
      <ForgotPasswordForm />
    </AuthLayout>
  );
}
