import { Trans, useLingui } from '@lingui/react/macro';
import { MapPin, Star } from 'lucide-react';
import { AreaMap } from '#web/components/area-map.tsx';
import { ProposeBarterButton } from '#web/components/feature-slots.tsx';
import { MemberLink } from '#web/components/member-link.tsx';
import { ReportButton } from '#web/components/report-button.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Dialog, DialogContent } from '#web/components/ui/dialog.tsx';
import { formatDistance, formatMoney } from '#web/i18n/format.ts';
import { translateKnown } from '#web/i18n/known-messages.ts';
import { handOverRecordText } from '#web/lib/hand-over-record.ts';
import { ownerName } from '#web/lib/owner-name.ts';
import { traderRating } from '#web/lib/trader-rating.ts';
import { useItemDetail } from '../api/item-detail';
import { OpenBarterBadge, ViewBarterLink } from './open-barter';
import { SaveToggle } from './save-toggle';

/** An item's detail: larger photo, full description, owner's first name, rating, distance and wants. */
export function ItemDetailDialog({
  itemId,
  title,
  onClose,
}: {
  itemId: number | null;
  /** Shown while the detail loads. */
  title: string;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const { data: item, isLoading, isError } = useItemDetail(itemId);
  const value = item ? formatMoney(item.estimatedValue) : null;
  return (
    <Dialog open={itemId !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent title={item?.title ?? title} className="max-w-2xl">
        {isLoading ? (
          <p className="text-slate-600">
            <Trans>Loading...</Trans>
          </p>
        ) : null}
        {isError ? (
          <p className="text-red-700">
            <Trans>This item could not be loaded. It may have been removed.</Trans>
          </p>
        ) : null}
        {item ? (
          <div className="grid gap-4">
            {item.imageUrl ? (
              <img
                src={item.imageUrl}
                alt={item.title}
                className="max-h-96 w-full rounded-xl bg-slate-100 object-contain"
              />
            ) : (
              <div className="flex h-40 items-center justify-center rounded-xl bg-slate-100 text-slate-600">
                <Trans>No image</Trans>
              </div>
            )}
            <div className="flex flex-wrap gap-1">
              <Badge tone="brand">{translateKnown(item.category)}</Badge>
              {item.isService ? (
                <Badge tone="accent">
                  <Trans>Service</Trans>
                </Badge>
              ) : null}
              {value ? (
                <Badge>
                  <Trans>About {value}</Trans>
                </Badge>
              ) : null}
            </div>
            <p className="whitespace-pre-line text-slate-700">{item.description}</p>
            <div className="grid gap-1 text-sm text-slate-700">
              <p>
                <Trans>
                  Offered by{' '}
                  <MemberLink
                    id={item.user.id}
                    name={ownerName(item.user)}
                    className="font-semibold text-brand-800"
                    onNavigate={onClose}
                  />
                </Trans>
              </p>
              <p className="flex items-center gap-1">
                <Star className="h-4 w-4 fill-amber-400 text-amber-500" aria-hidden="true" />
                {traderRating({ totalTrades: item.owner.completedTrades, rating: item.owner.rating })}
              </p>
              {handOverRecordText(item.owner.handOvers) ? (
                <p>{handOverRecordText(item.owner.handOvers)}</p>
              ) : null}
              <p className="flex items-center gap-1">
                <MapPin className="h-4 w-4" aria-hidden="true" />
                {formatDistance(item.distanceMiles) ?? t`Set your location to see the distance`}
              </p>
            </div>
            {item.approximateArea ? <AreaMap area={item.approximateArea} /> : null}
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
            {item.isOwn ? null : (
              <div className="flex flex-wrap items-center justify-end gap-2">
                <ReportButton targetKind="item" targetId={String(item.id)} what={t`this listing`} />
                <SaveToggle itemId={item.id} title={item.title} initiallySaved={item.isSaved} />
                {item.openBarter ? (
                  <>
                    <OpenBarterBadge barter={item.openBarter} />
                    <ViewBarterLink barter={item.openBarter} title={item.title} onNavigate={onClose} />
                  </>
                ) : (
                  <ProposeBarterButton item={item} offerItemId={item.match?.yourItemId} />
                )}
              </div>
            )}
          </div>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
