import { AuthLayout } from '../../features/auth/components/auth-layout';
import { RegisterForm } from '../../features/auth/components/register-form';

/** /register (spec section 2). */
export default function RegisterPage() {
  return (
    <AuthLayout title="Join Barterhood" subtitle="Create your account to start bartering with neighbors">
      <RegisterForm />
    </AuthLayout>
  );
}
