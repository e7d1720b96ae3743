import { around } from 'geokdbush';
import KDBush from 'kdbush';
import type { Place } from '../../../common/schemas/places';
import type { Geocoder } from './geocoder';
import { type CityColumns, loadCities } from './geonames-cities';
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
const LATIN_MARKS = /[\u0300-\u036f]+/g;
const FOLDED_LETTER = /[ßæœøłđðþı]/g;

/**
 * Text as search compares it: without accents, in lower case, punctuation as single spaces
 * ("Zürich" -> "zurich", "São Paulo" -> "sao paulo", "Winston-Salem" -> "winston salem").
 * The cheap cases come first: building the index folds 135,000 names.
 */
export function foldText(text: string): string {
  // Most place names are plain words ("Portland", "New York City"): lower case is all they need.
  if (PLAIN_WORDS.test(text)) return text.toLowerCase();
  let folded = text;
  if (!PRINTABLE_ASCII.test(folded)) {
    folded = folded.normalize('NFKD').replace(LATIN_MARKS, '');
    if (!PRINTABLE_ASCII.test(folded)) {
      folded = folded
        .replace(/\p{M}+/gu, '')
        .toLowerCase()
        .replace(FOLDED_LETTER, (letter) => FOLDED_LETTERS[letter] ?? letter);
    }
  }
  folded = folded.toLowerCase();
  if (PRINTABLE_ASCII.test(folded)) return folded.replace(/[^a-z0-9]+/g, ' ').trim();
  return folded.replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
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
  /** A k-d tree of the records, built on the first reverse look-up (search does not need it). */
  tree: KDBush | null;
}

/** How long building the index took and how much heap it grew by, for the logs and the report. */
export interface PlaceIndexStats {
  places: number;
  /** Decoding the data file and building the search index. */
  loadMs: number;
  heapBytes: number;
  /** Building the k-d tree for reverse look-ups, once one was asked for. */
  treeMs?: number;
}

let index: PlaceIndex | null = null;
let stats: PlaceIndexStats | null = null;

/**
 * Cities to keep, most populous first, ties in file order. Sorted as packed numbers
 * ((max population - population) * 2^18 + position) by the native numeric sort, which is several
 * times faster than a comparator over 135,000 entries.
 */
function rankOrder(cities: CityColumns): Uint32Array {
  const positions = 2 ** 18;
  if (cities.count > positions) throw new Error('cities.pbf: more cities than the rank packing allows');
  const maxPopulation = cities.population.reduce((max, n) => Math.max(max, n), 0);
  const packed = new Float64Array(cities.count);
  let kept = 0;
  for (let i = 0; i < cities.count; i++) {
    if (LEFT_OUT_FEATURES.has(cities.featureCodes[i] as string)) continue;
    packed[kept++] = (maxPopulation - (cities.population[i] as number)) * positions + i;
  }
  const sorted = packed.subarray(0, kept).sort();
  return Uint32Array.from(sorted, (key) => key % positions);
}

function buildIndex(): PlaceIndex {
  const started = performance.now();
  const heapBefore = process.memoryUsage().heapUsed;
  const cities = loadCities();
  const order = rankOrder(cities);
  const count = order.length;
  const names: string[] = [];
  const keys: string[] = [];
  const countries: string[] = [];
  const admins: string[] = [];
  const cityIds = new Uint32Array(count);
  const latitudes = new Float64Array(count);
  const longitudes = new Float64Array(count);
  const buckets = new Map<string, number[]>();

  for (let i = 0; i < count; i++) {
    const city = order[i] as number;
    const name = cities.names[city] as string;
    const key = foldText(name);
    names.push(name);
    keys.push(key);
    countries.push(cities.countries[city] as string);
    admins.push(cities.adminCodes[city] as string);
    cityIds[i] = cities.cityIds[city] as number;
    latitudes[i] = cities.latitudes[city] as number;
    longitudes[i] = cities.longitudes[city] as number;
    const bucketKey = key.slice(0, BUCKET_KEY_LENGTH);
    const bucket = buckets.get(bucketKey);
    if (bucket) bucket.push(i);
    else buckets.set(bucketKey, [i]);
  }

  stats = {
    places: count,
    loadMs: Math.round(performance.now() - started),
    heapBytes: process.memoryUsage().heapUsed - heapBefore,
  };
  return { count, names, keys, countries, admins, cityIds, latitudes, longitudes, buckets, tree: null };
}

/** The index, built on first use (about half a second), then kept for the life of the process. */
function placeIndex(): PlaceIndex {
  index ??= buildIndex();
  return index;
}

/** The k-d tree over the index's records, built on first use (a tenth of a second). */
function placeTree(ix: PlaceIndex): KDBush {
  if (!ix.tree) {
    const started = performance.now();
    const tree = new KDBush(ix.count);
    for (let i = 0; i < ix.count; i++) tree.add(ix.longitudes[i] as number, ix.latitudes[i] as number);
    ix.tree = tree.finish();
    if (stats) stats.treeMs = Math.round(performance.now() - started);
  }
  return ix.tree;
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
  const [nearest] = around(placeTree(ix), longitude, latitude, 1, REVERSE_MAX_DISTANCE_KM);
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
