import { useLingui } from '@lingui/react/macro';
import { AuthLayout } from '../../features/auth/components/auth-layout';
import { LoginForm } from '../../features/auth/components/login-form';

/** /login (spec section 2). */
export default function LoginPage() {
  const { t } = useLingui();
  return (
    <AuthLayout title={t`Welcome Back`} subtitle={t`Sign in to your account`}>
      <LoginForm />
    </AuthLayout>
  );
}
