import { around } from 'geokdbush';
import KDBush from 'kdbush';
import type { Place } from '../../../common/schemas/places';
import type { Geocoder } from './geocoder';
import { loadCities } from './geonames-cities';
import { countryName, regionName } from './region-names';

/** Reverse look-ups farther than this from any town answer "no place" rather than a far-off name. */
export const REVERSE_MAX_DISTANCE_KM = 100;

const FOLDED_LETTERS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};

const PLAIN_WORDS = /^[A-Za-z]+(?: [A-Za-z]+)*$/;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * Text as search compares it: without accents, in lower case, punctuation as single spaces
 * ("Zürich" -> "zurich", "São Paulo" -> "sao paulo", "Winston-Salem" -> "winston salem").
 */
export function foldText(text: string): string {
  // Most place names are plain words ("Portland", "New York City"): lower case is all they need.
  if (PLAIN_WORDS.test(text)) return text.toLowerCase();
  if (PRINTABLE_ASCII.test(text))
    return text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[ßæœøłđðþı]/g, (letter) => FOLDED_LETTERS[letter] ?? letter)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Feature codes left out: sections of a city ("Zürich (Kreis 11)"), historical and abandoned places. */
const LEFT_OUT_FEATURES = new Set(['PPLX', 'PPLH', 'PPLQ', 'PPLW', 'PPLCH']);

/** Search buckets are keyed by the first this many letters of the folded name. */
const BUCKET_KEY_LENGTH = 3;

/**
 * The bundled GeoNames cities in compact columns, records numbered from the most populous down, so
 * any list of record numbers in increasing order is already ranked.
 */
interface PlaceIndex {
  count: number;
  names: string[];
  /** Folded names, what search compares. */
  keys: string[];
  countries: string[];
  admins: string[];
  cityIds: Uint32Array;
  latitudes: Float64Array;
  longitudes: Float64Array;
  /** Records by the first three letters of their folded name, in rank order. */
  buckets: Map<string, number[]>;
  tree: KDBush;
}

/** How long building the index took and how much heap it grew by, for the logs and the report. */
export interface PlaceIndexStats {
  places: number;
  loadMs: number;
  heapBytes: number;
}

let index: PlaceIndex | null = null;
let stats: PlaceIndexStats | null = null;

function buildIndex(): PlaceIndex {
  const started = performance.now();
  const heapBefore = process.memoryUsage().heapUsed;
  const cities = loadCities();
  // Records are numbered by rank: most populous first, ties by GeoNames id.
  const order = Uint32Array.from({ length: cities.count }, (_, i) => i)
    .filter((i) => !LEFT_OUT_FEATURES.has(cities.featureCodes[i] as string))
    .sort(
      (a, b) =>
        (cities.population[b] as number) - (cities.population[a] as number) ||
        (cities.cityIds[a] as number) - (cities.cityIds[b] as number),
    );

  const count = order.length;
  const names: string[] = [];
  const keys: string[] = [];
  const countries: string[] = [];
  const admins: string[] = [];
  const cityIds = new Uint32Array(count);
  const latitudes = new Float64Array(count);
  const longitudes = new Float64Array(count);
  const buckets = new Map<string, number[]>();
  const tree = new KDBush(count);

  for (let i = 0; i < count; i++) {
    const city = order[i] as number;
    const name = cities.names[city] as string;
    const key = foldText(name);
    const latitude = cities.latitudes[city] as number;
    const longitude = cities.longitudes[city] as number;
    names.push(name);
    keys.push(key);
    countries.push(cities.countries[city] as string);
    admins.push(cities.adminCodes[city] as string);
    cityIds[i] = cities.cityIds[city] as number;
    latitudes[i] = latitude;
    longitudes[i] = longitude;
    tree.add(longitude, latitude);
    const bucketKey = key.slice(0, BUCKET_KEY_LENGTH);
    const bucket = buckets.get(bucketKey);
    if (bucket) bucket.push(i);
    else buckets.set(bucketKey, [i]);
  }
  tree.finish();

  stats = {
    places: count,
    loadMs: Math.round(performance.now() - started),
    heapBytes: process.memoryUsage().heapUsed - heapBefore,
  };
  return { count, names, keys, countries, admins, cityIds, latitudes, longitudes, buckets, tree };
}

/** The index, built on first use (about a third of a second), then kept for the life of the process. */
function placeIndex(): PlaceIndex {
  index ??= buildIndex();
  return index;
}

/** Load time and memory of the index, once it has been built. */
export function placeIndexStats(): PlaceIndexStats | null {
  return stats;
}

function displayNameOf(ix: PlaceIndex, i: number): string {
  const name = ix.names[i] as string;
  const country = countryName(ix.countries[i] as string);
  const region = regionName(ix.countries[i] as string, ix.admins[i] as string);
  const parts = [name];
  if (region && region !== name) parts.push(region);
  if (country !== name) parts.push(country);
  return parts.join(', ');
}

function placeOf(ix: PlaceIndex, i: number): Place {
  return {
    id: `geonames:${ix.cityIds[i]}`,
    displayName: displayNameOf(ix, i),
    latitude: ix.latitudes[i] as number,
    longitude: ix.longitudes[i] as number,
  };
}

/** Folded words a qualifier after a comma may start: region and country, by name or code. */
function qualifierKeys(ix: PlaceIndex, i: number): string[] {
  const country = ix.countries[i] as string;
  const admin = ix.admins[i] as string;
  const region = regionName(country, admin);
  return [
    foldText(countryName(country)),
    country.toLowerCase(),
    admin.toLowerCase(),
    ...(region ? [foldText(region)] : []),
  ];
}

/**
 * Prefix search over city names, accent- and case-insensitive, most populous first. Text after a
 * comma narrows by region or country, so a chosen suggestion ("Portland, Oregon, United States")
 * finds itself again.
 */
export function searchPlaces(query: string, limit: number): Place[] {
  const [cityPart = '', ...rest] = query.split(',');
  const key = foldText(cityPart);
  if (!key) return [];
  const qualifiers = rest.map(foldText).filter(Boolean);
  const ix = placeIndex();

  // Records in rank order whose name could start with the key: its bucket, or all for a short key.
  const candidates: Iterable<number> =
    key.length >= BUCKET_KEY_LENGTH
      ? (ix.buckets.get(key.slice(0, BUCKET_KEY_LENGTH)) ?? [])
      : ix.keys.keys();
  const places: Place[] = [];
  // Two places that would read the same are one suggestion: the larger.
  const seen = new Set<string>();
  for (const record of candidates) {
    if (!(ix.keys[record] as string).startsWith(key)) continue;
    if (qualifiers.length > 0) {
      const known = qualifierKeys(ix, record);
      if (!qualifiers.every((q) => known.some((k) => k.startsWith(q)))) continue;
    }
    const place = placeOf(ix, record);
    if (seen.has(place.displayName)) continue;
    seen.add(place.displayName);
    places.push(place);
    if (places.length >= limit) break;
  }
  return places;
}

/** The town nearest to the point, within REVERSE_MAX_DISTANCE_KM. */
export function nearestPlace(latitude: number, longitude: number): Place | null {
  const ix = placeIndex();
  const [nearest] = around(ix.tree, longitude, latitude, 1, REVERSE_MAX_DISTANCE_KM);
  return nearest === undefined ? null : placeOf(ix, nearest);
}

/** GEOCODER=offline: the bundled GeoNames place list, no network. */
export const offlineGeocoder: Geocoder = {
  async search(query, limit) {
    return searchPlaces(query, limit);
  },
  async reverse(latitude, longitude) {
    return nearestPlace(latitude, longitude);
  },
};
