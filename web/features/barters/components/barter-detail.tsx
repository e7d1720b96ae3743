import { ArrowLeft, ArrowRight, Repeat } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import {
  BARTER_ACTION_LABELS,
  BARTER_STATUS_LABELS,
  type BarterAction,
  PENDING_EXPIRY_DAYS,
} from '../../../../common/barter-machine';
import type { Barter, BarterItem } from '../../../../common/schemas/barters';
import { type Circle, circlePath } from '../../../../common/schemas/circles';
import { paths } from '../../../app/paths';
import { MemberLink } from '../../../components/member-link';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ListingImage } from '../../../components/ui/listing-image';
import { toast } from '../../../components/ui/use-toast';
import { ApiError, serverMessageOf } from '../../../lib/api-client';
import { useCircle } from '../../circles/api/circles';
import { circleMemberNames } from '../../circles/circle-format';
import { type SimpleBarterAction, useBarter, useBarterAction } from '../api/barters';
import { formatDateTime, sidesOf, titlesOf } from '../barter-sides';
import { CancelBarterDialog } from './cancel-barter-dialog';
import { Conversation } from './conversation';
import { ProposalDialog } from './proposal-dialog';
import { RatingForm, Ratings } from './rating-form';

/** One barter's page: both sides, its state, what the viewer may do, the ratings and the conversation. */
export function BarterDetail({ id }: { id: number }) {
  const { data: barter, isLoading, error } = useBarter(id);
  // A trade circle's hand-over: the circle names everyone in its shared conversation.
  const circle = useCircle(barter?.circleId ?? null);
  if (isLoading) return <p className="text-slate-600">Loading...</p>;
  if (!barter) {
    const missing = error instanceof ApiError && error.status === 404;
    return (
      <div className="grid gap-3">
        <BackToBarters />
        <p className={missing ? 'text-slate-700' : 'text-red-700'}>
          {missing
            ? 'This barter does not exist, or it is not yours to see.'
            : 'This barter could not be loaded. Please try again.'}
        </p>
      </div>
    );
  }
  return (
    <article aria-labelledby="barter-heading" className="grid gap-6">
      <BackToBarters />
      <header className="grid gap-2">
        <div className="flex flex-wrap items-center gap-3">
          <h1 id="barter-heading" className="text-2xl font-bold">
            Barter with{' '}
            <MemberLink
              id={barter.otherMember.id}
              name={barter.otherMember.displayName}
              className="text-brand-800"
            />
          </h1>
          <Badge tone={barter.status === 'accepted' || barter.status === 'completed' ? 'success' : 'neutral'}>
            {BARTER_STATUS_LABELS[barter.status]}
          </Badge>
        </div>
        <p className="text-sm text-slate-600">
          {barter.circleId !== null
            ? 'A hand-over of a trade circle, since'
            : barter.role === 'sender'
              ? 'You proposed it on'
              : `${barter.otherMember.displayName} proposed it on`}{' '}
          {formatDateTime(barter.createdAt)}.
        </p>
      </header>
      {barter.circleId !== null ? <CircleBanner circleId={barter.circleId} circle={circle.data} /> : null}
      <StateNote barter={barter} />
      {barter.circleId !== null ? (
        <HandOverSide barter={barter} circle={circle.data} />
      ) : (
        <Sides barter={barter} />
      )}
      <Actions barter={barter} />
      <Ratings barter={barter} />
      {barter.allowedActions.includes('rate') ? <RatingForm barter={barter} /> : null}
      {barter.circleId === null ? (
        <Conversation barter={barter} />
      ) : circle.isLoading ? (
        <p className="text-sm text-slate-600">Loading the conversation...</p>
      ) : (
        <Conversation barter={barter} names={circle.data ? circleMemberNames(circle.data) : new Map()} />
      )}
    </article>
  );
}

/** Back to the Barters screen, from a barter's or a trade circle's page. */
export function BackToBarters() {
  return (
    <Button asChild variant="ghost" className="justify-self-start">
      <Link href={paths.barters}>
        <ArrowLeft className="h-4 w-4" aria-hidden="true" />
        All Barters
      </Link>
    </Button>
  );
}

/** What the state means for the viewer, with the dates, the counter links and the close reason. */
function StateNote({ barter }: { barter: Barter }) {
  const name = barter.otherMember.displayName;
  const byMe = barter.closedBy === 'me';
  const lines: string[] = [];
  switch (barter.status) {
    case 'pending':
      lines.push(
        barter.role === 'sender'
          ? `Waiting for ${name} to answer: they can accept, decline or make a counter offer.`
          : `${name} proposed this barter. You can accept it, decline it or make a counter offer.`,
      );
      if (barter.expiresAt) {
        lines.push(
          `Unanswered proposals expire after ${PENDING_EXPIRY_DAYS} days: this one on ${formatDateTime(barter.expiresAt)}.`,
        );
      }
      break;
    case 'accepted':
      lines.push('Accepted: the items are held for this barter. Meet up and make the exchange.');
      if (barter.confirmedByMe) lines.push(`You confirmed the exchange. Waiting for ${name} to confirm.`);
      else if (barter.confirmedByOther)
        lines.push(`${name} confirmed the exchange. Confirm it too once you have yours.`);
      break;
    case 'completed':
      lines.push('Completed: both of you confirmed the exchange.');
      break;
    case 'declined':
      lines.push(byMe ? 'You declined this proposal.' : `${name} declined this proposal.`);
      break;
    case 'withdrawn':
      lines.push(byMe ? 'You withdrew this proposal.' : `${name} withdrew this proposal.`);
      break;
    case 'countered':
      lines.push(
        barter.role === 'recipient'
          ? 'You answered this proposal with a counter offer.'
          : `${name} answered this proposal with a counter offer.`,
      );
      break;
    case 'cancelled':
      lines.push(byMe ? 'You canceled this barter.' : `${name} canceled this barter.`);
      break;
    case 'expired':
      lines.push(`This proposal expired: it was not answered within ${PENDING_EXPIRY_DAYS} days.`);
      break;
  }
  return (
    <section aria-label="State" className="grid gap-1 rounded-xl bg-slate-100 p-4 text-sm text-slate-800">
      {lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
      {barter.closeReason ? (
        <p>
          <span className="font-semibold">Reason: </span>
          <span className="whitespace-pre-line">{barter.closeReason}</span>
        </p>
      ) : null}
      {barter.counterOfId !== null ? (
        <p>
          This is a counter offer to an earlier proposal.{' '}
          <Link href={paths.barter(barter.counterOfId)} className="font-medium text-brand-800 underline">
            See the earlier proposal
          </Link>
        </p>
      ) : null}
      {barter.counteredById !== null ? (
        <p>
          <Link href={paths.barter(barter.counteredById)} className="font-medium text-brand-800 underline">
            See the counter offer
          </Link>
        </p>
      ) : null}
    </section>
  );
}

/** A hand-over's banner: it belongs to a trade circle (the loop in words, once read), and a link there. */
function CircleBanner({ circleId, circle }: { circleId: number; circle: Circle | undefined }) {
  return (
    <section
      aria-label="Trade circle"
      className="flex flex-wrap items-start gap-3 rounded-xl border border-brand-200 bg-brand-50 p-4 text-sm text-brand-900"
    >
      <Repeat className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
      <p className="min-w-0 flex-1">
        <span className="font-semibold">Part of a trade circle.</span>{' '}
        {circle ? `${circlePath(circle)}.` : null}
      </p>
      <Link href={paths.circle(circleId)} className="font-medium underline">
        See the whole circle
      </Link>
    </section>
  );
}

/**
 * A hand-over moves one item one way: "You give X to Y" or "You get X from Y". What comes back comes
 * from another member of the circle, in the viewer's other hand-over, linked beside it.
 */
function HandOverSide({ barter, circle }: { barter: Barter; circle: Circle | undefined }) {
  const { mine, theirs } = sidesOf(barter);
  const giving = barter.role === 'sender';
  const name = barter.otherMember.displayName;
  const open = barter.status === 'pending' || barter.status === 'accepted';
  const other = circle
    ? giving
      ? {
          id: circle.getBarterId,
          text: `You get ${circle.get.item.title} from ${circle.get.from.displayName}`,
        }
      : {
          id: circle.giveBarterId,
          text: `You give ${circle.give.item.title} to ${circle.give.to.displayName}`,
        }
    : null;
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <SideList
        heading={
          giving ? `You give ${titlesOf(mine)} to ${name}` : `You get ${titlesOf(theirs)} from ${name}`
        }
        items={giving ? mine : theirs}
        markUnavailable={open}
      />
      {other?.id ? (
        <section aria-labelledby="other-hand-over-heading" className="grid content-start gap-2">
          <h2 id="other-hand-over-heading" className="font-semibold">
            Your other hand-over
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
  const { mine, theirs } = sidesOf(barter);
  const open = barter.status === 'pending' || barter.status === 'accepted';
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <SideList heading="You give" items={mine} markUnavailable={open} />
      <SideList heading={`${barter.otherMember.displayName} gives`} items={theirs} markUnavailable={open} />
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
            <ListingImage src={item.thumbnailUrl} className="h-12 w-12 shrink-0 rounded-md text-[10px]" />
            <span className="min-w-0 flex-1 truncate text-sm">{item.title}</span>
            {item.isService ? <Badge tone="accent">Service</Badge> : null}
            {markUnavailable && !item.available ? (
              <Badge className="bg-red-100 text-red-900">No longer available</Badge>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

const DONE_TITLES: Record<SimpleBarterAction, string> = {
  accept: 'Barter Accepted',
  decline: 'Proposal Declined',
  withdraw: 'Proposal Withdrawn',
  confirm: 'Completion Confirmed',
};

/** The buttons of the actions the server allows the viewer now, and nothing else. */
function Actions({ barter }: { barter: Barter }) {
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
          title: name === 'confirm' && next.status === 'completed' ? 'Barter Completed' : DONE_TITLES[name],
        }),
      onError: (error) =>
        toast({
          title: 'Error',
          description: serverMessageOf(error, 'That did not work. Please try again.'),
          variant: 'destructive',
        }),
    });

  return (
    <section aria-label="Actions" className="grid gap-2">
      {buttons.includes('confirm') ? (
        <p className="text-sm text-slate-700">
          Confirm once the exchange has happened. Both of you confirm; the barter completes when you both
          have.
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
                trigger={<Button variant="destructive">{BARTER_ACTION_LABELS.cancel}</Button>}
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
                trigger={<Button variant="secondary">{BARTER_ACTION_LABELS.counter}</Button>}
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
              {BARTER_ACTION_LABELS[name]}
            </Button>
          );
        })}
      </div>
    </section>
  );
}
