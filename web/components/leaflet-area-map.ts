import 'leaflet/dist/leaflet.css';
import { circle, type Map as LeafletMap, latLng, map as leafletMap, tileLayer } from 'leaflet';
import type { ApproximateArea } from '#common/schemas/places.ts';
import type { SiteInfo } from '#common/schemas/site.ts';
import { addBaseMap, type LoadBaseMap } from './base-map-layer';

/** How many tiles may fail before the map gives way to the words alone. */
const TILE_ERRORS_BEFORE_GIVING_UP = 1;

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

export interface AreaMapDrawing {
  /** The circle: the approximate centre and radius. */
  area: Pick<ApproximateArea, 'latitude' | 'longitude' | 'radiusMeters'>;
  tiles: SiteInfo['mapTiles'];
  /** Called once the map cannot be shown (a tile failed, Leaflet could not draw): the words alone. */
  onUnavailable: () => void;
  loadBase: LoadBaseMap;
}

/**
 * Draws a still map (no dragging, zooming or keyboard focus: it illustrates the words beside it)
 * with the approximate area as a circle into `element`, the box the page already shows (drawn by the
 * server too: this module, Leaflet's, is loaded by the browser alone, after the page is up). Tiles
 * come from the configured server, and the first tile that fails calls `onUnavailable`; without one,
 * the base is the neighbourhood outlines, town names and ZIP codes the server ships (ADR 086).
 * Returns what takes the map down again.
 */
export function drawAreaMap(
  element: HTMLElement,
  { area, tiles, onUnavailable, loadBase }: AreaMapDrawing,
): () => void {
  let view: LeafletMap | null = null;
  let stopBase: (() => void) | null = null;
  try {
    view = leafletMap(element, {
      attributionControl: true,
      zoomControl: false,
      dragging: false,
      touchZoom: false,
      doubleClickZoom: false,
      scrollWheelZoom: false,
      boxZoom: false,
      keyboard: false,
      // Quarter steps, so the circle fills the map rather than a whole zoom level less.
      zoomSnap: 0.25,
    });
    view.attributionControl.setPrefix(false);
    // The view first (a circle measures itself only on a map that has one), from the circle's box.
    const centre = latLng(area.latitude, area.longitude);
    view.fitBounds(centre.toBounds(area.radiusMeters * 2), { padding: [8, 8] });
    let errors = 0;
    if (tiles?.urlTemplate)
      tileLayer(tiles.urlTemplate, { attribution: escapeHtml(tiles.attribution), maxZoom: 18 })
        .on('tileerror', () => {
          errors++;
          if (errors === TILE_ERRORS_BEFORE_GIVING_UP) onUnavailable();
        })
        .addTo(view);
    else stopBase = addBaseMap(view, loadBase);
    circle(centre, {
      radius: area.radiusMeters,
      color: '#0f766e',
      weight: 2,
      fillOpacity: 0.15,
      interactive: false,
    }).addTo(view);
  } catch (error) {
    // A map that cannot be drawn is no reason to lose the page: the words stay.
    console.warn('The area map could not be drawn', error);
    onUnavailable();
  }
  return () => {
    stopBase?.();
    view?.remove();
  };
}
