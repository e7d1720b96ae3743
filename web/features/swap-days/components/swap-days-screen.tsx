import { Trans, useLingui } from '@lingui/react/macro';
import { CalendarDays, MapPin, Plus, Users } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import type { SwapDaySummary } from '#common/schemas/swap-days.ts';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { ListStatus, type RetryableRead } from '#web/components/ui/list-status.tsx';
import { paths } from '#web/lib/paths.ts';
import { useSwapDayLists } from '../api/swap-days';
import { distanceText, formatWhen, membersText } from '../swap-day-format';
import { SWAP_DAY_STATUS_MESSAGES } from '../swap-day-labels';
import { OrganiseSwapDayDialog } from './organise-swap-day-dialog';

/** The badge tone of a swap day's state. */
export const statusTone = (status: SwapDaySummary['status']) =>
  status === 'open'
    ? 'brand'
    : status === 'solved'
      ? 'success'
      : status === 'failed' || status === 'matching' || status === 'closed'
        ? 'accent'
        : 'neutral';

/** One swap day in a list: the whole row opens it. */
function SwapDayRow({ swapDay }: { swapDay: SwapDaySummary }) {
  const { t } = useLingui();
  const distance = distanceText(swapDay);
  const members = membersText(swapDay.memberCount);
  const organiser = swapDay.organiser.displayName;
  return (
    <li className="relative grid gap-2 rounded-xl border border-slate-200 bg-white p-4 shadow-sm hover:border-brand-300">
      <div className="flex flex-wrap items-center gap-2">
        <Link
          href={paths.swapDay(swapDay.id)}
          className="font-semibold text-brand-800 after:absolute after:inset-0 after:rounded-xl focus-visible:underline"
        >
          {swapDay.name}
        </Link>
        <Badge tone={statusTone(swapDay.status)}>{t(SWAP_DAY_STATUS_MESSAGES[swapDay.status])}</Badge>
        {swapDay.isOrganiser ? (
          <Badge tone="accent">
            <Trans>You organize</Trans>
          </Badge>
        ) : null}
      </div>
      <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700">
        <span className="inline-flex items-center gap-1">
          <CalendarDays className="h-4 w-4 text-slate-500" aria-hidden="true" />
          <time dateTime={swapDay.startsAt}>{formatWhen(swapDay.startsAt)}</time>
        </span>
        <span className="inline-flex items-center gap-1">
          <MapPin className="h-4 w-4 text-slate-500" aria-hidden="true" />
          {swapDay.place}
          {distance ? ` (${distance})` : ''}
        </span>
        <span className="inline-flex items-center gap-1">
          <Users className="h-4 w-4 text-slate-500" aria-hidden="true" />
          <Trans>
            {members}, organized by {organiser}
          </Trans>
        </span>
      </p>
    </li>
  );
}

function SwapDayList({
  heading,
  rows,
  isLoading,
  isError,
  read,
  emptyText,
}: {
  heading: string;
  rows: readonly SwapDaySummary[];
  isLoading: boolean;
  isError: boolean;
  read: RetryableRead;
  emptyText: string;
}) {
  const { t } = useLingui();
  const id = `swap-days-${heading.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section aria-labelledby={id} className="grid gap-3">
      <h2 id={id} className="text-lg font-semibold">
        {heading}
      </h2>
      <ListStatus
        isLoading={isLoading}
        isError={isError}
        read={read}
        count={rows.length}
        errorText={t`Swap days could not be loaded. Please try again.`}
        emptyText={emptyText}
      />
      {rows.length > 0 ? (
        <ul className="grid gap-3">
          {rows.map((swapDay) => (
            <SwapDayRow key={swapDay.id} swapDay={swapDay} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** /swap-days: the member's swap days, open ones nearby, and organizing a new one. */
export function SwapDaysScreen() {
  const { t } = useLingui();
  const lists = useSwapDayLists();
  const [organising, setOrganising] = useState(false);
  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold">
            <Trans>Swap days</Trans>
          </h1>
          <p className="max-w-2xl text-slate-600">
            <Trans>
              Neighbors bring things to one place on one day. Everyone ranks what they would accept, and when
              want lists close, everyone is matched at once, in loops of any size.
            </Trans>
          </p>
        </div>
        <OrganiseSwapDayDialog
          open={organising}
          onOpenChange={setOrganising}
          trigger={
            <Button>
              <Plus className="h-4 w-4" aria-hidden="true" />
              <Trans>Organize a Swap Day</Trans>
            </Button>
          }
        />
      </div>
      <SwapDayList
        heading={t`Your swap days`}
        rows={lists.data?.mine ?? []}
        isLoading={lists.isLoading}
        isError={lists.isError}
        read={lists}
        emptyText={t`You have not joined a swap day yet. Join one nearby, or organize your own.`}
      />
      <SwapDayList
        heading={t`Near you`}
        rows={lists.data?.nearby ?? []}
        isLoading={lists.isLoading}
        isError={lists.isError}
        read={lists}
        emptyText={t`No swap days within your travel distance are open right now. Organize one, or check that your location is set in your profile.`}
      />
    </div>
  );
}
