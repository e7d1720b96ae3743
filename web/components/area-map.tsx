import { t } from '@lingui/core/macro';
import { MapPin } from 'lucide-react';
import { lazy, type ReactNode, Suspense, useCallback, useEffect, useState } from 'react';
import type { ApproximateArea } from '#common/schemas/places.ts';
import type { SiteInfo } from '#common/schemas/site.ts';
import { formatApproximateRadius } from '../i18n/format';
import { withMessages } from '../i18n/i18n';
import { formatPlaceName } from '../i18n/place-names';
import { useSiteInfo } from '../lib/site-info';

interface LoadedMapProps {
  area: ApproximateArea;
  tiles: NonNullable<SiteInfo['mapTiles']>;
  label: string;
  onUnavailable: () => void;
}

/** Stands in for the map when its chunk cannot be loaded (offline): the words alone, no error. */
function MapUnavailable({ onUnavailable }: LoadedMapProps) {
  useEffect(() => onUnavailable(), [onUnavailable]);
  return null;
}

/**
 * The map itself (Leaflet), in its own chunk, loaded only when a tile server is configured. A chunk
 * that fails to load gives way to the words, without an error boundary's console error.
 */
const LeafletAreaMap = lazy(
  (): Promise<{ default: (props: LoadedMapProps) => ReactNode }> =>
    withMessages(() => import('./leaflet-area-map')).catch(() => ({ default: MapUnavailable })),
);

/** "about 1.5 miles" ("unos 2,5 km"): the radius to the nearest half unit (never below half of one). */
export function radiusText(radiusMeters: number): string {
  return formatApproximateRadius(radiusMeters);
}

/** The area in words, in the active language: what the map shows, and all there is without one. */
export function areaText(area: ApproximateArea): string {
  const radius = radiusText(area.radiusMeters);
  const place = area.name ? formatPlaceName(area.name) : null;
  return place
    ? t`Approximate area: near ${place}, within ${radius}. The exact address is never shown.`
    : t`Approximate area: in this area, within ${radius}. The exact address is never shown.`;
}

/**
 * Where a member trades, as others may see it (ADR 032): a circle around their approximate centre
 * on a map from the configured tile server (MAP_TILE_URL), with the area in words. Without a tile
 * server, offline, or when the map or its tiles fail, only the words are shown.
 */
export function AreaMap({ area, className }: { area: ApproximateArea; className?: string }) {
  const { data: site } = useSiteInfo();
  const place = area.name ? formatPlaceName(area.name) : null;
  const [mapFailed, setMapFailed] = useState(false);
  const onUnavailable = useCallback(() => setMapFailed(true), []);
  const tiles = site?.mapTiles ?? null;
  const online = typeof navigator === 'undefined' || navigator.onLine !== false;
  const showMap = tiles !== null && online && !mapFailed;
  const text = areaText(area);
  return (
    <figure className={className ?? 'grid gap-2'} data-testid="area-map">
      {showMap ? (
        <Suspense fallback={<div className="h-48 w-full rounded-xl bg-slate-100" aria-hidden="true" />}>
          <LeafletAreaMap
            area={area}
            tiles={tiles}
            label={place ? t`Map of the approximate area near ${place}` : t`Map of the approximate area`}
            onUnavailable={onUnavailable}
          />
        </Suspense>
      ) : null}
      <figcaption className="flex items-start gap-1 text-sm text-slate-600">
        <MapPin className="mt-0.5 h-4 w-4 shrink-0 text-brand-700" aria-hidden="true" />
        <span>{text}</span>
      </figcaption>
    </figure>
  );
}
