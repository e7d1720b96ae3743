import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { ArrowLeft, CalendarDays, Clock, LoaderCircle, MapPin, Printer } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { Link } from 'wouter';
import {
  SWAP_DAY_MAX_OFFERS_PER_MEMBER,
  type SwapDay,
  type SwapDayHandOver,
  type SwapDayItem,
} from '#common/schemas/swap-days.ts';
import { DetailScreen } from '#web/components/detail-screen.tsx';
import { MemberLink } from '#web/components/member-link.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent } from '#web/components/ui/dialog.tsx';
import { ListingImage } from '#web/components/ui/listing-image.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { serverMessageOf } from '#web/lib/api-client.ts';
import { BARTER_STATUS_MESSAGES } from '#web/lib/barter-labels.ts';
import { paths } from '#web/lib/paths.ts';
import { type SwapDayChange, useSwapDay, useSwapDayChange } from '../api/swap-days';
import { formatWhen, membersText } from '../swap-day-format';
import {
  SWAP_DAY_MATCH_FAILURE_MESSAGES,
  SWAP_DAY_MATCH_STAGE_MESSAGES,
  SWAP_DAY_STATUS_MESSAGES,
} from '../swap-day-labels';
import { RankingEditor } from './ranking-editor';
import { statusTone } from './swap-days-screen';

const DONE_TITLES: Record<SwapDayChange['kind'], MessageDescriptor> = {
  join: msg`Joined Swap Day`,
  leave: msg`Left Swap Day`,
  offer: msg`Items Offered`,
  withdraw: msg`Offer Withdrawn`,
  rank: msg`Ranking Saved`,
  close: msg`Matching Started`,
  cancel: msg`Swap Day Canceled`,
};

/** Send a change; a toast says how it went. Resolves true when it worked. */
function useChange(id: number) {
  const { t, i18n } = useLingui();
  const mutation = useSwapDayChange(id);
  const run = async (change: SwapDayChange): Promise<boolean> => {
    try {
      await mutation.mutateAsync(change);
      toast({ title: i18n._(DONE_TITLES[change.kind]) });
      return true;
    } catch (error) {
      toast({
        title: t`Error`,
        description: serverMessageOf(error, t`That did not work. Please try again.`),
        variant: 'destructive',
      });
      return false;
    }
  };
  return { run, mutation };
}

/** One swap day's page: when and where, what the viewer may do, their items and rankings, the result. */
export function SwapDayDetail({ id }: { id: number }) {
  const { t } = useLingui();
  const query = useSwapDay(id);
  return (
    <DetailScreen
      query={query}
      back={<BackToSwapDays />}
      missing={t`This swap day does not exist, or it is not near enough to you to see.`}
      failed={t`This swap day could not be loaded. Please try again.`}
    >
      {(swapDay) => (
        <article aria-labelledby="swap-day-heading" className="grid gap-6">
          <BackToSwapDays />
          <Header swapDay={swapDay} />
          <StateNote swapDay={swapDay} />
          <Actions swapDay={swapDay} />
          {swapDay.result && swapDay.joined ? <Results swapDay={swapDay} /> : null}
          {swapDay.joined ? <YourItems swapDay={swapDay} /> : null}
          <OfferedItems swapDay={swapDay} />
          <Members swapDay={swapDay} />
        </article>
      )}
    </DetailScreen>
  );
}

function BackToSwapDays() {
  return (
    <Button asChild variant="ghost" className="justify-self-start">
      <Link href={paths.swapDays}>
        <ArrowLeft className="h-4 w-4" aria-hidden="true" />
        <Trans>All Swap Days</Trans>
      </Link>
    </Button>
  );
}

function Header({ swapDay }: { swapDay: SwapDay }) {
  const { t } = useLingui();
  const members = membersText(swapDay.memberCount);
  return (
    <header className="grid gap-2">
      <div className="flex flex-wrap items-center gap-3">
        <h1 id="swap-day-heading" className="text-2xl font-bold">
          {swapDay.name}
        </h1>
        <Badge tone={statusTone(swapDay.status)}>{t(SWAP_DAY_STATUS_MESSAGES[swapDay.status])}</Badge>
      </div>
      <dl className="grid gap-1 text-sm text-slate-700 sm:grid-cols-[auto_1fr] sm:gap-x-3">
        <dt className="inline-flex items-center gap-1 font-medium">
          <CalendarDays className="h-4 w-4 text-slate-500" aria-hidden="true" />
          <Trans>When</Trans>
        </dt>
        <dd>
          <time dateTime={swapDay.startsAt}>{formatWhen(swapDay.startsAt)}</time>
        </dd>
        <dt className="inline-flex items-center gap-1 font-medium">
          <MapPin className="h-4 w-4 text-slate-500" aria-hidden="true" />
          <Trans>Where</Trans>
        </dt>
        <dd>{swapDay.place}</dd>
        <dt className="inline-flex items-center gap-1 font-medium">
          <Clock className="h-4 w-4 text-slate-500" aria-hidden="true" />
          <Trans>Want lists close</Trans>
        </dt>
        <dd>
          <time dateTime={swapDay.deadline}>{formatWhen(swapDay.deadline)}</time>
        </dd>
      </dl>
      <p className="text-sm text-slate-600">
        {swapDay.isOrganiser ? (
          <Trans>Organized by you, {members}.</Trans>
        ) : (
          <Trans>
            Organized by <MemberLink id={swapDay.organiser.id} name={swapDay.organiser.displayName} />,{' '}
            {members}.
          </Trans>
        )}
      </p>
    </header>
  );
}

/** What the state means for the viewer now. */
function StateNote({ swapDay }: { swapDay: SwapDay }) {
  const { t } = useLingui();
  const itemsTraded = swapDay.result?.itemsTraded ?? 0;
  const membersTrading = swapDay.result?.membersTrading ?? 0;
  let text: ReactNode;
  switch (swapDay.status) {
    case 'open':
      text = swapDay.joined
        ? t`Offer the items you bring, and for each one rank what you would accept, most wanted first. You can change both until want lists close.`
        : t`Join to offer your items and rank what you would accept in exchange.`;
      break;
    case 'closed':
      text = t`Want lists are closed. Everyone is being matched now; your hand-overs show here shortly.`;
      break;
    case 'matching':
      // The live stream brings each stage and then the result: no reload needed (ADR 050).
      text = (
        <span className="inline-flex items-start gap-2">
          <LoaderCircle
            className="mt-0.5 h-4 w-4 shrink-0 animate-spin motion-reduce:animate-none"
            aria-hidden="true"
          />
          <span>
            {t(SWAP_DAY_MATCH_STAGE_MESSAGES[swapDay.matchStage ?? 'waiting'])}{' '}
            {t`Your hand-overs show here as soon as it is done.`}
          </span>
        </span>
      );
      break;
    case 'failed': {
      const reason = t(SWAP_DAY_MATCH_FAILURE_MESSAGES[swapDay.matchFailure ?? 'error']);
      text = swapDay.isOrganiser
        ? t`${reason} Nobody was matched yet. Try matching again, or cancel the swap day.`
        : t`${reason} Nobody was matched yet; the organizer can try again.`;
      break;
    }
    case 'solved':
      text = swapDay.result ? (
        <Trans>
          Matched: <Plural value={itemsTraded} one="# item changes" other="# items change" /> hands among{' '}
          <Plural value={membersTrading} one="# neighbor" other="# neighbors" />.
        </Trans>
      ) : (
        t`Matched.`
      );
      break;
    case 'cancelled':
      text = t`This swap day was canceled by its organizer.`;
      break;
  }
  return (
    <p role="status" className="rounded-xl bg-slate-100 p-4 text-sm text-slate-800">
      {text}
    </p>
  );
}

/** Ask before a step that cannot be undone. */
function ConfirmButton({
  label,
  title,
  description,
  confirmLabel,
  keepLabel,
  variant,
  pending,
  onConfirm,
}: {
  label: string;
  title: string;
  description: string;
  confirmLabel: string;
  keepLabel: string;
  variant: 'primary' | 'secondary' | 'destructive';
  pending: boolean;
  onConfirm: () => Promise<boolean>;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant={variant} onClick={() => setOpen(true)}>
        {label}
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent title={title} description={description}>
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={() => setOpen(false)}>
              {keepLabel}
            </Button>
            <Button
              variant={variant === 'secondary' ? 'primary' : variant}
              disabled={pending}
              onClick={async () => {
                if (await onConfirm()) setOpen(false);
              }}
            >
              {confirmLabel}
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </>
  );
}

/** The buttons of what the server allows the viewer now. */
function Actions({ swapDay }: { swapDay: SwapDay }) {
  const { t } = useLingui();
  const { run, mutation } = useChange(swapDay.id);
  const allowed = swapDay.allowedActions;
  const pending = mutation.isPending;
  const buttons: ReactNode[] = [];
  if (allowed.includes('join')) {
    buttons.push(
      <Button key="join" disabled={pending} onClick={() => run({ kind: 'join' })}>
        <Trans>Join Swap Day</Trans>
      </Button>,
    );
  }
  if (allowed.includes('close') && swapDay.status === 'failed') {
    buttons.push(
      <Button key="retry" disabled={pending} onClick={() => run({ kind: 'close' })}>
        <Trans>Try Matching Again</Trans>
      </Button>,
    );
  } else if (allowed.includes('close')) {
    buttons.push(
      <ConfirmButton
        key="close"
        label={t`Close want lists and match now`}
        title={t`Close want lists and match now?`}
        description={t`Nobody can join, offer or change a ranking after this. Everyone is matched at once and sees what they give and get.`}
        confirmLabel={t`Close and Match`}
        keepLabel={t`Not Yet`}
        variant="primary"
        pending={pending}
        onConfirm={() => run({ kind: 'close' })}
      />,
    );
  }
  if (allowed.includes('leave')) {
    buttons.push(
      <ConfirmButton
        key="leave"
        label={t`Leave Swap Day`}
        title={t`Leave this swap day?`}
        description={t`Your offers and rankings are removed. You can join again while want lists are open.`}
        confirmLabel={t`Leave`}
        keepLabel={t`Stay`}
        variant="secondary"
        pending={pending}
        onConfirm={() => run({ kind: 'leave' })}
      />,
    );
  }
  if (allowed.includes('cancel')) {
    buttons.push(
      <ConfirmButton
        key="cancel"
        label={t`Cancel Swap Day`}
        title={t`Cancel this swap day?`}
        description={t`Nobody is matched, and every member sees that it was canceled.`}
        confirmLabel={t`Cancel Swap Day`}
        keepLabel={t`Keep Swap Day`}
        variant="destructive"
        pending={pending}
        onConfirm={() => run({ kind: 'cancel' })}
      />,
    );
  }
  if (swapDay.result && swapDay.joined) {
    buttons.push(
      <Button key="sheet" asChild variant="secondary">
        <Link href={paths.swapDaySheet(swapDay.id)}>
          <Printer className="h-4 w-4" aria-hidden="true" />
          {swapDay.isOrganiser ? t`Pick-up sheet` : t`Your pick-up sheet`}
        </Link>
      </Button>,
    );
  }
  if (buttons.length === 0) return null;
  return (
    <section aria-label={t`Actions`} className="flex flex-wrap gap-2">
      {buttons}
    </section>
  );
}

function HandOverLine({ handOver, direction }: { handOver: SwapDayHandOver; direction: 'give' | 'get' }) {
  const { t } = useLingui();
  const item = handOver.item.title;
  const member = handOver.member.displayName;
  const sentence =
    direction === 'give' ? t`You give ${item} to ${member}` : t`You get ${item} from ${member}`;
  return (
    <li className="flex flex-wrap items-center gap-2 rounded-lg border border-slate-200 bg-white p-3 text-sm">
      {handOver.barterId !== null ? (
        <Link href={paths.barter(handOver.barterId)} className="font-medium text-brand-800 underline">
          {sentence}
        </Link>
      ) : (
        <span className="font-medium">{sentence}</span>
      )}
      {handOver.barterStatus ? (
        <Badge tone={handOver.barterStatus === 'completed' ? 'success' : 'neutral'}>
          {t(BARTER_STATUS_MESSAGES[handOver.barterStatus])}
        </Badge>
      ) : null}
    </li>
  );
}

/** What the viewer gives and gets, each linking to its hand-over barter (confirm, talk, rate). */
function Results({ swapDay }: { swapDay: SwapDay }) {
  const { t } = useLingui();
  const result = swapDay.result;
  if (!result) return null;
  const none = result.gives.length === 0 && result.gets.length === 0;
  return (
    <section aria-labelledby="hand-overs-heading" className="grid gap-3">
      <h2 id="hand-overs-heading" className="text-lg font-semibold">
        <Trans>Your hand-overs</Trans>
      </h2>
      {none ? (
        <p className="text-sm text-slate-700">
          <Trans>
            Nothing matched for you this time: none of the items you would accept came around to you.
          </Trans>
        </p>
      ) : (
        <>
          <p className="text-sm text-slate-700">
            <Trans>
              Each hand-over is an accepted barter: talk there, meet at the swap day, and confirm once it is
              done.
            </Trans>
          </p>
          <div className="grid gap-4 md:grid-cols-2">
            <div className="grid content-start gap-2">
              <h3 className="font-semibold">
                <Trans>What you give</Trans>
              </h3>
              <ul aria-label={t`What you give`} className="grid gap-2">
                {result.gives.map((handOver) => (
                  <HandOverLine
                    key={`${handOver.loop}-${handOver.item.id}`}
                    handOver={handOver}
                    direction="give"
                  />
                ))}
              </ul>
            </div>
            <div className="grid content-start gap-2">
              <h3 className="font-semibold">
                <Trans>What you get</Trans>
              </h3>
              <ul aria-label={t`What you get`} className="grid gap-2">
                {result.gets.map((handOver) => (
                  <HandOverLine
                    key={`${handOver.loop}-${handOver.item.id}`}
                    handOver={handOver}
                    direction="get"
                  />
                ))}
              </ul>
            </div>
          </div>
        </>
      )}
    </section>
  );
}

/** Before matching, items that can no longer trade are marked; after it, the result says what traded. */
const stillMatching = (swapDay: SwapDay) => swapDay.status !== 'solved' && swapDay.status !== 'cancelled';

function ItemLine({
  item,
  markUnavailable = true,
  children,
}: {
  item: SwapDayItem;
  markUnavailable?: boolean;
  children?: ReactNode;
}) {
  return (
    <>
      <span aria-hidden="true" className="shrink-0">
        <ListingImage thumbnail src={item.thumbnailUrl} className="h-10 w-10 rounded-md text-[10px]" />
      </span>
      <span className="min-w-0 flex-1 text-sm">
        <span className="font-medium text-slate-900">{item.title}</span>
        {children}
      </span>
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
    </>
  );
}

/** Choose items of yours to offer (checkboxes), then offer them. */
function OfferForm({ swapDay, mineCount }: { swapDay: SwapDay; mineCount: number }) {
  const { t } = useLingui();
  const id = useId();
  const { run, mutation } = useChange(swapDay.id);
  const [chosen, setChosen] = useState<number[]>([]);
  const room = SWAP_DAY_MAX_OFFERS_PER_MEMBER - mineCount;
  const maxOffers = SWAP_DAY_MAX_OFFERS_PER_MEMBER;
  if (swapDay.offerableItems.length === 0) {
    return (
      <p className="text-sm text-slate-600">
        {mineCount === 0
          ? t`You have no items to offer yet. Use Add Item to list something you would bring.`
          : t`All your available items are offered.`}
      </p>
    );
  }
  return (
    <form
      className="grid gap-3"
      onSubmit={async (event) => {
        event.preventDefault();
        if (chosen.length === 0) return;
        if (await run({ kind: 'offer', itemIds: chosen })) setChosen([]);
      }}
    >
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-semibold text-slate-900">
          <Trans>Choose items to offer</Trans>
        </legend>
        <ul className="grid gap-2 sm:grid-cols-2">
          {swapDay.offerableItems.map((item) => {
            const checkboxId = `${id}-${item.id}`;
            return (
              <li key={item.id}>
                <label
                  htmlFor={checkboxId}
                  className="flex cursor-pointer items-center gap-3 rounded-lg border border-slate-200 bg-white p-2 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
                >
                  <input
                    id={checkboxId}
                    type="checkbox"
                    className="h-4 w-4 shrink-0 accent-brand-700"
                    checked={chosen.includes(item.id)}
                    onChange={(event) =>
                      setChosen(
                        event.target.checked
                          ? [...chosen, item.id]
                          : chosen.filter((other) => other !== item.id),
                      )
                    }
                  />
                  <ItemLine item={item} />
                </label>
              </li>
            );
          })}
        </ul>
      </fieldset>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={chosen.length === 0 || chosen.length > room || mutation.isPending}>
          {mutation.isPending ? t`Offering...` : t`Offer Selected Items`}
        </Button>
        <span className="text-sm text-slate-600">
          {chosen.length > room ? (
            <Plural
              value={room}
              one="You can offer # more item at this swap day."
              other="You can offer # more items at this swap day."
            />
          ) : (
            t`Up to ${maxOffers} items in all.`
          )}
        </span>
      </div>
    </form>
  );
}

/** The viewer's offers, each with its ranking of what they would accept, and offering more. */
function YourItems({ swapDay }: { swapDay: SwapDay }) {
  const { t } = useLingui();
  const { run, mutation } = useChange(swapDay.id);
  const editable = swapDay.allowedActions.includes('offer');
  const mine = swapDay.offers.filter((offer) => offer.mine);
  const others = swapDay.offers.filter((offer) => !offer.mine);
  const savingFor = (itemId: number) =>
    mutation.isPending && mutation.variables?.kind === 'rank' && mutation.variables.itemId === itemId;
  if (!editable && mine.length === 0) return null;
  return (
    <section aria-labelledby="your-items-heading" className="grid gap-4">
      <h2 id="your-items-heading" className="text-lg font-semibold">
        <Trans>Your items</Trans>
      </h2>
      {editable ? <OfferForm swapDay={swapDay} mineCount={mine.length} /> : null}
      {mine.length > 0 ? (
        <div className="grid gap-3">
          <p className="text-sm text-slate-700">
            <Trans>
              For each item you bring, rank what you would accept in exchange, most wanted first. You get at
              most one of them for it, and only if a loop of neighbors comes around to you.
            </Trans>
          </p>
          {mine.map((offer) => {
            const title = offer.item.title;
            return (
              <RankingEditor
                key={`${offer.item.id}:${offer.wantedItemIds.join(',')}`}
                offer={offer}
                candidates={others}
                editable={editable}
                markUnavailable={stillMatching(swapDay)}
                saving={savingFor(offer.item.id)}
                onSave={(wantedItemIds) => void run({ kind: 'rank', itemId: offer.item.id, wantedItemIds })}
                actions={
                  editable ? (
                    <Button
                      variant="ghost"
                      size="sm"
                      disabled={mutation.isPending}
                      aria-label={t`Withdraw ${title}`}
                      onClick={() => void run({ kind: 'withdraw', itemId: offer.item.id })}
                    >
                      <Trans>Withdraw</Trans>
                    </Button>
                  ) : null
                }
              />
            );
          })}
        </div>
      ) : null}
    </section>
  );
}

/** What the other members bring (the viewer's own are under Your items). */
function OfferedItems({ swapDay }: { swapDay: SwapDay }) {
  const others = swapDay.offers.filter((offer) => !offer.mine);
  return (
    <section aria-labelledby="offered-heading" className="grid gap-3">
      <h2 id="offered-heading" className="text-lg font-semibold">
        <Trans>Items neighbors bring</Trans>
      </h2>
      {others.length === 0 ? (
        <p className="text-sm text-slate-600">
          <Trans>No other member has offered anything yet.</Trans>
        </p>
      ) : (
        <ul aria-labelledby="offered-heading" className="grid gap-2 sm:grid-cols-2">
          {others.map((offer) => {
            const owner = offer.owner.displayName;
            return (
              <li
                key={offer.item.id}
                className="flex items-center gap-3 rounded-lg border border-slate-200 bg-white p-2"
              >
                <ItemLine item={offer.item} markUnavailable={stillMatching(swapDay)}>
                  <span className="text-slate-600">
                    {' '}
                    <Trans>from {owner}</Trans>
                  </span>
                </ItemLine>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function Members({ swapDay }: { swapDay: SwapDay }) {
  return (
    <section aria-labelledby="members-heading" className="grid gap-3">
      <h2 id="members-heading" className="text-lg font-semibold">
        <Trans>Members</Trans>
      </h2>
      <ul className="flex flex-wrap gap-2">
        {swapDay.members.map((member, index) => (
          <li key={member.id ?? `former-${index}`} className="rounded-full bg-slate-100 px-3 py-1 text-sm">
            <MemberLink id={member.id} name={member.displayName} />
            {member.id === swapDay.organiser.id ? (
              <span className="text-slate-600">
                {' '}
                <Trans>(organizer)</Trans>
              </span>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
