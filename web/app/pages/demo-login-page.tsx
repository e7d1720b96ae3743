import { useLingui } from '@lingui/react/macro';
import { AuthLayout } from '../../features/auth/components/auth-layout';
import { DemoLoginForm } from '../../features/auth/components/demo-login-form';

/** /demo-login (spec section 2). */
export default function DemoLoginPage() {
  const { t } = useLingui();
  return (
    <AuthLayout
      title={t`Try Barterhood`}
      subtitle={t`Enter your name to start exploring the bartering platform`}
    >
      <DemoLoginForm />
    </AuthLayout>
  );
}
