import { t } from '@lingui/core/macro';
import { divIcon, type LatLngBounds, type Map as LeafletMap, layerGroup, marker, polygon } from 'leaflet';
import { BASE_MAP_MAX_SPAN } from '#common/map-limits.ts';
import type { BaseMap } from '#common/schemas/maps.ts';

/**
 * The maps' own base when no tile server is set (ADR 086): the neighbourhood outlines, town names and
 * ZIP codes the server ships (GET /api/places/base-map), for the view's box, redrawn when the view
 * settles elsewhere. Loaded only inside the maps' own chunks (it brings Leaflet).
 */

/**
 * How the base is fetched: GET /api/places/base-map with the box, given by the map's caller (so this
 * chunk, Leaflet's, does not carry the API client: the first screens share it; `base-map-api.ts`).
 */
export type LoadBaseMap = (box: {
  south: number;
  west: number;
  north: number;
  east: number;
}) => Promise<BaseMap | null | undefined>;

/** Decimals the asked box is rounded out to, so small moves ask for the same box (and the cache answers). */
const BOX_DECIMALS = 2;
/** Below this zoom the towns alone are written (outlines and ZIP codes would be a smudge). */
const DETAIL_ZOOM = 11;

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** The view's box, rounded outwards and cut to what the server answers for. */
export function baseMapBox(bounds: LatLngBounds): {
  south: number;
  west: number;
  north: number;
  east: number;
} {
  const f = 10 ** BOX_DECIMALS;
  const centre = bounds.getCenter();
  const half = BASE_MAP_MAX_SPAN / 2 - 1 / f;
  const south = Math.max(-90, Math.floor(Math.max(bounds.getSouth(), centre.lat - half) * f) / f);
  const north = Math.min(90, Math.ceil(Math.min(bounds.getNorth(), centre.lat + half) * f) / f);
  const west = Math.max(-180, Math.floor(Math.max(bounds.getWest(), centre.lng - half) * f) / f);
  const east = Math.min(180, Math.ceil(Math.min(bounds.getEast(), centre.lng + half) * f) / f);
  return { south, west, north, east };
}

/** A name written at its point, centred on it; sized by its text (Leaflet's `iconSize: null`). */
const label = (text: string, className: string) =>
  divIcon({
    className: '',
    html: `<span class="${className}">${escapeHtml(text)}</span>`,
    iconSize: null as unknown as undefined,
  });

const TOWN_CLASS =
  'pointer-events-none block -translate-x-1/2 -translate-y-1/2 whitespace-nowrap text-xs font-semibold text-slate-800';
const ZIP_CLASS =
  'pointer-events-none block -translate-x-1/2 -translate-y-1/2 whitespace-nowrap text-[0.7rem] text-slate-600';

/**
 * Draw the base on the map now and whenever the view settles; returns a function that stops it.
 * A base that cannot be fetched (offline, signed out) leaves the map as it is: the items and the
 * words beside it still tell everything.
 */
export function addBaseMap(view: LeafletMap, load: LoadBaseMap): () => void {
  const group = layerGroup().addTo(view);
  // The place data's credit (ADR 032), as the location picker gives it.
  const credit = escapeHtml(
    t`Neighborhoods: Zillow (CC BY-SA 3.0). ZIP codes: U.S. Census Bureau. Towns: GeoNames (CC BY 4.0).`,
  );
  view.attributionControl?.addAttribution(credit);
  let asked = '';
  let stopped = false;
  const draw = (base: BaseMap, zoom: number) => {
    group.clearLayers();
    const detail = zoom >= DETAIL_ZOOM;
    if (detail)
      for (const hood of base.neighbourhoods) {
        const rings = hood.rings.map((ring) => {
          const points: Array<[number, number]> = [];
          for (let i = 0; i + 1 < ring.length; i += 2)
            points.push([ring[i + 1] as number, ring[i] as number]);
          return points;
        });
        polygon(rings, {
          color: '#94a3b8',
          weight: 1,
          fillColor: '#e2e8f0',
          fillOpacity: 0.35,
          interactive: false,
        }).addTo(group);
      }
    const options = { interactive: false, keyboard: false };
    for (const town of base.towns.slice(0, detail ? base.towns.length : 25))
      marker([town.latitude, town.longitude], {
        ...options,
        icon: label(town.name, TOWN_CLASS),
      }).addTo(group);
    if (detail)
      for (const zip of base.postalCodes)
        marker([zip.latitude, zip.longitude], { ...options, icon: label(zip.name, ZIP_CLASS) }).addTo(group);
  };
  const refresh = () => {
    const box = baseMapBox(view.getBounds());
    const key = `${box.south},${box.west},${box.north},${box.east}`;
    if (key === asked) return;
    asked = key;
    const zoom = view.getZoom();
    load(box).then(
      (base) => {
        if (!stopped && base && asked === key) draw(base, zoom);
      },
      () => {
        // No base (offline, signed out, the data not loaded yet): try again on the next move.
        if (asked === key) asked = '';
      },
    );
  };
  view.whenReady(refresh);
  view.on('moveend', refresh);
  return () => {
    stopped = true;
    view.off('moveend', refresh);
    view.attributionControl?.removeAttribution(credit);
    group.remove();
  };
}
