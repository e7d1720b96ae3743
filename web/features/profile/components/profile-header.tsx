import { BadgeCheck, MapPin, Star } from 'lucide-react';
import type { CurrentUser } from '../../../../common/schemas/auth';
import { formatTraderRating, isTrustedTrader } from '../../../../common/trader-reputation';
import { Avatar } from '../../../components/ui/avatar';
import { Badge } from '../../../components/ui/badge';
import { useTradeStats } from '../api/trades';

/** The profile screen's header: name, location, rating and trade count, Trusted Trader when earned. */
export function ProfileHeader({ user }: { user: CurrentUser }) {
  const stats = useTradeStats(user.id);
  const fullName = [user.firstName, user.lastName].filter(Boolean).join(' ') || 'Member';
  return (
    <div className="flex items-center gap-4">
      <Avatar
        firstName={user.firstName}
        lastName={user.lastName}
        imageUrl={user.profileImageUrl}
        className="h-16 w-16 shrink-0 text-xl"
      />
      <div className="grid min-w-0 gap-1">
        <h1 className="text-2xl font-bold text-slate-900">{fullName}</h1>
        <p className="flex items-center gap-1 text-slate-600">
          <MapPin className="h-4 w-4 shrink-0 text-brand-700" aria-hidden="true" />
          <span className="truncate">{user.location || 'No location set'}</span>
        </p>
        {stats.data ? (
          <div className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
            <span className="flex items-center gap-1">
              <Star className="h-4 w-4 fill-amber-400 text-amber-500" aria-hidden="true" />
              {formatTraderRating(stats.data)}
            </span>
            {isTrustedTrader(stats.data) ? (
              <Badge tone="success">
                <BadgeCheck className="h-3.5 w-3.5" aria-hidden="true" />
                Trusted Trader
              </Badge>
            ) : null}
          </div>
        ) : null}
      </div>
    </div>
  );
}
