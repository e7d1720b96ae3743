import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInPool } from '../../workers/pool';
import { geocoderUnavailable } from './geocoder';
import { neighbourhoodDataDir } from './neighbourhoods';

/**
 * Neighbourhood outlines for the map's own base when no tile server is set (ADR 086): the `hoods`
 * boundaries (Zillow's, the same files the geocoder takes its neighbourhoods from), each ring thinned
 * to a point every OUTLINE_STEP degrees or more and rounded to OUTLINE_DECIMALS decimals, so the
 * whole country's 7,000 outlines fit in a few megabytes. Built once in the worker pool.
 */

/** Decimals an outline's coordinates keep: 0.0001 degree, about 11 m. */
export const OUTLINE_DECIMALS = 4;
/** A ring keeps a vertex only this far (in degrees, along either axis) from the last one kept: about 50 m. */
export const OUTLINE_STEP = 0.0005;

export interface NeighbourhoodOutline {
  name: string;
  /** [west, south, east, north] of all its rings. */
  bbox: [number, number, number, number];
  /** Outer rings only, each a flat [longitude, latitude, longitude, latitude, ...] list, closed. */
  rings: number[][];
}

type Ring = Array<[number, number]>;
interface Feature {
  properties: { NAME?: string };
  geometry: { type: 'Polygon'; coordinates: Ring[] } | { type: 'MultiPolygon'; coordinates: Ring[][] } | null;
}

const round = (value: number) => Math.round(value * 10 ** OUTLINE_DECIMALS) / 10 ** OUTLINE_DECIMALS;

/** A ring thinned and rounded, flat; null when fewer than three distinct points are left. */
export function thinRing(ring: Ring, step = OUTLINE_STEP): number[] | null {
  const flat: number[] = [];
  let lastX = Number.NaN;
  let lastY = Number.NaN;
  for (const [x, y] of ring) {
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    if (Math.abs(x - lastX) < step && Math.abs(y - lastY) < step) continue;
    flat.push(round(x), round(y));
    lastX = x;
    lastY = y;
  }
  if (flat.length < 6) return null;
  // Closed: the first point again (dropped above when the last point sat on it).
  if (flat[0] !== flat.at(-2) || flat[1] !== flat.at(-1)) flat.push(flat[0] as number, flat[1] as number);
  return flat;
}

/** Every neighbourhood's outline from the data files (a second or two of CPU: the worker pool's). */
export function buildNeighbourhoodOutlines(dir = neighbourhoodDataDir()): NeighbourhoodOutline[] {
  const outlines: NeighbourhoodOutline[] = [];
  for (const file of readdirSync(dir).sort()) {
    if (!file.endsWith('.json')) continue;
    const collection = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { features?: Feature[] };
    for (const feature of collection.features ?? []) {
      const name = feature.properties?.NAME;
      const geometry = feature.geometry;
      if (!name || !geometry) continue;
      const outer =
        geometry.type === 'Polygon' ? [geometry.coordinates[0]] : geometry.coordinates.map((p) => p[0]);
      const rings = outer
        .map((ring) => (ring ? thinRing(ring) : null))
        .filter((ring): ring is number[] => ring !== null);
      if (rings.length === 0) continue;
      let west = Infinity;
      let south = Infinity;
      let east = -Infinity;
      let north = -Infinity;
      for (const ring of rings)
        for (let i = 0; i < ring.length; i += 2) {
          const x = ring[i] as number;
          const y = ring[i + 1] as number;
          if (x < west) west = x;
          if (x > east) east = x;
          if (y < south) south = y;
          if (y > north) north = y;
        }
      outlines.push({ name, bbox: [west, south, east, north], rings });
    }
  }
  return outlines;
}

let outlines: NeighbourhoodOutline[] | null = null;
let loading: Promise<NeighbourhoodOutline[]> | null = null;

/** How long the pool may take to build them (seconds here; far more on an overloaded machine). */
const OUTLINE_BUILD_TIMEOUT_MS = 180_000;

/**
 * The outlines, built in the worker pool on first use and kept (once per process; callers meanwhile
 * wait for the same build). A failed build answers 502 GEOCODER_UNAVAILABLE and the next call tries again.
 */
export function loadNeighbourhoodOutlines(): Promise<NeighbourhoodOutline[]> {
  if (outlines) return Promise.resolve(outlines);
  loading ??= runInPool('buildNeighbourhoodOutlines', undefined, {
    timeoutMs: OUTLINE_BUILD_TIMEOUT_MS,
  }).then(
    (built) => {
      outlines = built;
      return built;
    },
    (error: unknown) => {
      loading = null;
      throw Object.assign(geocoderUnavailable(), { cause: error });
    },
  );
  return loading;
}

/** The outlines that touch the box, at most `max` (data order: state by state, city by city). */
export async function outlinesInBox(
  box: { south: number; west: number; north: number; east: number },
  max: number,
): Promise<NeighbourhoodOutline[]> {
  const all = await loadNeighbourhoodOutlines();
  const found: NeighbourhoodOutline[] = [];
  for (const outline of all) {
    const [west, south, east, north] = outline.bbox;
    if (east < box.west || west > box.east || north < box.south || south > box.north) continue;
    found.push(outline);
    if (found.length === max) break;
  }
  return found;
}
