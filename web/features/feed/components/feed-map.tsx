import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { lazy, type ReactNode, Suspense, useCallback, useEffect, useState } from 'react';
import type { FeedMap, FeedMapItem } from '#common/schemas/maps.ts';
import type { SiteInfo } from '#common/schemas/site.ts';
import { LoadFailed } from '#web/components/ui/list-status.tsx';
import { withMessages } from '#web/i18n/i18n.ts';
import { loadBaseMap } from '#web/lib/base-map-api.ts';
import { useSiteInfo } from '#web/lib/site-info.ts';
import type { FeedFilters } from '../api/feed';
import { useFeedMap } from '../api/feed-map';
import { FeedMapList } from './feed-map-list';

interface MapViewProps {
  map: FeedMap;
  tiles: SiteInfo['mapTiles'];
  label: string;
  selectedId: number | null;
  onSelect: (id: number) => void;
  onUnavailable?: () => void;
  /** Fetches the server's own base for a box (no tile server). */
  loadBase: typeof loadBaseMap;
}

/** Stands in for the map when its chunk cannot be loaded (offline): the list alone, no error. */
function MapUnavailable({ onUnavailable }: MapViewProps) {
  useEffect(() => onUnavailable?.(), [onUnavailable]);
  return null;
}

/** Leaflet and the clusters, in their own chunk: only a member who opens the map loads them. */
const FeedMapView = lazy(
  (): Promise<{ default: (props: MapViewProps) => ReactNode }> =>
    withMessages(() => import('./feed-map-view')).catch(() => ({ default: MapUnavailable })),
);

/**
 * A feed as a map (ADR 086): its first items at their approximate points with the same items listed
 * beside it (below it on a phone). Choosing an item in either marks it in the other.
 */
export function FeedMapPanel({
  filters,
  showMatch,
  onOpen,
}: {
  filters: FeedFilters;
  showMatch: boolean;
  onOpen: (item: FeedMapItem) => void;
}) {
  const { t } = useLingui();
  const query = useFeedMap(filters);
  const { data: site } = useSiteInfo();
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [mapFailed, setMapFailed] = useState(false);
  const onUnavailable = useCallback(() => setMapFailed(true), []);
  const data = query.data;
  if (query.isLoading)
    return <div className="h-72 w-full rounded-xl bg-slate-100 md:h-[32rem]" aria-busy="true" />;
  if (query.isError || !data)
    return (
      <LoadFailed
        className="rounded-xl border border-red-200 bg-red-50 p-6 text-center text-red-800"
        text={t`The map could not be loaded.`}
        read={query}
      />
    );
  const count = data.items.length;
  const placed = plural(count, { one: '# item on the map', other: '# items on the map' });
  const unplaced =
    data.withoutPoint > 0
      ? plural(data.withoutPoint, {
          one: '# more has no location and is not on the map.',
          other: '# more have no location and are not on the map.',
        })
      : null;
  return (
    <div className="grid gap-3 md:grid-cols-[minmax(0,1fr)_20rem]">
      {mapFailed ? null : (
        <Suspense
          fallback={<div className="h-72 w-full rounded-xl bg-slate-100 md:h-[32rem]" aria-hidden="true" />}
        >
          <FeedMapView
            map={data}
            tiles={site?.mapTiles ?? null}
            label={t`Map of the items near you`}
            selectedId={selectedId}
            onSelect={setSelectedId}
            onUnavailable={onUnavailable}
            loadBase={loadBaseMap}
          />
        </Suspense>
      )}
      <div className="grid content-start gap-2 md:max-h-[32rem] md:overflow-y-auto md:pr-1">
        <p className="text-sm text-slate-600" aria-live="polite">
          {placed}
          {unplaced ? ` ${unplaced}` : null}
        </p>
        {count === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-300 p-4 text-sm text-slate-600">
            <Trans>No items to show on the map. Try a wider distance.</Trans>
          </p>
        ) : (
          <FeedMapList
            items={data.items}
            selectedId={selectedId}
            onSelect={setSelectedId}
            onOpen={onOpen}
            showMatch={showMatch}
          />
        )}
      </div>
    </div>
  );
}
