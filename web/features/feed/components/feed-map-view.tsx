import 'leaflet/dist/leaflet.css';
import {
  circle,
  divIcon,
  type LayerGroup,
  type Map as LeafletMap,
  latLng,
  latLngBounds,
  layerGroup,
  map as leafletMap,
  marker,
  tileLayer,
} from 'leaflet';
import { useEffect, useRef } from 'react';
import Supercluster, { type ClusterProperties } from 'supercluster';
import type { FeedMap } from '#common/schemas/maps.ts';
import type { SiteInfo } from '#common/schemas/site.ts';
import { addBaseMap, type LoadBaseMap } from '#web/components/base-map-layer.ts';

/** Metres in a mile, for the radius circle. */
const METRES_PER_MILE = 1609.344;
/** Deepest zoom; items at one rounded point stay one marker there (their owner's area). */
const MAX_ZOOM = 16;
/** Pixels within which markers merge. */
const CLUSTER_RADIUS = 44;

interface ItemProperties {
  itemId: number;
  /** The item's own point: a lone marker stands exactly at it (the index's own carries float noise). */
  latitude: number;
  longitude: number;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

const MARKER_CLASS =
  'flex -translate-x-1/2 -translate-y-1/2 items-center justify-center rounded-full border-2 border-white font-semibold text-white shadow-md';

/** The items' clusters for one view: which items each marker stands for, and where. */
export function clusterItems(
  index: Supercluster<ItemProperties>,
  bounds: [number, number, number, number],
  zoom: number,
): Array<{ latitude: number; longitude: number; itemIds: number[]; expansionZoom: number | null }> {
  return index.getClusters(bounds, Math.round(zoom)).map((feature) => {
    const [longitude, latitude] = feature.geometry.coordinates as [number, number];
    const properties = feature.properties as ItemProperties | ClusterProperties;
    if ('cluster' in properties && properties.cluster) {
      const itemIds = index
        .getLeaves(properties.cluster_id, Infinity)
        .map((leaf) => (leaf.properties as ItemProperties).itemId);
      const expansionZoom = index.getClusterExpansionZoom(properties.cluster_id);
      return { latitude, longitude, itemIds, expansionZoom: expansionZoom > MAX_ZOOM ? null : expansionZoom };
    }
    const lone = properties as ItemProperties;
    return {
      latitude: lone.latitude,
      longitude: lone.longitude,
      itemIds: [lone.itemId],
      expansionZoom: null,
    };
  });
}

/**
 * The feed's map (ADR 086): its items clustered at their approximate points, over the configured
 * tiles or, without a tile server, over the neighbourhoods, towns and ZIP codes the server ships.
 * The list beside it is the way in for keyboards and screen readers: the markers are for pointers.
 */
export default function FeedMapView({
  map: data,
  tiles,
  label,
  selectedId,
  onSelect,
  loadBase,
}: {
  map: FeedMap;
  tiles: SiteInfo['mapTiles'];
  label: string;
  selectedId: number | null;
  onSelect: (id: number) => void;
  loadBase: LoadBaseMap;
}) {
  const container = useRef<HTMLElement>(null);
  const view = useRef<LeafletMap | null>(null);
  const markers = useRef<LayerGroup | null>(null);
  const redraw = useRef<() => void>(() => {});
  const select = useRef(onSelect);
  select.current = onSelect;
  const load = useRef(loadBase);
  load.current = loadBase;
  const selected = useRef(selectedId);
  selected.current = selectedId;

  // The map, its base and its markers, once per answer.
  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const map = leafletMap(element, {
      zoomSnap: 0.5,
      maxZoom: MAX_ZOOM,
      keyboard: false,
      attributionControl: true,
    });
    view.current = map;
    map.attributionControl.setPrefix(false);
    let stopBase: (() => void) | null = null;
    if (tiles)
      tileLayer(tiles.urlTemplate, { attribution: escapeHtml(tiles.attribution), maxZoom: 18 }).addTo(map);
    const points = data.items.map((item) => latLng(item.point.latitude, item.point.longitude));
    if (data.centre) {
      const centre = latLng(data.centre.latitude, data.centre.longitude);
      circle(centre, {
        radius: data.radiusMiles * METRES_PER_MILE,
        color: '#0f766e',
        weight: 1,
        fill: false,
        interactive: false,
      }).addTo(map);
      points.push(centre);
    }
    if (points.length > 0) map.fitBounds(latLngBounds(points).pad(0.1), { maxZoom: 13 });
    else map.setView([0, 0], 2);
    if (!tiles) stopBase = addBaseMap(map, (box) => load.current(box));
    const index = new Supercluster<ItemProperties>({ radius: CLUSTER_RADIUS, maxZoom: MAX_ZOOM });
    index.load(
      data.items.map((item) => ({
        type: 'Feature' as const,
        properties: { itemId: item.id, latitude: item.point.latitude, longitude: item.point.longitude },
        geometry: { type: 'Point' as const, coordinates: [item.point.longitude, item.point.latitude] },
      })),
    );
    const group = layerGroup().addTo(map);
    markers.current = group;
    const draw = () => {
      group.clearLayers();
      const b = map.getBounds();
      for (const spot of clusterItems(
        index,
        [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()],
        map.getZoom(),
      )) {
        const chosen = selected.current !== null && spot.itemIds.includes(selected.current);
        const size = spot.itemIds.length > 1 ? 34 : 24;
        const html = `<span class="${MARKER_CLASS} ${chosen ? 'bg-amber-600 ring-4 ring-amber-300' : 'bg-brand-700'}" style="width:${size}px;height:${size}px" data-testid="feed-map-marker" data-item-ids="${spot.itemIds.join(',')}" data-latitude="${spot.latitude}" data-longitude="${spot.longitude}"${chosen ? ' data-selected="true"' : ''}>${spot.itemIds.length > 1 ? spot.itemIds.length : ''}</span>`;
        marker([spot.latitude, spot.longitude], {
          icon: divIcon({ className: '', html, iconSize: null as unknown as undefined }),
          keyboard: false,
          zIndexOffset: chosen ? 1000 : 0,
        })
          .on('click', () => {
            if (spot.expansionZoom !== null) map.setView([spot.latitude, spot.longitude], spot.expansionZoom);
            else if (spot.itemIds[0] !== undefined) select.current(spot.itemIds[0]);
          })
          .addTo(group);
      }
    };
    redraw.current = draw;
    map.on('moveend', draw);
    draw();
    return () => {
      stopBase?.();
      map.remove();
      view.current = null;
      markers.current = null;
      redraw.current = () => {};
    };
  }, [data, tiles]);

  // The item chosen (here or in the list): marked, and brought into view.
  useEffect(() => {
    const map = view.current;
    if (!map || selectedId === null) {
      redraw.current();
      return;
    }
    const item = data.items.find((entry) => entry.id === selectedId);
    if (!item) return;
    const point = latLng(item.point.latitude, item.point.longitude);
    if (!map.getBounds().contains(point)) map.panTo(point);
    redraw.current();
  }, [selectedId, data]);

  return (
    <section
      ref={container}
      aria-label={label}
      data-testid="feed-map"
      className="h-72 w-full overflow-hidden rounded-xl border border-slate-200 bg-slate-100 md:h-[32rem]"
    />
  );
}
