import { AuthLayout } from '../../features/auth/components/auth-layout';
import { DemoLoginForm } from '../../features/auth/components/demo-login-form';

/** /demo-login (spec section 2). */
export default function DemoLoginPage() {
  return (
    <AuthLayout title="Try Barterhood" subtitle="Enter your name to start exploring the bartering platform">
      <DemoLoginForm />
    </AuthLayout>
  );
}
