import { useLingui } from '@lingui/react/macro';
import { AuthLayout } from '../../features/auth/components/auth-layout';
import { RegisterForm } from '../../features/auth/components/register-form';

/** /register (spec section 2). */
export default function RegisterPage() {
  const { t } = useLingui();
  return (
    <AuthLayout
      title={t`Join Barterhood`}
      subtitle={t`Create your account to start bartering with neighbors`}
    >
      <RegisterForm />
    </AuthLayout>
  );
}
