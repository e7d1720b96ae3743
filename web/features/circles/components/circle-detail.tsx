import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { ArrowRight } from 'lucide-react';
import { useRef } from 'react';
import { Link } from 'wouter';
import { CIRCLE_EXPIRY_DAYS, type Circle } from '#common/schemas/circles.ts';
import { BackToBarters } from '#web/components/back-to-barters.tsx';
import { DetailScreen } from '#web/components/detail-screen.tsx';
import { BarterConversation, CircleHandOver } from '#web/components/feature-slots.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { ListingImage } from '#web/components/ui/listing-image.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs.tsx';
import { formatDateTime } from '#web/i18n/format.ts';
import { useCircle } from '#web/lib/circle.ts';
import {
  acceptedSentence,
  CIRCLE_STATUS_MESSAGES,
  circleMemberNames,
  sentenceOf,
  timeLeft,
  youGetText,
  youGiveText,
} from '#web/lib/circle-format.ts';
import { paths } from '#web/lib/paths.ts';
import { CircleActions } from './circle-actions';
import { CircleLoop } from './circle-loop';

/** The badge tone of a circle's status: settled ones green, dissolved ones plain. */
const statusTone = (status: Circle['status']) =>
  status === 'accepted' || status === 'completed' ? 'success' : status === 'proposed' ? 'brand' : 'neutral';

/**
 * A trade circle's page: who gives what to whom in loop order, who has accepted, the time left, the
 * viewer's answer; once everyone accepted, the viewer's two hand-overs and the circle's conversation.
 */
export function CircleDetail({ id }: { id: number }) {
  const { t } = useLingui();
  const query = useCircle(id);
  const state = useRef<HTMLDivElement>(null);
  return (
    <DetailScreen
      query={query}
      back={<BackToBarters />}
      missing={t`This trade circle does not exist, or you are not part of it.`}
      failed={t`This trade circle could not be loaded. Please try again.`}
    >
      {(circle) => {
        const created = formatDateTime(circle.createdAt);
        const neighbors = circle.steps.length - 1;
        return (
          <article aria-labelledby="circle-heading" className="grid gap-6">
            <BackToBarters />
            <header className="grid gap-2">
              <div className="flex flex-wrap items-center gap-3">
                <h1 id="circle-heading" className="text-2xl font-bold">
                  <Trans>Trade circle</Trans>
                </h1>
                <Badge tone={statusTone(circle.status)}>{t(CIRCLE_STATUS_MESSAGES[circle.status])}</Badge>
              </div>
              <p className="text-sm text-slate-600">
                {circle.swapDayId !== null ? (
                  <Trans>
                    Matched at a{' '}
                    <Link
                      href={paths.swapDay(circle.swapDayId)}
                      className="font-medium text-brand-800 underline"
                    >
                      swap day
                    </Link>{' '}
                    on {created}.
                  </Trans>
                ) : (
                  <Plural
                    value={neighbors}
                    one={`Found for you and # neighbor on ${created}.`}
                    other={`Found for you and # neighbors on ${created}.`}
                  />
                )}
              </p>
            </header>
            {circle.replacesId !== null ? (
              <p className="rounded-xl border border-brand-200 bg-brand-50 p-4 text-sm text-slate-800">
                <Trans>
                  This circle replaces{' '}
                  <Link
                    href={paths.circle(circle.replacesId)}
                    className="font-medium text-brand-800 underline"
                  >
                    an earlier circle
                  </Link>{' '}
                  that a member left: we found it for those who stayed.
                </Trans>
              </p>
            ) : null}
            <div
              ref={state}
              tabIndex={-1}
              className="grid gap-1 rounded-xl bg-slate-100 p-4 text-sm text-slate-800 outline-none"
            >
              <p className="font-medium text-slate-900">{sentenceOf(circle)}</p>
              <StateNote circle={circle} />
            </div>
            <section aria-labelledby="circle-loop-heading" className="grid gap-2">
              <h2 id="circle-loop-heading" className="font-semibold">
                <Trans>Who gives what</Trans>
              </h2>
              <CircleLoop circle={circle} label={t`The circle, in order`} />
            </section>
            {circle.allowedActions.length > 0 ? (
              <section aria-label={t`Your answer`} className="grid gap-2">
                <p className="text-sm text-slate-700">
                  <Trans>
                    Accept if you will make your hand-over. The circle starts once everyone has accepted;
                    declining dissolves it for everyone.
                  </Trans>
                </p>
                <CircleActions circle={circle} onDone={() => state.current?.focus()} />
              </section>
            ) : null}
            {circle.giveBarterId !== null && circle.getBarterId !== null ? (
              <HandOvers circle={circle} />
            ) : null}
            {circle.giveBarterId !== null ? (
              <CircleConversation circle={circle} barterId={circle.giveBarterId} />
            ) : null}
          </article>
        );
      }}
    </DetailScreen>
  );
}

/** What the state means for the viewer: time left and who accepted, or how it ended. */
function StateNote({ circle }: { circle: Circle }) {
  const { t } = useLingui();
  const days = CIRCLE_EXPIRY_DAYS;
  switch (circle.status) {
    case 'proposed': {
      const date = circle.expiresAt ? formatDateTime(circle.expiresAt) : '';
      const left = circle.expiresAt ? timeLeft(circle.expiresAt).toLowerCase() : '';
      return (
        <>
          <p>{acceptedSentence(circle)}</p>
          {circle.expiresAt ? (
            <p>
              <Trans>
                Everyone has {days} days to accept:{' '}
                <time dateTime={circle.expiresAt} title={t`Expires ${date}`}>
                  {left}
                </time>
                .
              </Trans>
            </p>
          ) : null}
        </>
      );
    }
    case 'accepted':
      return (
        <p>
          <Trans>
            Everyone accepted: the items are held for the circle. Plan each of your hand-overs below, and
            confirm each at the meet-up with the other member's code.
          </Trans>
        </p>
      );
    case 'completed':
      return (
        <p>
          <Trans>Completed: every hand-over of the circle happened.</Trans>
        </p>
      );
    case 'declined': {
      const who = circle.closedBy;
      const byMe = who !== null && circle.steps.some((step) => step.me && step.member.id === who.id);
      const name = who?.displayName ?? t`A member`;
      return (
        <p>
          {byMe
            ? t`You declined this trade circle. It dissolved for everyone.`
            : t`${name} declined this trade circle. It dissolved for everyone.`}
        </p>
      );
    }
    case 'expired':
      return (
        <p>
          <Trans>This trade circle expired: not everyone accepted within {days} days.</Trans>
        </p>
      );
    case 'cancelled':
      return (
        <p>
          <Trans>
            This trade circle was cancelled: one of its items is no longer available, or a hand-over was
            cancelled. Its items are free again.
          </Trans>
        </p>
      );
  }
}

/**
 * Once accepted: the viewer's two hand-overs, each a barter of its own (its page: both confirm, rate),
 * and below them each one's plan and codes.
 */
function HandOvers({ circle }: { circle: Circle }) {
  const rows = [
    {
      id: circle.giveBarterId as number,
      item: circle.give.item,
      text: youGiveText(circle),
    },
    {
      id: circle.getBarterId as number,
      item: circle.get.item,
      text: youGetText(circle),
    },
  ];
  return (
    <section aria-labelledby="hand-overs-heading" className="grid gap-2">
      <h2 id="hand-overs-heading" className="font-semibold">
        <Trans>Your hand-overs</Trans>
      </h2>
      <ul className="grid gap-2">
        {rows.map((row) => (
          <li key={row.id}>
            <Link
              href={paths.barter(row.id)}
              className="flex items-center gap-3 rounded-lg border border-slate-200 bg-white p-2 text-sm text-brand-800 hover:border-brand-300 focus-visible:underline"
            >
              <ListingImage
                thumbnail
                src={row.item.thumbnailUrl}
                className="h-12 w-12 shrink-0 rounded-md text-[10px]"
              />
              <span className="min-w-0 flex-1 font-medium underline">{row.text}</span>
              <ArrowRight className="h-4 w-4 shrink-0" aria-hidden="true" />
            </Link>
          </li>
        ))}
      </ul>
      <HandOverPlans circle={circle} />
    </section>
  );
}

/**
 * Both hand-overs' plans and codes on this page (issue 30, ADR 081), one tab each: a member plans and
 * confirms the whole circle here rather than on a page per hand-over. One panel is shown at a time.
 */
function HandOverPlans({ circle }: { circle: Circle }) {
  const { t } = useLingui();
  const give = circle.giveBarterId as number;
  const get = circle.getBarterId as number;
  const to = circle.give.to.displayName;
  const from = circle.get.from.displayName;
  return (
    <Tabs defaultValue={String(give)} className="mt-2">
      <TabsList aria-label={t`Plan and confirm a hand-over`}>
        <TabsTrigger value={String(give)}>{t`Give to ${to}`}</TabsTrigger>
        <TabsTrigger value={String(get)}>{t`Get from ${from}`}</TabsTrigger>
      </TabsList>
      <TabsContent value={String(give)}>
        <CircleHandOver barterId={give} />
      </TabsContent>
      <TabsContent value={String(get)}>
        <CircleHandOver barterId={get} />
      </TabsContent>
    </Tabs>
  );
}

/** The circle's one conversation, read through the viewer's own hand-over (the barters feature's, through its slot). */
function CircleConversation({ circle, barterId }: { circle: Circle; barterId: number }) {
  return <BarterConversation barterId={barterId} names={circleMemberNames(circle)} />;
}
