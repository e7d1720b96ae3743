import { MemberLayout } from '../../components/layout/member-layout';
import { useUser } from '../../features/auth/api/get-user';

/** / for members. The matched feeds are built by the feeds issue; until then this says so plainly. */
export default function HomePage() {
  const { user } = useUser();
  if (!user) return null;
  return (
    <MemberLayout>
      <h1 className="text-2xl font-bold">Welcome, {user.firstName || 'neighbor'}!</h1>
      <p className="mt-2 text-slate-600">
        Your neighborhood feed is not built yet. You are signed in, and your account is ready for it.
      </p>
    </MemberLayout>
  );
}
