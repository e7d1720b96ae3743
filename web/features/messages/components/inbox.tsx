import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'wouter';
import type { Conversation } from '#common/schemas/conversations.ts';
import { Avatar } from '#web/components/ui/avatar.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { ListStatus } from '#web/components/ui/list-status.tsx';
import { LoadMoreButton } from '#web/components/ui/load-more-button.tsx';
import { formatRelativeTime } from '#web/i18n/format.ts';
import { flattenOwnList } from '#web/lib/own-list.ts';
import { paths } from '#web/lib/paths.ts';
import { cn } from '#web/lib/utils.ts';
import { useConversations } from '../api/conversations';

/** "Ann R." as the avatar's first and last name, for its initials. */
function namesOf(displayName: string): { firstName: string; lastName: string } {
  const [first = '', ...rest] = displayName.split(' ');
  return { firstName: first, lastName: rest.join(' ') };
}

/** One conversation: who it is with, what it is about, the last message, when, and unread messages. */
function ConversationRow({ conversation }: { conversation: Conversation }) {
  const { t } = useLingui();
  const { members, lastMessage, unread } = conversation;
  const names = members.map((member) => member.displayName).join(', ') || t`Former member`;
  const first = members[0];
  const sender = lastMessage.fromMe
    ? t`You`
    : conversation.kind === 'circle'
      ? members.find((member) => member.id !== null && member.id === lastMessage.fromUserId)?.displayName
      : undefined;
  return (
    <li
      className={cn(
        'relative flex gap-3 rounded-xl border bg-white p-4 shadow-sm hover:border-brand-300',
        unread > 0 ? 'border-brand-300' : 'border-slate-200',
      )}
    >
      <Avatar
        {...namesOf(first?.displayName ?? '')}
        imageUrl={first?.profileImageUrl ?? null}
        className="shrink-0"
      />
      <div className="grid min-w-0 flex-1 gap-1">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
          {/* The whole row opens the conversation: the link's area covers it. */}
          <Link
            href={paths.barter(conversation.barterId)}
            className={cn(
              'min-w-0 truncate text-base text-slate-900 after:absolute after:inset-0 after:rounded-xl focus-visible:underline',
              unread > 0 ? 'font-bold' : 'font-semibold',
            )}
          >
            {names}
          </Link>
          {conversation.kind === 'circle' ? (
            <Badge tone="brand">
              <Trans>Trade circle</Trans>
            </Badge>
          ) : null}
          {conversation.swapDay ? (
            <Badge tone="brand">
              <Trans>Swap day: {conversation.swapDay.name}</Trans>
            </Badge>
          ) : null}
          <time dateTime={lastMessage.createdAt} className="ml-auto text-slate-600">
            {formatRelativeTime(lastMessage.createdAt)}
          </time>
        </div>
        <div className="flex items-center gap-2">
          <p
            className={cn(
              'min-w-0 flex-1 truncate text-sm',
              unread > 0 ? 'text-slate-900' : 'text-slate-600',
            )}
          >
            {sender ? <span className="font-medium">{sender}: </span> : null}
            {lastMessage.preview}
          </p>
          {unread > 0 ? (
            <Badge tone="accent" className="shrink-0">
              <Plural value={unread} one="# unread message" other="# unread messages" />
            </Badge>
          ) : null}
        </div>
      </div>
    </li>
  );
}

/**
 * The inbox (ADR 076): one row per conversation the member is in (a barter, a trade circle, a swap-day
 * hand-over), newest message first, a page at a time; a new message moves its row to the top live.
 * Opening a row opens the conversation, which marks it read. The bell keeps the notifications.
 */
export function Inbox() {
  const { t } = useLingui();
  const query = useConversations();
  const { rows } = flattenOwnList(query.data?.pages);
  return (
    <section aria-labelledby="inbox-heading" className="grid gap-4">
      <div>
        <h1 id="inbox-heading" className="text-2xl font-bold">
          <Trans>Messages</Trans>
        </h1>
        <p className="text-slate-600">
          <Trans>Your conversations about barters, trade circles and swap days, newest first.</Trans>
        </p>
      </div>
      <ListStatus
        isLoading={query.isLoading}
        isError={query.isError}
        read={query}
        count={rows.length}
        errorText={t`Your conversations could not be loaded. Please try again.`}
        emptyText={t`No conversations yet. When you write to a member about a barter, or they write to you, it shows here.`}
      />
      {rows.length > 0 ? (
        <ul aria-label={t`Conversations`} className="grid gap-3">
          {rows.map((conversation) => (
            <ConversationRow key={conversation.id} conversation={conversation} />
          ))}
        </ul>
      ) : null}
      <LoadMoreButton query={query} label={t`Load More Conversations`} />
      <p className="text-sm text-slate-600">
        <Trans>
          Proposals and barters are on the{' '}
          <Link href={paths.barters} className="font-medium text-brand-800 underline">
            Barters
          </Link>{' '}
          screen.
        </Trans>
      </p>
    </section>
  );
}
