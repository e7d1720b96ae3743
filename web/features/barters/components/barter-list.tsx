import { t } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { MessageCircle } from 'lucide-react';
import { Link } from 'wouter';
import type { BarterBox } from '#common/barter-machine.ts';
import type { Barter } from '#common/schemas/barters.ts';
import { MemberLink } from '#web/components/member-link.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { ListStatus } from '#web/components/ui/list-status.tsx';
import { LoadMoreButton } from '#web/components/ui/load-more-button.tsx';
import { formatRelativeTime } from '#web/i18n/format.ts';
import { BARTER_STATUS_MESSAGES } from '#web/lib/barter-labels.ts';
import { flattenOwnList } from '#web/lib/own-list.ts';
import { paths } from '#web/lib/paths.ts';
import { useBarterList } from '../api/barters';
import { sidesOf, titlesOf } from '../barter-sides';

/** What each list says when it has nothing, in the active language when read (getters, not constants). */
export const EMPTY_BOX_TEXT: Readonly<Record<BarterBox, string>> = {
  get incoming() {
    return t`No proposals are waiting for your answer.`;
  },
  get outgoing() {
    return t`You have no proposals waiting for an answer. Find something you like on the feed and propose a barter.`;
  },
  get active() {
    return t`No accepted barters in progress.`;
  },
  get past() {
    return t`Completed, declined, withdrawn, canceled and expired barters will show here.`;
  },
};

/** One barter in a list: the other member, what each side gives, state, time and unread messages. */
function BarterRow({ barter }: { barter: Barter }) {
  const { t } = useLingui();
  const { mine, theirs } = sidesOf(barter);
  const unread = barter.unreadMessages;
  // A swap day's hand-over is labelled as the day's (issue 30).
  const dayName = barter.swapDay?.name;
  return (
    <li className="relative grid gap-2 rounded-xl border border-slate-200 bg-white p-4 shadow-sm hover:border-brand-300">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        {/* Above the row's link, which covers the row. */}
        <MemberLink
          id={barter.otherMember.id}
          name={barter.otherMember.displayName}
          className="relative z-10 font-semibold text-brand-800"
        />
        <Badge tone={barter.status === 'accepted' || barter.status === 'completed' ? 'success' : 'neutral'}>
          {t(BARTER_STATUS_MESSAGES[barter.status])}
        </Badge>
        {barter.swapDay !== null ? (
          <Badge tone="brand">
            <Trans>Swap day: {dayName}</Trans>
          </Badge>
        ) : barter.circleId !== null ? (
          <Badge tone="brand">
            <Trans>Trade circle</Trans>
          </Badge>
        ) : null}
        <time dateTime={barter.updatedAt} className="text-slate-600">
          {formatRelativeTime(barter.updatedAt)}
        </time>
        {barter.unreadMessages > 0 ? (
          <Badge tone="accent" className="ml-auto">
            <MessageCircle className="h-3 w-3" aria-hidden="true" />
            <Plural value={unread} one="# unread message" other="# unread messages" />
          </Badge>
        ) : null}
      </div>
      {/* The whole row opens the barter: the link's area covers it (the name link sits above). */}
      <Link
        href={paths.barter(barter.id)}
        className="grid gap-0.5 text-sm text-slate-800 after:absolute after:inset-0 after:rounded-xl focus-visible:underline"
      >
        {/* A circle's hand-over moves one item one way; the other side is empty. */}
        {mine.length > 0 ? (
          <span>
            <span className="font-medium">
              <Trans>You give:</Trans>
            </span>{' '}
            {titlesOf(mine)}
          </span>
        ) : null}{' '}
        {theirs.length > 0 ? (
          <span>
            <span className="font-medium">
              <Trans>You get:</Trans>
            </span>{' '}
            {titlesOf(theirs)}
          </span>
        ) : null}
      </Link>
    </li>
  );
}

/** One of the Barters screen's lists, a page at a time. */
export function BarterList({ box }: { box: BarterBox }) {
  const { t } = useLingui();
  const query = useBarterList(box);
  const { rows } = flattenOwnList(query.data?.pages);
  return (
    <div className="grid gap-3">
      <ListStatus
        isLoading={query.isLoading}
        isError={query.isError}
        read={query}
        count={rows.length}
        errorText={t`These barters could not be loaded. Please try again.`}
        emptyText={EMPTY_BOX_TEXT[box]}
      />
      {rows.length > 0 ? (
        <ul className="grid gap-3">
          {rows.map((barter) => (
            <BarterRow key={barter.id} barter={barter} />
          ))}
        </ul>
      ) : null}
      <LoadMoreButton query={query} label={t`Load More Barters`} />
    </div>
  );
}
