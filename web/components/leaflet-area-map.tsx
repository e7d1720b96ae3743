import 'leaflet/dist/leaflet.css';
import { circle, type Map as LeafletMap, latLng, map as leafletMap, tileLayer } from 'leaflet';
import { useEffect, useRef } from 'react';
import type { ApproximateArea } from '#common/schemas/places.ts';
import type { SiteInfo } from '#common/schemas/site.ts';

/** How many tiles may fail before the map gives way to the words alone. */
const TILE_ERRORS_BEFORE_GIVING_UP = 1;

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/**
 * A still map (no dragging, zooming or keyboard focus: it illustrates the words beside it) with the
 * approximate area as a circle. Tiles come from the configured server; the first tile that fails
 * calls `onUnavailable`, and the caller shows the words alone.
 */
export default function LeafletAreaMap({
  area,
  tiles,
  label,
  onUnavailable,
}: {
  area: ApproximateArea;
  tiles: NonNullable<SiteInfo['mapTiles']>;
  label: string;
  onUnavailable: () => void;
}) {
  const container = useRef<HTMLDivElement>(null);
  const unavailable = useRef(onUnavailable);
  unavailable.current = onUnavailable;

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    let view: LeafletMap | null = null;
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
      tileLayer(tiles.urlTemplate, { attribution: escapeHtml(tiles.attribution), maxZoom: 18 })
        .on('tileerror', () => {
          errors++;
          if (errors === TILE_ERRORS_BEFORE_GIVING_UP) unavailable.current();
        })
        .addTo(view);
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
      unavailable.current();
    }
    return () => {
      view?.remove();
    };
  }, [area.latitude, area.longitude, area.radiusMeters, tiles.urlTemplate, tiles.attribution]);

  return (
    <div
      ref={container}
      role="img"
      aria-label={label}
      className="h-48 w-full overflow-hidden rounded-xl bg-slate-100"
    />
  );
}
