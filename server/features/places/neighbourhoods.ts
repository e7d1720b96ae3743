import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { CURATED_PLACES, type CuratedPlace } from './curated-places';

/**
 * Neighborhoods of US cities from the `hoods` package (Zillow's neighborhood boundaries as GeoJSON,
 * one file per state, about 7,000 neighborhoods in 42 states). Only the data files are read: the
 * package's own index.js (point-in-polygon over every boundary on each call) is never loaded. Each
 * neighborhood is kept as its name, city, state and the centroid of its boundary.
 */
export interface NeighbourhoodColumns {
  count: number;
  /**
   * The place's id in answers: `zillow:<region id>` (Zillow's region id, stable across releases of
   * the data), or `curated:<slug>` for the project's own table (curated-places.ts).
   */
  ids: string[];
  names: string[];
  /** The city the neighborhood belongs to ("Portland"). */
  cities: string[];
  /** Two-letter state code ("OR"), the GeoNames admin1 code of the United States too. */
  states: string[];
  latitudes: number[];
  longitudes: number[];
}

type Ring = Array<[number, number]>;

interface Feature {
  properties: { NAME?: string; CITY?: string; STATE?: string; REGIONID?: number };
  geometry: { type: 'Polygon'; coordinates: Ring[] } | { type: 'MultiPolygon'; coordinates: Ring[][] };
}

/**
 * The centroid of a polygon's outer ring (the shoelace formula on longitude and latitude, which is
 * close enough over a neighborhood), with its signed area. A degenerate ring gives its vertices' mean.
 */
export function ringCentroid(ring: Ring): { longitude: number; latitude: number; area: number } {
  let area = 0;
  let cx = 0;
  let cy = 0;
  // Relative to the first vertex, so the products stay small and exact enough.
  const [x0, y0] = ring[0] ?? [0, 0];
  for (let i = 0; i < ring.length - 1; i++) {
    const [ax, ay] = ring[i] as [number, number];
    const [bx, by] = ring[i + 1] as [number, number];
    const x1 = ax - x0;
    const y1 = ay - y0;
    const x2 = bx - x0;
    const y2 = by - y0;
    const cross = x1 * y2 - x2 * y1;
    area += cross;
    cx += (x1 + x2) * cross;
    cy += (y1 + y2) * cross;
  }
  if (Math.abs(area) < 1e-12) {
    const n = Math.max(ring.length, 1);
    return {
      longitude: ring.reduce((sum, [x]) => sum + x, 0) / n,
      latitude: ring.reduce((sum, [, y]) => sum + y, 0) / n,
      area: 0,
    };
  }
  return { longitude: x0 + cx / (3 * area), latitude: y0 + cy / (3 * area), area: area / 2 };
}

/** The centroid of a neighborhood: of its largest part when it has several. */
export function featureCentroid(geometry: Feature['geometry']): { longitude: number; latitude: number } {
  const outerRings =
    geometry.type === 'Polygon' ? [geometry.coordinates[0]] : geometry.coordinates.map((p) => p[0]);
  let best: { longitude: number; latitude: number; area: number } | null = null;
  for (const ring of outerRings) {
    if (!ring || ring.length === 0) continue;
    const centroid = ringCentroid(ring);
    if (!best || Math.abs(centroid.area) > Math.abs(best.area)) best = centroid;
  }
  if (!best) throw new Error('neighborhood without a boundary');
  return { longitude: best.longitude, latitude: best.latitude };
}

/** Where the hoods package keeps its data files. */
export function neighbourhoodDataDir(): string {
  return join(dirname(createRequire(import.meta.url).resolve('hoods/package.json')), 'data');
}

/** Every neighborhood of the bundled data, in state and file order. */
export function loadNeighbourhoods(dir = neighbourhoodDataDir()): NeighbourhoodColumns {
  const columns: NeighbourhoodColumns = {
    count: 0,
    ids: [],
    names: [],
    cities: [],
    states: [],
    latitudes: [],
    longitudes: [],
  };
  for (const file of readdirSync(dir).sort()) {
    if (!file.endsWith('.json')) continue;
    const collection = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { features?: Feature[] };
    for (const feature of collection.features ?? []) {
      const { NAME: name, CITY: city, STATE: state, REGIONID: regionId } = feature.properties;
      if (!name || !city || !state || typeof regionId !== 'number' || !feature.geometry) continue;
      const { latitude, longitude } = featureCentroid(feature.geometry);
      if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) continue;
      columns.ids.push(`zillow:${regionId}`);
      columns.names.push(name);
      columns.cities.push(city);
      columns.states.push(state);
      columns.latitudes.push(Math.round(latitude * 1e5) / 1e5);
      columns.longitudes.push(Math.round(longitude * 1e5) / 1e5);
      columns.count++;
    }
  }
  return columns;
}

/**
 * Add the project's own table of neighbourhoods and districts (ADR 057) after the Zillow ones, so
 * they rank with them: after every town for a member without a point, by distance for one with a
 * point. A name the data already has in the same city is not added twice.
 */
export function addCuratedPlaces(
  columns: NeighbourhoodColumns,
  places: readonly CuratedPlace[] = CURATED_PLACES,
): NeighbourhoodColumns {
  const known = new Set<string>();
  for (let n = 0; n < columns.count; n++)
    known.add(`${columns.names[n]}|${columns.cities[n]}|${columns.states[n]}`.toLowerCase());
  for (const place of places) {
    if (known.has(`${place.name}|${place.city}|${place.state}`.toLowerCase())) continue;
    columns.ids.push(`curated:${place.slug}`);
    columns.names.push(place.name);
    columns.cities.push(place.city);
    columns.states.push(place.state);
    columns.latitudes.push(place.latitude);
    columns.longitudes.push(place.longitude);
    columns.count++;
  }
  return columns;
}
