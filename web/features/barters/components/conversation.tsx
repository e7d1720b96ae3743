import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { MESSAGES_PAGE_SIZE } from '../../../../common/constants';
import type { Barter, ChatMessage, sendMessageSchema } from '../../../../common/schemas/barters';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Textarea } from '../../../components/ui/textarea';
import { toast } from '../../../components/ui/use-toast';
import { withMessages } from '../../../i18n/i18n';
import { serverMessageOf } from '../../../lib/api-client';
import { toastWriteError } from '../../../lib/content-errors';
import { lazyResolver } from '../../../lib/lazy-resolver';
import { ReportButton } from '../../safety/components/report-button';
import { useLoadEarlierMessages, useMarkMessagesRead, useMessages, useSendMessage } from '../api/messages';
import { BARTER_ACTION_MESSAGES } from '../barter-labels';
import { formatDateTime } from '../barter-sides';

type MessageValues = z.input<typeof sendMessageSchema>;

const messageResolver = lazyResolver(() =>
  withMessages(() => import('../barter-resolvers')).then((m) => m.sendMessageResolver),
);

/**
 * The conversation of a barter (its whole negotiation): the proposal's message on top, then the
 * messages oldest first, earlier ones a page at a time, and the box to write. Messages shown to the
 * member while the page is visible are marked read, including ones that arrive live. A trade circle's
 * conversation has three or four people in it: `names` (member id to name) says who wrote each message.
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
      {barter.message ? (
        <figure className="rounded-lg border border-brand-200 bg-brand-50 p-3 text-sm">
          <figcaption className="font-medium text-brand-900">
            {barter.role === 'sender'
              ? t`Your message with the proposal`
              : t`${name}'s message with the proposal`}
          </figcaption>
          <blockquote className="mt-1 whitespace-pre-line text-slate-800">{barter.message}</blockquote>
        </figure>
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
        {list.length > 0 ? (
          <ol aria-label={t`Messages`} className="grid gap-2">
            {list.map((message) => (
              <li
                key={message.id}
                className={
                  message.fromMe
                    ? 'max-w-[85%] justify-self-end rounded-xl bg-brand-700 px-3 py-2 text-sm text-white'
                    : 'max-w-[85%] justify-self-start rounded-xl border border-slate-200 bg-white px-3 py-2 text-sm text-slate-900'
                }
              >
                <div className="flex items-start justify-between gap-2">
                  <p className={message.fromMe ? 'text-xs text-brand-50' : 'text-xs text-slate-600'}>
                    <span className="font-semibold">{message.fromMe ? t`You` : senderOf(message)}</span>,{' '}
                    <time dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time>
                  </p>
                  {!message.fromMe && message.fromUserId ? (
                    <ReportButton
                      targetKind="message"
                      targetId={String(message.id)}
                      what={t`this message`}
                      accessibleName={reportNameOf(message.createdAt)}
                    />
                  ) : null}
                </div>
                <p className="whitespace-pre-wrap break-words">{message.content}</p>
              </li>
            ))}
          </ol>
        ) : null}
      </div>
      <MessageForm barter={barter} />
    </section>
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
