import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { MESSAGES_PAGE_SIZE } from '#common/constants.ts';
import type { Barter, ChatMessage, sendMessageSchema } from '#common/schemas/barters.ts';
import type { ProposalMessage } from '#common/schemas/conversations.ts';
import { ReportButton } from '#web/components/report-button.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { withMessages } from '#web/i18n/i18n.ts';
import { serverMessageOf } from '#web/lib/api-client.ts';
import { BARTER_ACTION_MESSAGES } from '#web/lib/barter-labels.ts';
import { toastWriteError } from '#web/lib/content-errors.ts';
import { lazyResolver } from '#web/lib/lazy-resolver.ts';
import { cn } from '#web/lib/utils.ts';
import {
  useLoadEarlierMessages,
  useMarkMessagesRead,
  useMessages,
  useProposalMessages,
  useSendMessage,
} from '../api/messages';
import { formatDateTime } from '../barter-sides';

type MessageValues = z.input<typeof sendMessageSchema>;

const messageResolver = lazyResolver(() =>
  withMessages(() => import('../barter-resolvers')).then((m) => m.sendMessageResolver),
);

/** A conversation's entries in time order: the messages, and what came with each proposal and counter. */
type Entry = { kind: 'message'; message: ChatMessage } | { kind: 'proposal'; proposal: ProposalMessage };

/**
 * What was said with the proposal and the counters of the negotiation (ADR 076). A barter with no
 * counter has only its own message, which needs no request; with counters they are read from the
 * server, and until they arrive the barter's own message stands in.
 */
function useSaidWithProposals(barter: Barter): ProposalMessage[] {
  const negotiated =
    barter.circleId === null && (barter.counterOfId !== null || barter.counteredById !== null);
  const chain = useProposalMessages(barter.id, negotiated);
  if (barter.circleId !== null) return [];
  if (negotiated && chain.data) return chain.data;
  if (!barter.message) return [];
  return [
    {
      barterId: barter.id,
      isCounter: barter.counterOfId !== null,
      fromMe: barter.role === 'sender',
      content: barter.message,
      createdAt: barter.createdAt,
    },
  ];
}

/**
 * The conversation of a barter (its whole negotiation, ADR 076): the messages sent with the proposal
 * and each counter at their place among the messages, oldest first, earlier ones a page at a time,
 * and the box to write. Messages shown to the member while the page is visible are marked read,
 * including ones that arrive live. A trade circle's conversation has three or four people in it:
 * `names` (member id to name) says who wrote each message.
 */
export function Conversation({ barter, names }: { barter: Barter; names?: ReadonlyMap<string, string> }) {
  const { t } = useLingui();
  const name = barter.otherMember.displayName;
  const senderOf = (message: ChatMessage) =>
    names ? ((message.fromUserId && names.get(message.fromUserId)) ?? t`Former member`) : name;
  const messages = useMessages(barter);
  const list = messages.data ?? [];
  const loadEarlier = useLoadEarlierMessages(barter);
  // Fewer than a page came back: nothing is left before the oldest one loaded.
  const [startReached, setStartReached] = useState(false);
  const hasEarlier = !startReached && list.length >= MESSAGES_PAGE_SIZE;
  // A proposal's message older than the earliest message loaded shows once the start is reached.
  // Drawn once the messages are in (or could not be read), so nothing moves under the reader.
  const allSaid = useSaidWithProposals(barter);
  const said = messages.data !== undefined || messages.isError ? allSaid : [];
  const oldestLoaded = hasEarlier ? list[0]?.createdAt : undefined;
  const entries: Entry[] = [
    ...said
      .filter((proposal) => oldestLoaded === undefined || proposal.createdAt >= oldestLoaded)
      .map((proposal) => ({ kind: 'proposal' as const, proposal })),
    ...list.map((message) => ({ kind: 'message' as const, message })),
  ].sort((a, b) => timeOf(a).localeCompare(timeOf(b)));
  const proposalCaption = (proposal: ProposalMessage) =>
    proposal.isCounter
      ? proposal.fromMe
        ? t`Your message with the counter offer`
        : t`${name}'s message with the counter offer`
      : proposal.fromMe
        ? t`Your message with the proposal`
        : t`${name}'s message with the proposal`;

  const reportNameOf = (createdAt: string) => {
    const date = formatDateTime(createdAt);
    return t`Report the message of ${date}`;
  };

  useMarkReadWhileVisible(barter, messages.isSuccess ? list : null);
  const scroller = useScrollToNewest(list.at(-1)?.id);

  return (
    <section aria-labelledby="conversation-heading" className="grid gap-3">
      <h2 id="conversation-heading" className="font-semibold">
        <Trans>Conversation</Trans>
      </h2>
      {names ? (
        <p className="text-sm text-slate-600">
          <Trans>Everyone in the trade circle reads this conversation.</Trans>
        </p>
      ) : null}
      <div ref={scroller} className="grid max-h-[28rem] gap-2 overflow-y-auto rounded-xl bg-slate-50 p-3">
        {hasEarlier ? (
          <Button
            variant="secondary"
            size="sm"
            className="justify-self-center"
            disabled={loadEarlier.isPending}
            onClick={() => {
              const oldest = list[0];
              if (!oldest) return;
              loadEarlier.mutate(oldest.id, {
                onSuccess: (page) => {
                  if (page.length < MESSAGES_PAGE_SIZE) setStartReached(true);
                },
                onError: (error) =>
                  toast({
                    title: t`Error`,
                    description: serverMessageOf(
                      error,
                      t`Earlier messages could not be loaded. Please try again.`,
                    ),
                    variant: 'destructive',
                  }),
              });
            }}
          >
            {loadEarlier.isPending ? t`Loading...` : t`Load earlier messages`}
          </Button>
        ) : null}
        {messages.isLoading ? (
          <p className="text-sm text-slate-600">
            <Trans>Loading messages...</Trans>
          </p>
        ) : null}
        {messages.isError ? (
          <p className="text-sm text-red-700">
            <Trans>The messages could not be loaded. Please try again.</Trans>
          </p>
        ) : null}
        {messages.isSuccess && list.length === 0 ? (
          <p className="text-sm text-slate-600">
            <Trans>No messages yet. Say hello and agree where and when to meet.</Trans>
          </p>
        ) : null}
        {entries.length > 0 ? (
          <ol aria-label={t`Messages`} className="grid gap-2">
            {entries.map((entry) =>
              entry.kind === 'proposal' ? (
                <li
                  key={`proposal-${entry.proposal.barterId}`}
                  className={cn(
                    'max-w-[85%] rounded-lg border border-brand-200 bg-brand-50 px-3 py-2 text-sm',
                    entry.proposal.fromMe ? 'justify-self-end' : 'justify-self-start',
                  )}
                >
                  <p className="text-xs text-brand-900">
                    <span className="font-semibold">{proposalCaption(entry.proposal)}</span>,{' '}
                    <time dateTime={entry.proposal.createdAt}>
                      {formatDateTime(entry.proposal.createdAt)}
                    </time>
                  </p>
                  <blockquote className="whitespace-pre-line text-slate-800">
                    {entry.proposal.content}
                  </blockquote>
                </li>
              ) : (
                <MessageEntry
                  key={entry.message.id}
                  message={entry.message}
                  sender={senderOf(entry.message)}
                  reportName={reportNameOf(entry.message.createdAt)}
                />
              ),
            )}
          </ol>
        ) : null}
      </div>
      <MessageForm barter={barter} />
    </section>
  );
}

/** When an entry was written: both are ISO times in UTC, so they sort as text. */
const timeOf = (entry: Entry) =>
  entry.kind === 'message' ? entry.message.createdAt : entry.proposal.createdAt;

/** One message: the member's own on the right, others' on the left with a report button. */
function MessageEntry({
  message,
  sender,
  reportName,
}: {
  message: ChatMessage;
  sender: string;
  reportName: string;
}) {
  const { t } = useLingui();
  return (
    <li
      className={
        message.fromMe
          ? 'max-w-[85%] justify-self-end rounded-xl bg-brand-700 px-3 py-2 text-sm text-white'
          : 'max-w-[85%] justify-self-start rounded-xl border border-slate-200 bg-white px-3 py-2 text-sm text-slate-900'
      }
    >
      <div className="flex items-start justify-between gap-2">
        <p className={message.fromMe ? 'text-xs text-brand-50' : 'text-xs text-slate-600'}>
          <span className="font-semibold">{message.fromMe ? t`You` : sender}</span>,{' '}
          <time dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time>
        </p>
        {!message.fromMe && message.fromUserId ? (
          <ReportButton
            targetKind="message"
            targetId={String(message.id)}
            what={t`this message`}
            accessibleName={reportName}
          />
        ) : null}
      </div>
      <p className="whitespace-pre-wrap break-words">{message.content}</p>
    </li>
  );
}

/** The box to write in: Enter sends, Shift+Enter starts a new line. */
function MessageForm({ barter }: { barter: Barter }) {
  const { t } = useLingui();
  const send = useSendMessage(barter);
  const form = useForm<MessageValues>({
    resolver: messageResolver,
    defaultValues: { content: '' },
  });
  const onSubmit = form.handleSubmit(({ content }) =>
    send.mutate(content, {
      onSuccess: () => form.reset({ content: '' }),
      onError: (error) =>
        toastWriteError(error, t`message`, t`Failed to send the message. Please try again.`),
    }),
  );
  if (!barter.allowedActions.includes('message')) return null;
  return (
    <form onSubmit={onSubmit} onFocus={messageResolver.preload} noValidate className="grid gap-2">
      <FormField label={t`Message`} error={form.formState.errors.content?.message}>
        <Textarea
          {...form.register('content')}
          rows={2}
          className="min-h-16"
          placeholder={t`Write a message (Enter sends, Shift+Enter for a new line)`}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              if (!send.isPending) void onSubmit();
            }
          }}
        />
      </FormField>
      <div className="flex justify-end">
        <Button type="submit" disabled={send.isPending}>
          {t(BARTER_ACTION_MESSAGES.message)}
        </Button>
      </div>
    </form>
  );
}

/**
 * Tell the server the conversation is read whenever it shows unread messages to the member: when it
 * loads, when new ones arrive, and when the tab becomes visible again. Each newest message is
 * reported once.
 */
function useMarkReadWhileVisible(barter: Barter, messages: readonly ChatMessage[] | null) {
  const markRead = useMarkMessagesRead(barter);
  const reported = useRef(0);
  const newestId = messages?.at(-1)?.id ?? 0;
  const unread =
    (messages?.some((message) => !message.fromMe && !message.isRead) ?? false) || barter.unreadMessages > 0;
  const mutate = markRead.mutate;
  useEffect(() => {
    if (messages === null || !unread || newestId <= reported.current) return;
    const report = () => {
      if (document.visibilityState !== 'visible' || newestId <= reported.current) return;
      reported.current = newestId;
      mutate(newestId, {
        onError: () => {
          // Try again with the next message or the next visit; a failed mark is not worth a toast.
          reported.current = 0;
        },
      });
    };
    report();
    document.addEventListener('visibilitychange', report);
    return () => document.removeEventListener('visibilitychange', report);
  }, [messages, unread, newestId, mutate]);
}

/** Keep the newest message in view when one arrives (not when earlier ones are put in front). */
function useScrollToNewest(newestId: number | undefined) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (newestId === undefined) return;
    const box = ref.current;
    if (box) box.scrollTop = box.scrollHeight;
  }, [newestId]);
  return ref;
}
