import { Trans, useLingui } from '@lingui/react/macro';
import { MapPin, Star } from 'lucide-react';
import type { ReactNode } from 'react';
import type { ItemDetail } from '#common/schemas/feed.ts';
import { AreaMap } from '#web/components/area-map.tsx';
import { ProposeBarterButton } from '#web/components/feature-slots.tsx';
import { MemberLink } from '#web/components/member-link.tsx';
import { PhotoGallery } from '#web/components/photo-gallery.tsx';
import { ReportButton } from '#web/components/report-button.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { formatDistance, formatMoney } from '#web/i18n/format.ts';
import { translateKnown } from '#web/i18n/known-messages.ts';
import { handOverRecordText } from '#web/lib/hand-over-record.ts';
import { conditionLabel } from '#web/lib/item-condition.ts';
import { ownerName } from '#web/lib/owner-name.ts';
import { traderRating } from '#web/lib/trader-rating.ts';
import { OpenBarterBadge, ViewBarterLink } from './item-card';
import { SaveToggle } from './save-toggle';

/**
 * What an item's detail shows, in the quick-look dialog and on the item's page alike (issue 31):
 * the photos (PhotoGallery), category, value, the whole description, the owner's first name, rating and hand-over
 * record, the distance (signed in) and the owner's approximate area, and what they are looking for.
 * `actions` go below it (the dialog's and the page's differ).
 */
export function ItemDetailContent({
  item,
  signedIn,
  actions,
  onNavigate,
}: {
  item: ItemDetail;
  /** A member reads it (distance, member link); signed out, the area alone says where. */
  signedIn: boolean;
  actions?: ReactNode;
  /** Runs before a link inside leaves (a dialog closes itself). */
  onNavigate?: () => void;
}) {
  const { t } = useLingui();
  const value = formatMoney(item.estimatedValue);
  const record = handOverRecordText(item.owner.handOvers);
  return (
    <div className="grid gap-4">
      {/* Every photo, the cover first (ADR 082); an answer without the list shows the cover. */}
      <PhotoGallery
        photos={item.photos?.length ? item.photos : item.imageUrl ? [{ imageUrl: item.imageUrl }] : []}
        title={item.title}
      />
      <div className="flex flex-wrap gap-1">
        <Badge tone="brand">{translateKnown(item.category)}</Badge>
        {item.isService ? (
          <Badge tone="accent">
            <Trans>Service</Trans>
          </Badge>
        ) : null}
        {item.condition ? (
          <Badge tone="success">{t`Condition: ${conditionLabel(item.condition)}`}</Badge>
        ) : null}
        {value ? (
          <Badge>
            <Trans>About {value}</Trans>
          </Badge>
        ) : null}
      </div>
      <p className="whitespace-pre-line break-words text-slate-700">{item.description}</p>
      <div className="grid gap-1 text-sm text-slate-700">
        <p>
          <Trans>
            Offered by{' '}
            <MemberLink
              id={signedIn ? item.user.id : null}
              name={ownerName(item.user)}
              className="font-semibold text-brand-800"
              onNavigate={onNavigate}
            />
          </Trans>
        </p>
        <p className="flex items-center gap-1">
          <Star className="h-4 w-4 fill-amber-400 text-amber-500" aria-hidden="true" />
          {traderRating({ totalTrades: item.owner.completedTrades, rating: item.owner.rating })}
        </p>
        {record ? <p>{record}</p> : null}
        {signedIn ? (
          <p className="flex items-center gap-1">
            <MapPin className="h-4 w-4" aria-hidden="true" />
            {formatDistance(item.distanceMiles) ?? t`Set your location to see the distance`}
          </p>
        ) : null}
      </div>
      {/* The server's own base map is for members (GET /api/places/base-map); a visitor gets the tiles' map or the words. */}
      {item.approximateArea ? <AreaMap area={item.approximateArea} baseMap={signedIn} /> : null}
      <div className="rounded-lg bg-brand-50 p-3 text-sm text-brand-900">
        <p className="font-semibold">
          <Trans>Looking for</Trans>
        </p>
        {item.lookingFor.length > 0 ? (
          <ul className="mt-1 list-disc pl-5">
            {item.lookingFor.map((want) => (
              <li key={want}>{want}</li>
            ))}
          </ul>
        ) : (
          <p>
            <Trans>Open to offers</Trans>
          </p>
        )}
      </div>
      {actions}
    </div>
  );
}

/**
 * A member's actions on someone else's item: report, save, and Propose Barter, or the barter already
 * open on it. The owner gets none here (their controls are the page's).
 */
export function MemberItemActions({ item, onNavigate }: { item: ItemDetail; onNavigate?: () => void }) {
  const { t } = useLingui();
  if (item.isOwn) return null;
  return (
    <div className="flex flex-wrap items-center justify-end gap-2">
      <ReportButton targetKind="item" targetId={String(item.id)} what={t`this listing`} />
      <SaveToggle itemId={item.id} title={item.title} initiallySaved={item.isSaved} />
      {item.openBarter ? (
        <>
          <OpenBarterBadge barter={item.openBarter} />
          <ViewBarterLink barter={item.openBarter} title={item.title} onNavigate={onNavigate} />
        </>
      ) : (
        <ProposeBarterButton item={item} offerItemId={item.match?.yourItemId} />
      )}
    </div>
  );
}
