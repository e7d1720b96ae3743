import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { ArrowRight, CalendarDays, Repeat } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { type BarterAction, PENDING_EXPIRY_DAYS } from '#common/barter-machine.ts';
import type { Barter, BarterItem } from '#common/schemas/barters.ts';
import type { Circle } from '#common/schemas/circles.ts';
import { BackToBarters } from '#web/components/back-to-barters.tsx';
import { DetailScreen } from '#web/components/detail-screen.tsx';
import { MemberLink } from '#web/components/member-link.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { ListingImage } from '#web/components/ui/listing-image.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { withMessages } from '#web/i18n/i18n.ts';
import { serverMessageOf } from '#web/lib/api-client.ts';
import { BARTER_ACTION_MESSAGES, BARTER_STATUS_MESSAGES } from '#web/lib/barter-labels.ts';
import { useCircle } from '#web/lib/circle.ts';
import { circleMemberNames, circlePathText, youGetText, youGiveText } from '#web/lib/circle-format.ts';
import { lazyTriggeredDialog } from '#web/lib/lazy-dialog.tsx';
import { paths } from '#web/lib/paths.ts';
import { type SimpleBarterAction, useBarter, useBarterAction } from '../api/barters';
import { formatDateTime, sidesOf, titlesOf } from '../barter-sides';
import { Conversation } from './conversation';
import { HandOverCodes } from './hand-over-codes';
import { HandOverPlanSection } from './hand-over-plan';
import { KeepingWord } from './keeping-word';
import { RatingForm, Ratings } from './rating-form';

// The cancel and counter forms (react-hook-form, zod, the barter schemas) load on the first click.
const CancelBarterDialog = lazyTriggeredDialog(() =>
  withMessages(() => import('./cancel-barter-dialog')).then((module) => module.CancelBarterDialog),
);
const ProposalDialog = lazyTriggeredDialog(() =>
  withMessages(() => import('./proposal-dialog')).then((module) => module.ProposalDialog),
);

/** One barter's page: both sides, its state, what the viewer may do, the ratings and the conversation. */
export function BarterDetail({ id }: { id: number }) {
  const { t } = useLingui();
  const query = useBarter(id);
  // A trade circle's hand-over: the circle names everyone in its shared conversation.
  const circle = useCircle(query.data?.circleId ?? null);
  return (
    <DetailScreen
      query={query}
      back={<BackToBarters />}
      missing={t`This barter does not exist, or it is not yours to see.`}
      failed={t`This barter could not be loaded. Please try again.`}
    >
      {(barter) => {
        const created = formatDateTime(barter.createdAt);
        const otherName = barter.otherMember.displayName;
        const dayName = barter.swapDay?.name;
        return (
          <article aria-labelledby="barter-heading" className="grid gap-6">
            <BackToBarters />
            <header className="grid gap-2">
              <div className="flex flex-wrap items-center gap-3">
                <h1 id="barter-heading" className="text-2xl font-bold">
                  <Trans>
                    Barter with{' '}
                    <MemberLink
                      id={barter.otherMember.id}
                      name={barter.otherMember.displayName}
                      className="text-brand-800"
                    />
                  </Trans>
                </h1>
                <Badge
                  tone={barter.status === 'accepted' || barter.status === 'completed' ? 'success' : 'neutral'}
                >
                  {t(BARTER_STATUS_MESSAGES[barter.status])}
                </Badge>
              </div>
              <p className="text-sm text-slate-600">
                {barter.swapDay !== null
                  ? t`A hand-over of the swap day ${dayName}, since ${created}.`
                  : barter.circleId !== null
                    ? t`A hand-over of a trade circle, since ${created}.`
                    : barter.role === 'sender'
                      ? t`You proposed it on ${created}.`
                      : t`${otherName} proposed it on ${created}.`}
              </p>
            </header>
            {barter.circleId !== null ? (
              <CircleBanner circleId={barter.circleId} circle={circle.data} swapDay={barter.swapDay} />
            ) : null}
            <StateNote barter={barter} />
            {barter.circleId !== null ? (
              <HandOverSide barter={barter} circle={circle.data} />
            ) : (
              <Sides barter={barter} />
            )}
            {barter.status === 'accepted' ? <HandOverPlanSection barter={barter} /> : null}
            {/* A report made before a cancellation or a completion can still be answered (ADR 079). */}
            {barter.status === 'accepted' ||
            barter.status === 'cancelled' ||
            barter.status === 'completed' ? (
              <KeepingWord barter={barter} />
            ) : null}
            {barter.status === 'accepted' ? <HandOverCodes barter={barter} /> : null}
            <Actions barter={barter} />
            <Ratings barter={barter} />
            {barter.allowedActions.includes('rate') ? <RatingForm barter={barter} /> : null}
            {/* A swap day's loop has one conversation per hand-over, between its two members. */}
            {barter.circleId === null || barter.swapDay !== null ? (
              <Conversation barter={barter} />
            ) : circle.isLoading ? (
              <p className="text-sm text-slate-600">
                <Trans>Loading the conversation...</Trans>
              </p>
            ) : (
              <Conversation
                barter={barter}
                names={circle.data ? circleMemberNames(circle.data) : new Map()}
              />
            )}
          </article>
        );
      }}
    </DetailScreen>
  );
}

/** What the state means for the viewer, with the dates, the counter links and the close reason. */
function StateNote({ barter }: { barter: Barter }) {
  const { t } = useLingui();
  const name = barter.otherMember.displayName;
  const days = PENDING_EXPIRY_DAYS;
  const byMe = barter.closedBy === 'me';
  const lines: string[] = [];
  switch (barter.status) {
    case 'pending':
      lines.push(
        barter.role === 'sender'
          ? t`Waiting for ${name} to answer: they can accept, decline or make a counter offer.`
          : t`${name} proposed this barter. You can accept it, decline it or make a counter offer.`,
      );
      if (barter.expiresAt) {
        const expires = formatDateTime(barter.expiresAt);
        lines.push(t`Unanswered proposals expire after ${days} days: this one on ${expires}.`);
      }
      break;
    case 'accepted':
      lines.push(t`Accepted: the items are held for this barter. Meet up and make the exchange.`);
      if (barter.confirmedByMe) lines.push(t`You confirmed the exchange. Waiting for ${name} to confirm.`);
      else if (barter.confirmedByOther)
        lines.push(t`${name} confirmed the exchange. Confirm it too once you have yours.`);
      break;
    case 'completed':
      lines.push(t`Completed: both of you confirmed the exchange.`);
      break;
    case 'declined':
      lines.push(byMe ? t`You declined this proposal.` : t`${name} declined this proposal.`);
      break;
    case 'withdrawn':
      lines.push(byMe ? t`You withdrew this proposal.` : t`${name} withdrew this proposal.`);
      break;
    case 'countered':
      lines.push(
        barter.role === 'recipient'
          ? t`You answered this proposal with a counter offer.`
          : t`${name} answered this proposal with a counter offer.`,
      );
      break;
    case 'cancelled':
      // Closed by nobody: a member of its circle missed a hand-over and the circle healed (ADR 081).
      if (barter.closedBy === null && barter.circleId !== null && barter.swapDay === null) {
        lines.push(
          t`This hand-over was cancelled because a member of the circle missed a hand-over. The items are free again, and those left are offered a new circle when one can be found.`,
        );
      } else lines.push(byMe ? t`You canceled this barter.` : t`${name} canceled this barter.`);
      break;
    case 'expired':
      lines.push(t`This proposal expired: it was not answered within ${days} days.`);
      break;
  }
  return (
    <section aria-label={t`State`} className="grid gap-1 rounded-xl bg-slate-100 p-4 text-sm text-slate-800">
      {lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
      {barter.closeReason ? (
        <p>
          <span className="font-semibold">
            <Trans>Reason:</Trans>{' '}
          </span>
          <span className="whitespace-pre-line">{barter.closeReason}</span>
        </p>
      ) : null}
      {barter.counterOfId !== null ? (
        <p>
          <Trans>This is a counter offer to an earlier proposal.</Trans>{' '}
          <Link href={paths.barter(barter.counterOfId)} className="font-medium text-brand-800 underline">
            <Trans>See the earlier proposal</Trans>
          </Link>
        </p>
      ) : null}
      {barter.counteredById !== null ? (
        <p>
          <Link href={paths.barter(barter.counteredById)} className="font-medium text-brand-800 underline">
            <Trans>See the counter offer</Trans>
          </Link>
        </p>
      ) : null}
    </section>
  );
}

/**
 * A hand-over's banner: it belongs to a trade circle (the loop in words, once read), and a link there;
 * a swap day's loop is labelled as the swap day's, with a link to the day (issue 30).
 */
function CircleBanner({
  circleId,
  circle,
  swapDay,
}: {
  circleId: number;
  circle: Circle | undefined;
  swapDay: Barter['swapDay'];
}) {
  const { t } = useLingui();
  if (swapDay !== null) {
    const name = swapDay.name;
    return (
      <section
        aria-label={t`Swap day`}
        className="flex flex-wrap items-start gap-3 rounded-xl border border-brand-200 bg-brand-50 p-4 text-sm text-brand-900"
      >
        <CalendarDays className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
        <p className="min-w-0 flex-1">
          <span className="font-semibold">
            <Trans>Part of the swap day {name}.</Trans>
          </span>{' '}
          {circle ? circlePathText(circle) : null}
        </p>
        <Link href={paths.swapDay(swapDay.id)} className="font-medium underline">
          <Trans>See the swap day</Trans>
        </Link>
      </section>
    );
  }
  return (
    <section
      aria-label={t`Trade circle`}
      className="flex flex-wrap items-start gap-3 rounded-xl border border-brand-200 bg-brand-50 p-4 text-sm text-brand-900"
    >
      <Repeat className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
      <p className="min-w-0 flex-1">
        <span className="font-semibold">
          <Trans>Part of a trade circle.</Trans>
        </span>{' '}
        {circle ? circlePathText(circle) : null}
      </p>
      <Link href={paths.circle(circleId)} className="font-medium underline">
        <Trans>See the whole circle</Trans>
      </Link>
    </section>
  );
}

/**
 * A hand-over moves one item one way: "You give X to Y" or "You get X from Y". What comes back comes
 * from another member of the circle, in the viewer's other hand-over, linked beside it.
 */
function HandOverSide({ barter, circle }: { barter: Barter; circle: Circle | undefined }) {
  const { t } = useLingui();
  const { mine, theirs } = sidesOf(barter);
  const giving = barter.role === 'sender';
  const receiver = barter.otherMember.displayName;
  const giver = receiver;
  const open = barter.status === 'pending' || barter.status === 'accepted';
  const other = circle
    ? giving
      ? { id: circle.getBarterId, text: youGetText(circle) }
      : { id: circle.giveBarterId, text: youGiveText(circle) }
    : null;
  const item = titlesOf(giving ? mine : theirs);
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <SideList
        heading={giving ? t`You give ${item} to ${receiver}` : t`You get ${item} from ${giver}`}
        items={giving ? mine : theirs}
        markUnavailable={open}
      />
      {other?.id ? (
        <section aria-labelledby="other-hand-over-heading" className="grid content-start gap-2">
          <h2 id="other-hand-over-heading" className="font-semibold">
            <Trans>Your other hand-over</Trans>
          </h2>
          <Link
            href={paths.barter(other.id)}
            className="flex items-center gap-3 rounded-lg border border-slate-200 bg-white p-3 text-sm font-medium text-brand-800 hover:border-brand-300"
          >
            <span className="min-w-0 flex-1 underline">{other.text}</span>
            <ArrowRight className="h-4 w-4 shrink-0" aria-hidden="true" />
          </Link>
        </section>
      ) : null}
    </div>
  );
}

/** What each side gives; while the barter is open, items that can no longer change hands are marked. */
function Sides({ barter }: { barter: Barter }) {
  const { t } = useLingui();
  const { mine, theirs } = sidesOf(barter);
  const open = barter.status === 'pending' || barter.status === 'accepted';
  const name = barter.otherMember.displayName;
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <SideList heading={t`You give`} items={mine} markUnavailable={open} />
      <SideList heading={t`${name} gives`} items={theirs} markUnavailable={open} />
    </div>
  );
}

function SideList({
  heading,
  items,
  markUnavailable,
}: {
  heading: string;
  items: readonly BarterItem[];
  markUnavailable: boolean;
}) {
  return (
    <section aria-label={heading} className="grid content-start gap-2">
      <h2 className="font-semibold">{heading}</h2>
      <ul className="grid gap-2">
        {items.map((item, index) => (
          <li
            key={item.id ?? `gone-${index}`}
            className="flex items-center gap-3 rounded-lg border border-slate-200 bg-white p-2"
          >
            <ListingImage
              thumbnail
              src={item.thumbnailUrl}
              className="h-12 w-12 shrink-0 rounded-md text-[10px]"
            />
            {/* The item's own page (issue 31); a deleted item (no id) is its title alone. */}
            {item.id !== null ? (
              <Link
                href={paths.item(item.id)}
                className="min-w-0 flex-1 truncate rounded-sm text-sm underline decoration-slate-400 underline-offset-2 hover:decoration-current"
              >
                {item.title}
              </Link>
            ) : (
              <span className="min-w-0 flex-1 truncate text-sm">{item.title}</span>
            )}
            {item.isService ? (
              <Badge tone="accent">
                <Trans>Service</Trans>
              </Badge>
            ) : null}
            {markUnavailable && !item.available ? (
              <Badge className="bg-red-100 text-red-900">
                <Trans>No longer available</Trans>
              </Badge>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

const DONE_TITLES: Record<SimpleBarterAction, MessageDescriptor> = {
  accept: msg`Barter Accepted`,
  decline: msg`Proposal Declined`,
  withdraw: msg`Proposal Withdrawn`,
  confirm: msg`Completion Confirmed`,
};

/** The buttons of the actions the server allows the viewer now, and nothing else. */
function Actions({ barter }: { barter: Barter }) {
  const { t } = useLingui();
  const action = useBarterAction(barter.id);
  const [cancelling, setCancelling] = useState(false);
  const [countering, setCountering] = useState(false);
  const buttons = barter.allowedActions.filter(
    (allowed): allowed is Exclude<BarterAction, 'message' | 'rate'> =>
      allowed !== 'message' && allowed !== 'rate',
  );
  if (buttons.length === 0) return null;

  const run = (name: SimpleBarterAction) =>
    action.mutate(name, {
      onSuccess: (next) =>
        toast({
          title:
            name === 'confirm' && next.status === 'completed' ? t`Barter Completed` : t(DONE_TITLES[name]),
        }),
      onError: (error) =>
        toast({
          title: t`Error`,
          description: serverMessageOf(error, t`That did not work. Please try again.`),
          variant: 'destructive',
        }),
    });

  return (
    <section aria-label={t`Actions`} className="grid gap-2">
      {buttons.includes('confirm') ? (
        <p className="text-sm text-slate-700">
          <Trans>
            Confirm once the exchange has happened. Both of you confirm; the barter completes when you both
            have.
          </Trans>
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {buttons.map((name) => {
          if (name === 'cancel') {
            return (
              <CancelBarterDialog
                key={name}
                barter={barter}
                open={cancelling}
                onOpenChange={setCancelling}
                trigger={<Button variant="destructive">{t(BARTER_ACTION_MESSAGES.cancel)}</Button>}
              />
            );
          }
          if (name === 'counter') {
            return (
              <ProposalDialog
                key={name}
                open={countering}
                onOpenChange={setCountering}
                target={{ mode: 'counter', barter }}
                trigger={<Button variant="secondary">{t(BARTER_ACTION_MESSAGES.counter)}</Button>}
              />
            );
          }
          return (
            <Button
              key={name}
              variant={name === 'accept' || name === 'confirm' ? 'primary' : 'secondary'}
              disabled={action.isPending}
              onClick={() => run(name)}
            >
              {t(BARTER_ACTION_MESSAGES[name])}
            </Button>
          );
        })}
      </div>
    </section>
  );
}
