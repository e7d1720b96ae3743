import { MemberLayout } from '../../components/layout/member-layout';
import { Avatar } from '../../components/ui/avatar';
import { useUser } from '../../features/auth/api/get-user';

/** /profile. The profile tabs are built by the profile issue; until then it shows who is signed in. */
export default function ProfilePage() {
  const { user } = useUser();
  if (!user) return null;
  return (
    <MemberLayout>
      <div className="flex items-center gap-4">
        <Avatar
          firstName={user.firstName}
          lastName={user.lastName}
          imageUrl={user.profileImageUrl}
          className="h-16 w-16 text-xl"
        />
        <div>
          <h1 className="text-2xl font-bold">{[user.firstName, user.lastName].filter(Boolean).join(' ')}</h1>
          <p className="text-slate-600">{user.location || 'No location set'}</p>
        </div>
      </div>
      <p className="mt-6 text-slate-600">Editing your profile, items and want list is not available yet.</p>
    </MemberLayout>
  );
}
