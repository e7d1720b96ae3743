import { useLingui } from '@lingui/react/macro';
import { MapPin } from 'lucide-react';
import type { CurrentUser } from '#common/schemas/auth.ts';
import { isTrustedTrader } from '#common/trader-reputation.ts';
import { TraderReputation } from '#web/components/trader-reputation.tsx';
import { Avatar } from '#web/components/ui/avatar.tsx';
import { formatPlaceName } from '#web/i18n/place-names.ts';
import { useTradeStats } from '../api/trades';

/** The profile screen's header: name, location, rating and trade count, Trusted Trader when earned. */
export function ProfileHeader({ user }: { user: CurrentUser }) {
  const { t } = useLingui();
  const stats = useTradeStats(user.id);
  const fullName = [user.firstName, user.lastName].filter(Boolean).join(' ') || t`Member`;
  return (
    <div className="flex items-center gap-4">
      <Avatar
        firstName={user.firstName}
        lastName={user.lastName}
        imageUrl={user.profileImageUrl}
        className="h-16 w-16 shrink-0 text-xl"
      />
      {/* One column that may shrink below its content (a grid's auto column would grow to the
          location's full width and widen the phone's page), and a location that wraps, never cut. */}
      <div className="grid min-w-0 flex-1 grid-cols-1 gap-1">
        <h1 className="break-words text-2xl font-bold text-slate-900">{fullName}</h1>
        <p className="flex items-start gap-1 text-slate-600">
          <MapPin className="mt-1 h-4 w-4 shrink-0 text-brand-700" aria-hidden="true" />
          <span className="min-w-0 break-words">
            {formatPlaceName(user.location ?? '') || t`No location set`}
          </span>
        </p>
        {stats.data ? <TraderReputation stats={stats.data} trusted={isTrustedTrader(stats.data)} /> : null}
      </div>
    </div>
  );
}
