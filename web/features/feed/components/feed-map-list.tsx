import { Trans, useLingui } from '@lingui/react/macro';
import { MapPin } from 'lucide-react';
import { useEffect, useRef } from 'react';
import type { FeedMapItem } from '#common/schemas/maps.ts';
import { formatDistance } from '#web/i18n/format.ts';
import { ownerName } from '#web/lib/owner-name.ts';
import { cn } from '#web/lib/utils.ts';

/**
 * The list beside the feed's map (ADR 086): the same items, in the feed's order, for keyboard and
 * screen-reader users and anyone who reads faster than they look. Choosing a row shows it on the
 * map; the item chosen on the map is marked here and scrolled into view.
 */
export function FeedMapList({
  items,
  selectedId,
  onSelect,
  onOpen,
  showMatch,
}: {
  items: FeedMapItem[];
  selectedId: number | null;
  onSelect: (id: number) => void;
  onOpen: (item: FeedMapItem) => void;
  showMatch: boolean;
}) {
  const { t } = useLingui();
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    if (selectedId === null) return;
    list.current
      ?.querySelector(`[data-item-id="${selectedId}"]`)
      ?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [selectedId]);
  return (
    <ol ref={list} className="grid gap-2" aria-label={t`Items on the map`} data-testid="feed-map-list">
      {items.map((item) => {
        const selected = item.id === selectedId;
        const distance = formatDistance(item.distanceMiles);
        const owner = ownerName(item.user);
        const score = showMatch ? item.match?.score : undefined;
        return (
          <li
            key={item.id}
            data-item-id={item.id}
            className={cn(
              'flex items-center gap-2 rounded-xl border bg-white p-2',
              selected ? 'border-brand-700 ring-2 ring-brand-700' : 'border-slate-200',
            )}
          >
            <button
              type="button"
              aria-pressed={selected}
              onClick={() => onSelect(item.id)}
              className="flex min-w-0 flex-1 items-start gap-2 rounded-lg p-1 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-700"
            >
              <MapPin
                className={cn('mt-0.5 h-4 w-4 shrink-0', selected ? 'text-brand-700' : 'text-slate-500')}
                aria-hidden="true"
              />
              <span className="grid min-w-0">
                <span className="truncate font-medium text-slate-900">{item.title}</span>
                <span className="truncate text-sm text-slate-600">
                  {[owner, distance, score === undefined ? null : t`${score}% match`]
                    .filter(Boolean)
                    .join(' · ')}
                </span>
              </span>
            </button>
            <button
              type="button"
              onClick={() => onOpen(item)}
              aria-label={t`Details of ${item.title}`}
              className="shrink-0 rounded-lg px-2 py-1 text-sm font-medium text-brand-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand-700"
            >
              <Trans>Details</Trans>
            </button>
          </li>
        );
      })}
    </ol>
  );
}
