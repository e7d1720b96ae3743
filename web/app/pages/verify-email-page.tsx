import { VerifyEmailView } from '../../features/account/components/verify-email-view';
import { AuthLayout } from '../../features/auth/components/auth-layout';

/** /verify-email?token= (ADR 024). */
export default function VerifyEmailPage() {
  return (
    <AuthLayout title="Confirm your email" subtitle="One click keeps your account yours">
      <VerifyEmailView />
    </AuthLayout>
  );
}
