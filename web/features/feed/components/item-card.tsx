import { Trans, useLingui } from '@lingui/react/macro';
import { ArrowLeftRight, Check, MapPin, Repeat, Sparkles, Star } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { Link } from 'wouter';
import type { FeedItem, OpenBarter } from '#common/schemas/feed.ts';
import { ProposeBarterButton } from '#web/components/feature-slots.tsx';
import { MemberLink } from '#web/components/member-link.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { ListingImage } from '#web/components/ui/listing-image.tsx';
import { formatDistance } from '#web/i18n/format.ts';
import { withMessages } from '#web/i18n/i18n.ts';
import { translateKnown } from '#web/i18n/known-messages.ts';
import { handOverRecordText } from '#web/lib/hand-over-record.ts';
import { conditionLabel } from '#web/lib/item-condition.ts';
import { ownerName } from '#web/lib/owner-name.ts';
import { paths } from '#web/lib/paths.ts';
import { traderRating } from '#web/lib/trader-rating.ts';
import { SaveToggle } from './save-toggle';

/** What matched (ADR 089), a line that loads beside the feed's first screen, not in it (ADR 033). */
const MatchReasonText = lazy(() =>
  withMessages(() => import('./match-reason-text')).then((module) => ({ default: module.MatchReasonText })),
);

/**
 * An item card (spec section 2 with docs/product.md's real values): photo, title, description, owner,
 * Looking for, Propose Barter, save toggle, Service badge, match (Barter Match only), distance, rating.
 */
export function ItemCard({
  item,
  showMatch,
  onOpen,
  own = false,
  eager = false,
}: {
  item: FeedItem;
  showMatch: boolean;
  onOpen: (item: FeedItem) => void;
  /** The viewer's own item (their member page): nothing to save or propose. */
  own?: boolean;
  /** Above the fold (the first cards of a feed): its photo loads at once, the first one first (ADR 033). */
  eager?: boolean | 'first';
}) {
  const { t } = useLingui();
  const distance = formatDistance(item.distanceMiles);
  const score = item.match?.score;
  const wantTitle = item.match?.wantTitle;
  const theirWantTitle = item.match?.theirWantTitle;
  const title = item.title;
  return (
    <article
      aria-labelledby={`item-${item.id}-title`}
      className="flex flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm"
    >
      <div className="relative">
        <ListingImage
          src={item.thumbnailUrl ?? item.imageUrl}
          category={item.category}
          lazy={!eager}
          priority={eager === 'first'}
          className="aspect-[4/3] w-full text-sm"
        />
        <div className="absolute top-2 left-2 flex gap-1">
          {item.isService ? (
            <Badge tone="accent">
              <Trans>Service</Trans>
            </Badge>
          ) : null}
          {showMatch && item.match ? (
            <Badge tone="success">
              <Sparkles className="h-3 w-3" aria-hidden="true" />
              <Trans>{score}% match</Trans>
            </Badge>
          ) : null}
        </div>
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <div className="flex items-start justify-between gap-2">
          <h3 id={`item-${item.id}-title`} className="font-semibold text-slate-900">
            <button
              type="button"
              onClick={() => onOpen(item)}
              className="text-left hover:underline focus-visible:underline"
            >
              {item.title}
            </button>
          </h3>
          {own ? null : <SaveToggle itemId={item.id} title={item.title} initiallySaved={item.isSaved} />}
        </div>
        <p className="line-clamp-2 text-sm text-slate-600">{item.description}</p>
        {showMatch && item.match ? (
          <ul className="grid gap-0.5 text-xs text-green-800">
            <li>
              <Trans>Matches your want: {wantTitle}</Trans>
            </li>
            {item.match.reason ? (
              <Suspense fallback={null}>
                <MatchReasonText reason={item.match.reason} />
              </Suspense>
            ) : null}
            {item.match.mutual ? (
              <li>
                {theirWantTitle != null ? (
                  <Trans>They want {theirWantTitle}</Trans>
                ) : (
                  <Trans>They want something you offer</Trans>
                )}
              </li>
            ) : null}
          </ul>
        ) : null}
        {showMatch && item.match?.circle ? (
          // A trade circle proposed to the viewer would bring them this item (issue 16).
          <div className="grid justify-items-start gap-1 rounded-lg border border-brand-200 bg-brand-50 p-2 text-xs text-brand-900">
            <Badge tone="brand">
              <Repeat className="h-3 w-3" aria-hidden="true" />
              <Trans>In a trade circle</Trans>
            </Badge>
            <p>{item.match.circle.path}</p>
            <Link href={paths.circle(item.match.circle.circleId)} className="font-medium underline">
              <Trans>
                See the trade circle <span className="sr-only">for {title}</span>
              </Trans>
            </Link>
          </div>
        ) : null}
        <div className="rounded-lg bg-brand-50 p-2 text-xs text-brand-900">
          <span className="font-semibold">{t`Looking for:`} </span>
          {item.lookingFor.length > 0 ? item.lookingFor.join(', ') : t`Open to offers`}
        </div>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600">
          <MemberLink id={item.user.id} name={ownerName(item.user)} className="font-medium text-slate-800" />
          <span className="flex items-center gap-1">
            <Star className="h-3 w-3 fill-amber-400 text-amber-500" aria-hidden="true" />
            {traderRating({ totalTrades: item.owner.completedTrades, rating: item.owner.rating })}
          </span>
          <HandOverRecordLine record={item.owner.handOvers} />
          <span className="flex items-center gap-1">
            <MapPin className="h-3 w-3" aria-hidden="true" />
            {distance ?? t`Set location to see distance`}
          </span>
        </div>
        <div className="mt-auto flex items-center justify-between gap-2 pt-2">
          <span className="flex flex-wrap gap-1">
            <Badge>{translateKnown(item.category)}</Badge>
            {item.condition ? (
              <Badge tone="success">{t`Condition: ${conditionLabel(item.condition)}`}</Badge>
            ) : null}
          </span>
          {own ? null : item.openBarter ? (
            <span className="flex flex-wrap items-center justify-end gap-2">
              <OpenBarterBadge barter={item.openBarter} />
              <ViewBarterLink barter={item.openBarter} title={item.title} />
            </span>
          ) : (
            <ProposeBarterButton item={item} offerItemId={item.match?.yourItemId} />
          )}
        </div>
      </div>
    </article>
  );
}

/** The loading placeholder of a card. */
export function ItemCardSkeleton() {
  return (
    <div
      aria-hidden="true"
      className="animate-pulse overflow-hidden rounded-2xl border border-slate-200 bg-white"
    >
      <div className="aspect-[4/3] bg-slate-200" />
      <div className="grid gap-2 p-4">
        <div className="h-4 w-2/3 rounded bg-slate-200" />
        <div className="h-3 w-full rounded bg-slate-200" />
        <div className="h-3 w-5/6 rounded bg-slate-200" />
      </div>
    </div>
  );
}

/** "Kept N of M hand-overs" under the rating (ADR 079); nothing while the owner has none due. */
function HandOverRecordLine({ record }: { record: FeedItem['owner']['handOvers'] | undefined }) {
  const text = handOverRecordText(record);
  return text ? <span>{text}</span> : null;
}

// The pending barter's badge and link live with the card (the item's detail uses them too): kept
// in the card's module so the feed's first screen loads no chunk of their own.
/**
 * Says on a card or an item's detail that the viewer already has a pending barter on the item
 * (issue 28): "You proposed", or "Proposed to you" when the owner proposed it to them.
 */
export function OpenBarterBadge({ barter }: { barter: OpenBarter }) {
  return (
    <Badge tone="brand">
      <Check className="h-3 w-3" aria-hidden="true" />
      {barter.proposedByYou ? <Trans>You proposed</Trans> : <Trans>Proposed to you</Trans>}
    </Badge>
  );
}

/** In place of Propose Barter when a barter on the item is open: it leads there, not to a second one. */
export function ViewBarterLink({
  barter,
  title,
  onNavigate,
}: {
  barter: OpenBarter;
  /** The item's title, for screen readers ("View Barter for Cordless drill"). */
  title: string;
  onNavigate?: () => void;
}) {
  return (
    <Button asChild size="sm" variant="secondary">
      <Link href={paths.barter(barter.id)} onClick={onNavigate}>
        <ArrowLeftRight className="h-4 w-4" aria-hidden="true" />
        <Trans>
          View Barter <span className="sr-only">for {title}</span>
        </Trans>
      </Link>
    </Button>
  );
}
