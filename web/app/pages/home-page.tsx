import { MemberLayout } from '../../components/layout/member-layout';
import { useUser } from '../../features/auth/api/get-user';
import { HomeFeed } from '../../features/feed/components/home-feed';
import { CommunityFlyerButton } from '../../features/flyer/components/community-flyer-button';

/** / for members (spec section 2): the feeds; renders nothing without a user. */
export default function HomePage() {
  const { user } = useUser();
  if (!user) return null;
  return (
    <MemberLayout>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">Welcome, {user.firstName || 'neighbor'}!</h1>
          <p className="text-slate-600">
            {user.location
              ? `Trades waiting around ${user.location}.`
              : 'Set your location to see trades nearby.'}
          </p>
        </div>
        <CommunityFlyerButton />
      </div>
      <HomeFeed />
    </MemberLayout>
  );
}
