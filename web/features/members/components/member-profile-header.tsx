import { plural, t } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { CalendarDays, MapPin } from 'lucide-react';
import type { MemberProfile } from '#common/schemas/members.ts';
import { AreaMap } from '#web/components/area-map.tsx';
import { TraderReputation } from '#web/components/trader-reputation.tsx';
import { Avatar } from '#web/components/ui/avatar.tsx';
import { formatDate } from '#web/i18n/format.ts';
import { formatPlaceName } from '#web/i18n/place-names.ts';
import { handOverRecordText } from '#web/lib/hand-over-record.ts';

/** "3 completed trades, 1 this month". */
export function completedTradesText({ totalTrades, thisMonth }: MemberProfile['stats']): string {
  const trades = plural(totalTrades, { one: '# completed trade', other: '# completed trades' });
  return thisMonth > 0 ? t`${trades}, ${thisMonth} this month` : trades;
}

/**
 * A member page's header: picture, "Ann R.", the area they trade around, when they joined, the
 * rating line with Trusted Trader once earned, and their completed trades.
 */
export function MemberProfileHeader({ member }: { member: MemberProfile }) {
  const [firstName, lastName] = member.displayName.split(' ');
  const area = member.area ? formatPlaceName(member.area) : null;
  const since = formatDate(member.memberSince, { month: 'long', year: 'numeric', timeZone: 'UTC' });
  return (
    <div className="grid gap-4">
      <div className="flex items-center gap-4">
        <Avatar
          firstName={firstName}
          lastName={lastName}
          imageUrl={member.profileImageUrl}
          className="h-16 w-16 shrink-0 text-xl"
        />
        <div className="grid min-w-0 gap-1">
          <h1 className="text-2xl font-bold text-slate-900">{member.displayName}</h1>
          <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-slate-600">
            <span className="flex items-center gap-1">
              <MapPin className="h-4 w-4 shrink-0 text-brand-700" aria-hidden="true" />
              {area ? t`Near ${area}` : t`Area not shared`}
            </span>
            <span className="flex items-center gap-1">
              <CalendarDays className="h-4 w-4 shrink-0 text-brand-700" aria-hidden="true" />
              <Trans>Member since {since}</Trans>
            </span>
          </p>
          <TraderReputation stats={member.stats} trusted={member.trustedTrader} />
          <p className="text-sm text-slate-600">{completedTradesText(member.stats)}</p>
          {handOverRecordText(member.stats.handOvers) ? (
            <p className="text-sm text-slate-600">{handOverRecordText(member.stats.handOvers)}</p>
          ) : null}
          {member.bio ? (
            <p className="mt-1 whitespace-pre-line break-words text-slate-800">{member.bio}</p>
          ) : null}
        </div>
      </div>
      {member.approximateArea ? (
        <AreaMap area={member.approximateArea} className="grid max-w-xl gap-2" />
      ) : null}
    </div>
  );
}
