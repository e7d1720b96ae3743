import { MessageCircle } from 'lucide-react';
import { Link } from 'wouter';
import { BARTER_STATUS_LABELS, type BarterBox } from '../../../../common/barter-machine';
import type { Barter } from '../../../../common/schemas/barters';
import { paths } from '../../../app/paths';
import { MemberLink } from '../../../components/member-link';
import { Badge } from '../../../components/ui/badge';
import { ListStatus } from '../../../components/ui/list-status';
import { LoadMoreButton } from '../../../components/ui/load-more-button';
import { flattenOwnList } from '../../../lib/own-list';
import { formatRelativeTime } from '../../../i18n/format';
import { useBarterList } from '../api/barters';
import { sidesOf, titlesOf } from '../barter-sides';

/** What each list says when it has nothing. */
export const EMPTY_BOX_TEXT: Record<BarterBox, string> = {
  incoming: 'No proposals are waiting for your answer.',
  outgoing:
    'You have no proposals waiting for an answer. Find something you like on the feed and propose a barter.',
  active: 'No accepted barters in progress.',
  past: 'Completed, declined, withdrawn, canceled and expired barters will show here.',
};

/** One barter in a list: the other member, what each side gives, state, time and unread messages. */
function BarterRow({ barter }: { barter: Barter }) {
  const { mine, theirs } = sidesOf(barter);
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
          {BARTER_STATUS_LABELS[barter.status]}
        </Badge>
        {barter.circleId !== null ? <Badge tone="brand">Trade circle</Badge> : null}
        <time dateTime={barter.updatedAt} className="text-slate-600">
          {formatRelativeTime(barter.updatedAt)}
        </time>
        {barter.unreadMessages > 0 ? (
          <Badge tone="accent" className="ml-auto">
            <MessageCircle className="h-3 w-3" aria-hidden="true" />
            {barter.unreadMessages === 1 ? '1 unread message' : `${barter.unreadMessages} unread messages`}
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
            <span className="font-medium">You give:</span> {titlesOf(mine)}
          </span>
        ) : null}{' '}
        {theirs.length > 0 ? (
          <span>
            <span className="font-medium">You get:</span> {titlesOf(theirs)}
          </span>
        ) : null}
      </Link>
    </li>
  );
}

/** One of the Barters screen's lists, a page at a time. */
export function BarterList({ box }: { box: BarterBox }) {
  const query = useBarterList(box);
  const { rows } = flattenOwnList(query.data?.pages);
  return (
    <div className="grid gap-3">
      <ListStatus
        isLoading={query.isLoading}
        isError={query.isError}
        count={rows.length}
        errorText="These barters could not be loaded. Please try again."
        emptyText={EMPTY_BOX_TEXT[box]}
      />
      {rows.length > 0 ? (
        <ul className="grid gap-3">
          {rows.map((barter) => (
            <BarterRow key={barter.id} barter={barter} />
          ))}
        </ul>
      ) : null}
      <LoadMoreButton query={query} label="Load More Barters" />
    </div>
  );
}
