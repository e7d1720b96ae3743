import { t } from '@lingui/core/macro';
import { MapPin } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApproximateArea } from '#common/schemas/places.ts';
import type { SiteInfo } from '#common/schemas/site.ts';
import { formatApproximateRadius } from '../i18n/format';
import { withMessages } from '../i18n/i18n';
import { formatPlaceName } from '../i18n/place-names';
import { loadBaseMap } from '../lib/base-map-api';
import { useOnline } from '../lib/offline';
import { useSiteInfo } from '../lib/site-info';

/**
 * The map's box, drawn alike by the server and the browser (ADR 037): Leaflet (its own chunk, which
 * needs a window) is loaded after the page is up and draws into this box, so what the server drew
 * is what the browser hydrates. Rendering Leaflet's component in a lazy part instead made the server,
 * which cannot load that chunk, draw nothing where the browser drew the map: React's #418 on every
 * item page the server drew (issue 31). A chunk that fails to load, or a map that cannot be drawn,
 * gives way to the words, without an error.
 */
function MapBox({
  area,
  tiles,
  label,
  onUnavailable,
}: {
  area: ApproximateArea;
  /** The configured tile server; null: the map's own base (outlines and names the server ships, ADR 086). */
  tiles: SiteInfo['mapTiles'];
  label: string;
  onUnavailable: () => void;
}) {
  const container = useRef<HTMLDivElement>(null);
  const unavailable = useRef(onUnavailable);
  unavailable.current = onUnavailable;
  const urlTemplate = tiles?.urlTemplate ?? null;
  const attribution = tiles?.attribution ?? '';
  const { latitude, longitude, radiusMeters } = area;
  useEffect(() => {
    const element = container.current;
    if (!element) return;
    let stop: (() => void) | null = null;
    let ended = false;
    const giveUp = () => unavailable.current();
    withMessages(() => import('./leaflet-area-map')).then(
      ({ drawAreaMap }) => {
        if (ended) return;
        stop = drawAreaMap(element, {
          area: { latitude, longitude, radiusMeters },
          tiles: urlTemplate ? { urlTemplate, attribution } : null,
          onUnavailable: giveUp,
          loadBase: loadBaseMap,
        });
      },
      () => {
        if (!ended) giveUp();
      },
    );
    return () => {
      ended = true;
      stop?.();
    };
  }, [latitude, longitude, radiusMeters, urlTemplate, attribution]);
  return (
    <div
      ref={container}
      role="img"
      aria-label={label}
      className="h-48 w-full overflow-hidden rounded-xl bg-slate-100"
    />
  );
}

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
 * on a map, with the area in words. The map's base is the configured tile server (MAP_TILE_URL) or,
 * without one, the neighbourhood outlines, town names and ZIP codes the server ships (ADR 086).
 * Offline, when the map or its tiles fail, or signed out without a tile server, only the words
 * are shown.
 */
export function AreaMap({
  area,
  className,
  baseMap = true,
}: {
  area: ApproximateArea;
  className?: string;
  /**
   * Whether the server's own base may be drawn (GET /api/places/base-map answers members only): a
   * visitor signed out (an item's shared page) sees the configured tiles' map, or the words alone.
   */
  baseMap?: boolean;
}) {
  const { data: site } = useSiteInfo();
  const place = area.name ? formatPlaceName(area.name) : null;
  const [mapFailed, setMapFailed] = useState(false);
  const onUnavailable = useCallback(() => setMapFailed(true), []);
  const tiles = site?.mapTiles ?? null;
  // Online as the server draws it until the page is hydrated, then as the browser knows it.
  const online = useOnline();
  // Once the settings are in: the base (tiles or the server's own) is decided before anything is drawn.
  const showMap = site !== undefined && (tiles !== null || baseMap) && online && !mapFailed;
  const text = areaText(area);
  return (
    <figure className={className ?? 'grid gap-2'} data-testid="area-map">
      {showMap ? (
        <MapBox
          area={area}
          tiles={tiles}
          label={place ? t`Map of the approximate area near ${place}` : t`Map of the approximate area`}
          onUnavailable={onUnavailable}
        />
      ) : null}
      <figcaption className="flex items-start gap-1 text-sm text-slate-600">
        <MapPin className="mt-0.5 h-4 w-4 shrink-0 text-brand-700" aria-hidden="true" />
        <span>{text}</span>
      </figcaption>
    </figure>
  );
}
