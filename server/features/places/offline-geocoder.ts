import { around } from 'geokdbush';
import KDBush from 'kdbush';
import type { Place } from '#common/schemas/places.ts';
import { kmBetween, type Point } from '../../geo/earth';
import { runInPool } from '../../workers/pool';
import { type Geocoder, geocoderUnavailable } from './geocoder';
import { type CityColumns, loadCities } from './geonames-cities';
import { addCuratedPlaces, loadNeighbourhoods, type NeighbourhoodColumns } from './neighbourhoods';
import {
  type CodeColumn,
  codeAt,
  codeColumn,
  groupRows,
  type PackedGroups,
  type PackedStrings,
  packedBytes,
  packGroups,
  packStrings,
  startsWithAt,
  stringAt,
} from './packed-columns';
import { loadPostalCodes, lowerBound, type PostalCodeColumns } from './postal-codes';
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

/** Feature codes never offered: historical, abandoned and destroyed places, religious sites. */
const LEFT_OUT_FEATURES = new Set(['PPLH', 'PPLQ', 'PPLW', 'PPLCH']);

/** What a GeoNames record is. Towns are what the member page names (nearestPlace). */
const TOWN = 0;
/** A section of a city (PPLX): outside the US, where the neighborhood data does not reach. */
const SECTION = 1;

const APOSTROPHE = /['\u2019]/;
const APOSTROPHES = /['\u2019]/g;

/** Search buckets are keyed by the first this many letters of the folded name. */
const BUCKET_KEY_LENGTH = 3;

/**
 * Matches within this distance of the member's own point come first, nearest first; the rest follow
 * in rank order. About 37 miles, a metro area: "Hawthorne" typed in Oakland offers Oakland's
 * Hawthorne before Hawthorne, California, while "Seattle" typed in Portland still finds Seattle.
 */
export const NEAR_KM = 60;
/** A reverse look-up names the neighborhood whose centre is this near, else the ZIP code, else the town. */
export const NEIGHBOURHOOD_REVERSE_KM = 2.5;
export const POSTAL_REVERSE_KM = 8;

/**
 * The bundled GeoNames towns and city sections in compact columns, records numbered from the most
 * populous down, so any list of record numbers in increasing order is already ranked. Kept for the
 * life of the process, so packed (issue 32): the names and keys each one string with offsets, the
 * codes numbered, the buckets one array of records (packed-columns.ts).
 */
interface PlaceIndex {
  count: number;
  kinds: Uint8Array;
  names: PackedStrings;
  /** Folded names, what search compares. */
  keys: PackedStrings;
  countries: CodeColumn;
  admins: CodeColumn;
  cityIds: Uint32Array;
  latitudes: Float64Array;
  longitudes: Float64Array;
  /** Records by the first three letters of their folded name, in rank order. */
  buckets: PackedGroups;
  /** A k-d tree of the towns (not sections) and the record of each of its points, built on first use. */
  townTree: { tree: KDBush; records: Uint32Array } | null;
}

/**
 * Neighborhoods (no population: ranked after every town, in data order) and US ZIP codes, loaded
 * on the first search that needs them: the member page's town names never do.
 */
interface FineIndex {
  hoods: NeighbourhoodColumns;
  /** Folded names, and from each later word on ("sellwood moreland", "moreland"). */
  hoodKeys: string[][];
  hoodBuckets: Map<string, number[]>;
  postal: PostalCodeColumns;
  hoodTree: KDBush | null;
  postalTree: KDBush | null;
}

/** How long building the indexes took and how much heap they grew by, for the logs and the report. */
export interface PlaceIndexStats {
  places: number;
  /** Decoding the data file and building the search index. */
  loadMs: number;
  heapBytes: number;
  /** What the town index's packed names, keys, codes and buckets hold (its typed columns aside). */
  packedBytes?: number;
  /** Building the k-d tree for reverse look-ups, once one was asked for. */
  treeMs?: number;
  neighbourhoods?: number;
  postalCodes?: number;
  /** Loading neighborhoods and ZIP codes, once a search needed them. */
  fineLoadMs?: number;
  fineHeapBytes?: number;
}

let index: PlaceIndex | null = null;
let fineIndex: FineIndex | null = null;
let stats: PlaceIndexStats | null = null;

/** The kind a GeoNames record is kept as, or null when it is left out. */
function kindOf(cities: CityColumns, i: number): number | null {
  const feature = cities.featureCodes[i] as string;
  if (LEFT_OUT_FEATURES.has(feature)) return null;
  if (feature !== 'PPLX') return TOWN;
  // Sections named like "Zürich (Kreis 11)" read as codes, and US ones duplicate the neighborhoods.
  if (cities.countries[i] === 'US' || (cities.names[i] as string).includes('(')) return null;
  return SECTION;
}

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
    if (kindOf(cities, i) === null) continue;
    packed[kept++] = (maxPopulation - (cities.population[i] as number)) * positions + i;
  }
  const sorted = packed.subarray(0, kept).sort();
  return Uint32Array.from(sorted, (key) => key % positions);
}

function addToBucket(buckets: Map<string, number[]>, key: string, record: number): void {
  const bucketKey = key.slice(0, BUCKET_KEY_LENGTH);
  const bucket = buckets.get(bucketKey);
  if (!bucket) buckets.set(bucketKey, [record]);
  // A record is in a bucket once, even when two of its keys start alike.
  else if (bucket[bucket.length - 1] !== record) bucket.push(record);
}

function buildIndex(): PlaceIndex {
  const started = performance.now();
  const heapBefore = process.memoryUsage().heapUsed;
  const cities = loadCities();
  const order = rankOrder(cities);
  const count = order.length;
  const kinds = new Uint8Array(count);
  const names: string[] = [];
  const keys: string[] = [];
  const bucketKeys: string[] = [];
  const countries: string[] = [];
  const admins: string[] = [];
  const cityIds = new Uint32Array(count);
  const latitudes = new Float64Array(count);
  const longitudes = new Float64Array(count);

  for (let i = 0; i < count; i++) {
    const city = order[i] as number;
    const name = cities.names[city] as string;
    const key = foldText(name);
    kinds[i] = kindOf(cities, city) as number;
    names.push(name);
    keys.push(key);
    countries.push(cities.countries[city] as string);
    admins.push(cities.adminCodes[city] as string);
    cityIds[i] = cities.cityIds[city] as number;
    latitudes[i] = cities.latitudes[city] as number;
    longitudes[i] = cities.longitudes[city] as number;
    bucketKeys.push(key.slice(0, BUCKET_KEY_LENGTH));
  }

  const ix: PlaceIndex = {
    count,
    kinds,
    names: packStrings(names),
    keys: packStrings(keys),
    countries: codeColumn(countries),
    admins: codeColumn(admins),
    cityIds,
    latitudes,
    longitudes,
    // One key per record, records in rank order: each bucket is in rank order.
    buckets: packGroups(bucketKeys),
    townTree: null,
  };
  stats = {
    ...stats,
    places: count,
    loadMs: Math.round(performance.now() - started),
    heapBytes: process.memoryUsage().heapUsed - heapBefore,
    packedBytes: packedBytes(ix.names, ix.keys, ix.countries, ix.admins, ix.buckets),
  };
  return ix;
}

function buildFineIndex(): FineIndex {
  const started = performance.now();
  const heapBefore = process.memoryUsage().heapUsed;
  // Zillow's neighborhoods, then the project's own table of what they lack (ADR 057).
  const hoods = addCuratedPlaces(loadNeighbourhoods());
  const postal = loadPostalCodes();
  const hoodKeys: string[][] = [];
  const hoodBuckets = new Map<string, number[]>();
  for (let n = 0; n < hoods.count; n++) {
    const name = hoods.names[n] as string;
    const words = foldText(name).split(' ');
    const keys = words.map((_, w) => words.slice(w).join(' '));
    // "Ladd's Addition" is typed "Ladds" as often as "Ladd's".
    if (APOSTROPHE.test(name)) keys.push(foldText(name.replace(APOSTROPHES, '')));
    hoodKeys.push(keys);
    for (const key of keys) addToBucket(hoodBuckets, key, n);
  }
  stats = {
    places: 0,
    loadMs: 0,
    heapBytes: 0,
    ...stats,
    neighbourhoods: hoods.count,
    postalCodes: postal.count,
    fineLoadMs: Math.round(performance.now() - started),
    fineHeapBytes: process.memoryUsage().heapUsed - heapBefore,
  };
  return { hoods, hoodKeys, hoodBuckets, postal, hoodTree: null, postalTree: null };
}

/** The town index, built on first use (about half a second), then kept for the life of the process. */
function placeIndex(): PlaceIndex {
  index ??= buildIndex();
  return index;
}

/**
 * Neighborhoods and ZIP codes, built here on first use (a second or two) unless installed from the
 * pool (`loadPlaceIndex`, which the server's callers await first).
 */
function fine(): FineIndex {
  fineIndex ??= buildFineIndex();
  return fineIndex;
}

/**
 * The indexes and their k-d trees, built from the data files: what a worker thread builds and sends
 * (issue 27, ADR 048). Plain columns, Maps and the trees' ArrayBuffers, so it crosses threads by
 * structured clone and the trees' memory moves instead of being copied. Either part may be left out
 * (`PlaceParts`): the towns stay for the life of the process, the finer index is built when needed
 * and let go when idle (ADR 093).
 */
export interface PlaceData {
  index?: Omit<PlaceIndex, 'townTree'> & { townTree: { tree: ArrayBuffer; records: Uint32Array } };
  fine?: Omit<FineIndex, 'hoodTree' | 'postalTree'> & { hoodTree: ArrayBuffer; postalTree: ArrayBuffer };
  stats: PlaceIndexStats;
}

/** Which parts to build: the towns, the neighbourhoods and ZIP codes, or both. */
export interface PlaceParts {
  towns: boolean;
  fine: boolean;
}

/**
 * Build what the geocoder reads (in the worker pool: a second or more of CPU). Kept nowhere in the
 * building thread: the thread that installs it answers the searches, and a pool thread holding its
 * own copy until it ends doubled the server's place memory (ADR 093).
 */
export function buildPlaceData(parts: PlaceParts): PlaceData {
  const data: PlaceData = { stats: { places: 0, loadMs: 0, heapBytes: 0 } };
  if (parts.towns) {
    const ix = buildIndex();
    const towns = townTree(ix);
    data.index = { ...ix, townTree: { tree: treeBuffer(towns.tree), records: towns.records } };
  }
  if (parts.fine) {
    const fx = buildFineIndex();
    const trees = fineTrees(fx);
    data.fine = { ...fx, hoodTree: treeBuffer(trees.hoodTree), postalTree: treeBuffer(trees.postalTree) };
  }
  data.stats = { ...data.stats, ...stats };
  return data;
}

const treeBuffer = (tree: KDBush) => tree.data as ArrayBuffer;

/**
 * The ArrayBuffers `buildPlaceData` can move to another thread instead of copying: the trees', and
 * the town index's typed columns (each its own buffer).
 */
export function placeDataTransfers(data: PlaceData): ArrayBuffer[] {
  const ix = data.index;
  const columns = ix
    ? [
        ix.kinds,
        ix.names.starts,
        ix.keys.starts,
        ix.countries.rows,
        ix.admins.rows,
        ix.cityIds,
        ix.latitudes,
        ix.longitudes,
        ix.buckets.starts,
        ix.buckets.rows,
        ix.townTree.records,
      ]
    : [];
  return [
    ...(ix ? [ix.townTree.tree] : []),
    ...columns.map((column) => column.buffer as ArrayBuffer),
    ...(data.fine ? [data.fine.hoodTree, data.fine.postalTree] : []),
  ];
}

/** Take indexes built elsewhere: the parts this thread lacks (it may have built its own meanwhile). */
export function installPlaceData(data: PlaceData): void {
  if (data.index && !index) {
    index = {
      ...data.index,
      townTree: { tree: KDBush.from(data.index.townTree.tree), records: data.index.townTree.records },
    };
  }
  if (data.fine && !fineIndex) {
    fineIndex = {
      ...data.fine,
      hoodTree: KDBush.from(data.fine.hoodTree),
      postalTree: KDBush.from(data.fine.postalTree),
    };
    fineUsedAt = performance.now();
    fineIdleTimer ??= setInterval(letIdleFineIndexGo, FINE_IDLE_CHECK_MS);
    fineIdleTimer.unref();
  }
  // The figures of the parts this build made (a thread that built only the finer index reports
  // zero towns).
  const { places, loadMs, heapBytes, packedBytes, treeMs, ...fineStats } = data.stats;
  stats = {
    ...(stats ?? { places, loadMs, heapBytes }),
    ...(data.index ? { places, loadMs, heapBytes, packedBytes, treeMs } : {}),
    ...(data.fine ? fineStats : {}),
  };
}

/**
 * The neighbourhoods and ZIP codes (about 70 MB of heap) are let go after this long unused: a search,
 * a map's labels or a hand-over's meeting area builds them again in the pool (well under a second on
 * a quiet machine), and an idle server does not hold them (ADR 093).
 */
export const FINE_IDLE_MS = 10 * 60_000;
const FINE_IDLE_CHECK_MS = 60_000;
let fineUsedAt = 0;
let fineIdleTimer: NodeJS.Timeout | null = null;

/** Drop the finer index when unused for FINE_IDLE_MS (never while a build for it is in flight). */
export function letIdleFineIndexGo(now = performance.now()): boolean {
  if (!fineIndex || loading || now - fineUsedAt < FINE_IDLE_MS) return false;
  fineIndex = null;
  if (fineIdleTimer) clearInterval(fineIdleTimer);
  fineIdleTimer = null;
  return true;
}

/** Whether the finer index is in memory now (for tests and the logs). */
export function fineIndexLoaded(): boolean {
  return fineIndex !== null;
}

let loading: Promise<void> | null = null;

/** Build the missing parts in the worker pool and install them; one build at a time. */
function loadParts(parts: PlaceParts): Promise<void> {
  // The towns alone are built once, at start (warmPlaceIndex): the thread need not stay for 30 s.
  loading ??= runInPool('buildPlaceData', parts, {
    timeoutMs: PLACE_BUILD_TIMEOUT_MS,
    oneOff: !parts.fine,
  }).then(
    (data) => {
      loading = null;
      installPlaceData(data);
    },
    (error: unknown) => {
      loading = null;
      throw Object.assign(geocoderUnavailable(), { cause: error });
    },
  );
  return loading;
}

/**
 * Have both indexes ready without building them on this thread: built in the worker pool, then
 * installed (callers meanwhile wait for the same build). When the pool fails (its time limit on an
 * overloaded machine, a thread that died), the waiting searches answer 502 GEOCODER_UNAVAILABLE and
 * the next one tries again: building here instead would hold the event loop for a second or more
 * exactly when the machine can least afford it. Every use of the finer index comes through here,
 * which keeps it from being let go while in use.
 */
export async function loadPlaceIndex(): Promise<void> {
  await loadMissing(true);
  fineUsedAt = performance.now();
}

/** Have the town index ready (what `nearestPlace` reads), built in the worker pool. */
export function loadTownIndex(): Promise<void> {
  return loadMissing(false);
}

/** Build what is missing of the towns (and the finer index, `withFine`), one build at a time. */
async function loadMissing(withFine: boolean): Promise<void> {
  while (!index || (withFine && !fineIndex)) {
    // A build in flight may be for other parts: wait for it, then build what is still missing.
    if (loading) await loading;
    else await loadParts({ towns: !index, fine: withFine && !fineIndex });
  }
}

/** How long the pool may take to build the indexes (a few seconds; far more on an overloaded machine). */
const PLACE_BUILD_TIMEOUT_MS = 180_000;

/**
 * Build the town index now (after the server starts listening), so no feed or profile waits for it;
 * the finer index waits for the first search, map or hand-over that needs it (ADR 093). Whether it
 * is ready: a failed build is left to the next search.
 */
export async function warmPlaceIndex(): Promise<boolean> {
  try {
    await loadTownIndex();
    return true;
  } catch {
    return false;
  }
}

function pointTree(
  count: number,
  longitudeOf: (i: number) => number,
  latitudeOf: (i: number) => number,
): KDBush {
  const started = performance.now();
  const tree = new KDBush(Math.max(count, 1));
  for (let i = 0; i < count; i++) tree.add(longitudeOf(i), latitudeOf(i));
  // KDBush needs a point; with no data, a point no answer is read for (callers check the count).
  if (count === 0) tree.add(0, 0);
  const finished = tree.finish();
  if (stats) stats.treeMs = (stats.treeMs ?? 0) + Math.round(performance.now() - started);
  return finished;
}

function townTree(ix: PlaceIndex): { tree: KDBush; records: Uint32Array } {
  if (!ix.townTree) {
    const records: number[] = [];
    for (let i = 0; i < ix.count; i++) if (ix.kinds[i] === TOWN) records.push(i);
    const tree = pointTree(
      records.length,
      (i) => ix.longitudes[records[i] as number] as number,
      (i) => ix.latitudes[records[i] as number] as number,
    );
    ix.townTree = { tree, records: Uint32Array.from(records) };
  }
  return ix.townTree;
}

/** The k-d trees of the neighborhoods and ZIP codes, built on first use. */
function fineTrees(fx: FineIndex): { hoodTree: KDBush; postalTree: KDBush } {
  fx.hoodTree ??= pointTree(
    fx.hoods.count,
    (n) => fx.hoods.longitudes[n] as number,
    (n) => fx.hoods.latitudes[n] as number,
  );
  fx.postalTree ??= pointTree(
    fx.postal.count,
    (z) => fx.postal.longitudes[z] as number,
    (z) => fx.postal.latitudes[z] as number,
  );
  return { hoodTree: fx.hoodTree, postalTree: fx.postalTree };
}

/** Load time and memory of the index, once it has been built. */
export function placeIndexStats(): PlaceIndexStats | null {
  return stats;
}

function displayNameOf(ix: PlaceIndex, i: number): string {
  const name = stringAt(ix.names, i);
  const code = codeAt(ix.countries, i);
  const country = countryName(code);
  const region = regionName(code, codeAt(ix.admins, i));
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

/** "Buckman, Portland, Oregon, United States". */
function hoodPlaceOf(fx: FineIndex, n: number): Place {
  const { hoods } = fx;
  const name = hoods.names[n] as string;
  const city = hoods.cities[n] as string;
  const region = regionName('US', hoods.states[n] as string);
  const parts = [name];
  if (city !== name) parts.push(city);
  if (region) parts.push(region);
  parts.push(countryName('US'));
  return {
    id: hoods.ids[n] as string,
    displayName: parts.join(', '),
    latitude: hoods.latitudes[n] as number,
    longitude: hoods.longitudes[n] as number,
  };
}

/** "97214, Portland, Oregon, United States". */
function postalPlaceOf(fx: FineIndex, z: number): Place {
  const { postal } = fx;
  const region = regionName('US', postal.states[z] as string);
  return {
    id: `zip:${postal.codes[z]}`,
    displayName: [postal.codes[z], postal.cities[z], region, countryName('US')].filter(Boolean).join(', '),
    latitude: postal.latitudes[z] as number,
    longitude: postal.longitudes[z] as number,
  };
}

/** Folded words a qualifier after a comma may start: region and country, by name or code. */
function qualifierKeys(ix: PlaceIndex, i: number): string[] {
  const country = codeAt(ix.countries, i);
  const admin = codeAt(ix.admins, i);
  const region = regionName(country, admin);
  return [
    foldText(countryName(country)),
    country.toLowerCase(),
    admin.toLowerCase(),
    ...(region ? [foldText(region)] : []),
  ];
}

/** The same for a neighborhood or ZIP code in the US, and the city it is in. */
function usQualifierKeys(city: string, state: string): string[] {
  const region = regionName('US', state);
  return [
    foldText(countryName('US')),
    'us',
    state.toLowerCase(),
    foldText(city),
    ...(region ? [foldText(region)] : []),
  ];
}

/**
 * Whether the folded words of a qualifier are, in order, names the place is known by: each word run
 * a whole known name ("portland or": Portland, then OR; "new york"), the last one possibly cut short
 * ("portland, oreg"). A single known name the qualifier starts ("ore") qualifies too.
 */
export function coversWords(qualifier: string, known: string[]): boolean {
  if (!qualifier) return true;
  return known.some((k) => {
    if (!k) return false;
    if (k.startsWith(qualifier)) return true;
    return qualifier.startsWith(`${k} `) && coversWords(qualifier.slice(k.length + 1), known);
  });
}

const qualified = (qualifiers: string[], known: string[]) => qualifiers.every((q) => coversWords(q, known));

/**
 * Collects matches offered in rank order and ranks them for a member: those within NEAR_KM of their
 * point first, nearest first, then the others in rank order. Two matches that would read the same
 * are one suggestion: the first (the nearer place, or the larger town).
 */
class Ranking {
  private readonly near: Array<{ place: Place; km: number; order: number }> = [];
  private readonly far: Place[] = [];
  private readonly farNames = new Set<string>();
  private offered = 0;

  constructor(
    private readonly limit: number,
    private readonly origin: Point | null,
  ) {}

  /** Whether a later match can still change the answer. */
  get wantsMore(): boolean {
    return this.origin !== null || this.farNames.size < this.limit;
  }

  offer(place: Place): void {
    const order = this.offered++;
    if (this.origin) {
      const km = kmBetween(this.origin, place);
      if (km <= NEAR_KM) {
        this.near.push({ place, km, order });
        return;
      }
    }
    if (this.farNames.size < this.limit && !this.farNames.has(place.displayName)) {
      this.farNames.add(place.displayName);
      this.far.push(place);
    }
  }

  places(): Place[] {
    const near = this.near.sort((a, b) => a.km - b.km || a.order - b.order).map((n) => n.place);
    const seen = new Set<string>();
    const places: Place[] = [];
    for (const place of [...near, ...this.far]) {
      if (seen.has(place.displayName)) continue;
      seen.add(place.displayName);
      places.push(place);
      if (places.length >= this.limit) break;
    }
    return places;
  }
}

/** The digits of a US ZIP code being typed ("972", "97214", "97214-1234"), or null. */
export function postalPrefix(text: string): string | null {
  const match = /^(\d{3,5})(?:-\d{0,4})?$/.exec(text.trim());
  return match ? (match[1] as string) : null;
}

/** ZIP codes starting with the digits: nearest the member first, else in code order. */
function searchPostalCodes(
  prefix: string,
  qualifiers: string[],
  limit: number,
  origin: Point | null,
): Place[] {
  const fx = fine();
  const { postal } = fx;
  const from = lowerBound(postal.codes, prefix);
  // ':' sorts right after '9': the end of the codes that start with the prefix.
  const to = lowerBound(postal.codes, `${prefix}:`);
  const found: Array<{ z: number; km: number }> = [];
  for (let z = from; z < to; z++) {
    if (qualifiers.length > 0) {
      const known = usQualifierKeys(postal.cities[z] as string, postal.states[z] as string);
      if (!qualified(qualifiers, known)) continue;
    }
    const point = { latitude: postal.latitudes[z] as number, longitude: postal.longitudes[z] as number };
    found.push({ z, km: origin ? kmBetween(origin, point) : 0 });
    if (!origin && found.length >= limit) break;
  }
  if (origin) found.sort((a, b) => a.km - b.km || a.z - b.z);
  return found.slice(0, limit).map(({ z }) => postalPlaceOf(fx, z));
}

/**
 * Search over town, city-section and neighborhood names (a prefix of the name, or of a later word of
 * a neighborhood's name: "Moreland" finds Sellwood-Moreland), accent- and case-insensitive, or over
 * US ZIP codes when the text is digits. With the member's own point, places within NEAR_KM come
 * first, nearest first; then (and otherwise) the most populous towns, then neighborhoods. Text
 * after a comma narrows by city, region or country, so a chosen suggestion ("Buckman, Portland,
 * Oregon, United States") finds itself again; without a comma, the last words do when the whole text
 * finds too little ("Hawthorne Portland", ADR 057).
 */
export function searchPlaces(query: string, limit: number, origin: Point | null = null): Place[] {
  const [namePart = '', ...rest] = query.split(',');
  const qualifiers = rest.map(foldText).filter(Boolean);
  const zip = postalPrefix(namePart);
  if (zip) return searchPostalCodes(zip, qualifiers, limit, origin);
  const key = foldText(namePart);
  if (!key) return [];
  const places = searchNames(key, qualifiers, limit, origin);
  if (places.length >= limit) return places;

  // "Hawthorne Portland", "Sunnyside Portland OR": without a comma, the last words may name the
  // town, region or country. Longest name first; what the whole text found stays first.
  const words = key.split(' ');
  const seen = new Set(places.map((p) => p.displayName));
  for (let w = words.length - 1; w >= 1 && places.length < limit; w--) {
    const name = words.slice(0, w).join(' ');
    if (name.length < MIN_SPLIT_NAME_LENGTH) break;
    const town = words.slice(w).join(' ');
    for (const place of searchNames(name, [town, ...qualifiers], limit, origin)) {
      if (places.length >= limit) break;
      if (seen.has(place.displayName)) continue;
      seen.add(place.displayName);
      places.push(place);
    }
  }
  return places;
}

/** A name left of the town in "place town" is at least this long ("Hawthorne Portland", not "a Portland"). */
const MIN_SPLIT_NAME_LENGTH = 3;

/** Places whose folded name (or a later word of a neighborhood's) starts with the key, as searchPlaces ranks them. */
function searchNames(key: string, qualifiers: string[], limit: number, origin: Point | null): Place[] {
  const ix = placeIndex();
  const ranking = new Ranking(limit, origin);

  // Records in rank order whose name could start with the key: its bucket, or all for a short key.
  const bucket =
    key.length >= BUCKET_KEY_LENGTH ? groupRows(ix.buckets, key.slice(0, BUCKET_KEY_LENGTH)) : null;
  const candidates = bucket ? bucket.length : ix.count;
  for (let c = 0; c < candidates; c++) {
    const record = bucket ? (bucket[c] as number) : c;
    if (!startsWithAt(ix.keys, record, key)) continue;
    if (qualifiers.length > 0 && !qualified(qualifiers, qualifierKeys(ix, record))) continue;
    ranking.offer(placeOf(ix, record));
    if (!ranking.wantsMore) return ranking.places();
  }

  const fx = fine();
  const hoods: Iterable<number> =
    key.length >= BUCKET_KEY_LENGTH
      ? (fx.hoodBuckets.get(key.slice(0, BUCKET_KEY_LENGTH)) ?? [])
      : fx.hoodKeys.keys();
  for (const n of hoods) {
    if (!(fx.hoodKeys[n] as string[]).some((k) => k.startsWith(key))) continue;
    if (qualifiers.length > 0) {
      const known = usQualifierKeys(fx.hoods.cities[n] as string, fx.hoods.states[n] as string);
      if (!qualified(qualifiers, known)) continue;
    }
    ranking.offer(hoodPlaceOf(fx, n));
    if (!ranking.wantsMore) break;
  }
  return ranking.places();
}

/** The town nearest to the point, within REVERSE_MAX_DISTANCE_KM (what a member's page names). */
export function nearestPlace(latitude: number, longitude: number): Place | null {
  const ix = placeIndex();
  const { tree, records } = townTree(ix);
  const [nearest] = around(tree, longitude, latitude, 1, REVERSE_MAX_DISTANCE_KM);
  return nearest === undefined || records.length === 0 ? null : placeOf(ix, records[nearest] as number);
}

/**
 * The most precise name for a point, for "use current location": the neighborhood whose centre is
 * within NEIGHBOURHOOD_REVERSE_KM, else the ZIP code within POSTAL_REVERSE_KM, else the town.
 */
export function nearestNamedPlace(latitude: number, longitude: number): Place | null {
  const fx = fine();
  const { hoodTree, postalTree } = fineTrees(fx);
  const [hood] = around(hoodTree, longitude, latitude, 1, NEIGHBOURHOOD_REVERSE_KM);
  if (hood !== undefined && fx.hoods.count > 0) return hoodPlaceOf(fx, hood);
  const [zip] = around(postalTree, longitude, latitude, 1, POSTAL_REVERSE_KM);
  if (zip !== undefined && fx.postal.count > 0) return postalPlaceOf(fx, zip);
  return nearestPlace(latitude, longitude);
}

/** GEOCODER=offline: the bundled GeoNames towns, neighborhoods and ZIP codes, no network. */
export const offlineGeocoder: Geocoder = {
  async search(query, limit, origin) {
    await loadPlaceIndex();
    return searchPlaces(query, limit, origin ?? null);
  },
  async reverse(latitude, longitude) {
    await loadPlaceIndex();
    return nearestNamedPlace(latitude, longitude);
  },
  async warm() {
    await warmPlaceIndex();
  },
};

/** A named area (neighbourhood or town) and the larger and summed distances from it to the points. */
interface AreaCandidate {
  place: Place;
  maxKm: number;
  sumKm: number;
}

function scoreArea(place: Place, points: readonly Point[]): AreaCandidate {
  let maxKm = 0;
  let sumKm = 0;
  for (const point of points) {
    const km = kmBetween(place, point);
    if (km > maxKm) maxKm = km;
    sumKm += km;
  }
  return { place, maxKm, sumKm };
}

const fairer = (a: AreaCandidate, b: AreaCandidate) => a.maxKm - b.maxKm || a.sumKm - b.sumKm;

/** Farther than this from every point, no named area is suggested (members that far do not meet). */
export const FAIREST_AREA_MAX_KM = 250;

/**
 * The fairest named area between some points (issue 30, ADR 080): of the neighbourhoods and towns the
 * app ships, the one whose centre minimises the larger distance to every point, then their sum. The
 * points are members' PUBLIC points, never their homes. Exact, not a guess around the middle: with the
 * area nearest the points' centroid c scoring D, any area that does better lies within D + max|c, p|
 * of c (triangle inequality), so those are all the candidates scored.
 */
export function fairestNamedPlace(points: readonly Point[]): Place | null {
  if (points.length === 0) return null;
  const ix = placeIndex();
  const fx = fine();
  const towns = townTree(ix);
  const { hoodTree } = fineTrees(fx);
  // The centroid on the sphere is close enough to the planar mean at a town's scale.
  const c = {
    latitude: points.reduce((s, p) => s + p.latitude, 0) / points.length,
    longitude: points.reduce((s, p) => s + p.longitude, 0) / points.length,
  };
  const spread = Math.max(...points.map((p) => kmBetween(c, p)));
  const hoodAt = (n: number) => hoodPlaceOf(fx, n);
  const townAt = (t: number) => placeOf(ix, towns.records[t] as number);
  const seeds: AreaCandidate[] = [];
  const [nearHood] = fx.hoods.count > 0 ? around(hoodTree, c.longitude, c.latitude, 1) : [];
  if (nearHood !== undefined) seeds.push(scoreArea(hoodAt(nearHood), points));
  const [nearTown] = towns.records.length > 0 ? around(towns.tree, c.longitude, c.latitude, 1) : [];
  if (nearTown !== undefined) seeds.push(scoreArea(townAt(nearTown), points));
  const seed = seeds.sort(fairer)[0];
  if (!seed || seed.maxKm > FAIREST_AREA_MAX_KM) return null;
  const reach = seed.maxKm + spread;
  let best = seed;
  const consider = (place: Place) => {
    const candidate = scoreArea(place, points);
    if (fairer(candidate, best) < 0) best = candidate;
  };
  if (fx.hoods.count > 0) {
    for (const n of around(hoodTree, c.longitude, c.latitude, Infinity, reach) as number[])
      consider(hoodAt(n));
  }
  if (towns.records.length > 0) {
    for (const t of around(towns.tree, c.longitude, c.latitude, Infinity, reach) as number[])
      consider(townAt(t));
  }
  return best.place;
}

/** The fairest named area between members' public points, from the shipped place data (ADR 080). */
export async function fairestNamedArea(points: readonly Point[]): Promise<Place | null> {
  await loadPlaceIndex();
  return fairestNamedPlace(points);
}

/** The town nearest a point (as `nearestPlace`), with the index built off this thread first. */
export async function townNear(point: Point): Promise<Place | null> {
  await loadTownIndex();
  return nearestPlace(point.latitude, point.longitude);
}

/** A name the base map writes at its point (a town, or a ZIP code at its area's centre). */
export interface MapLabel {
  name: string;
  latitude: number;
  longitude: number;
}

/**
 * The towns (most populous first) and ZIP code areas whose points fall in the box, at most `max`
 * of each, for the map's own base when no tile server is set (ADR 086). Loads the index like a
 * search does.
 */
export async function labelsInBox(
  box: { south: number; west: number; north: number; east: number },
  max: number,
): Promise<{ towns: MapLabel[]; postalCodes: MapLabel[] }> {
  await loadPlaceIndex();
  const ix = placeIndex();
  const { tree, records } = townTree(ix);
  // Records are in rank order (most populous first): the lowest record numbers are the biggest towns.
  const townRecords =
    records.length === 0
      ? []
      : tree
          .range(box.west, box.south, box.east, box.north)
          .map((k) => records[k] as number)
          .sort((a, b) => a - b)
          .slice(0, max);
  const fx = fine();
  const { postalTree } = fineTrees(fx);
  const zips = fx.postal.count === 0 ? [] : postalTree.range(box.west, box.south, box.east, box.north);
  return {
    towns: townRecords.map((i) => ({
      name: stringAt(ix.names, i),
      latitude: ix.latitudes[i] as number,
      longitude: ix.longitudes[i] as number,
    })),
    postalCodes: zips
      .sort((a, b) => (fx.postal.codes[a] as string).localeCompare(fx.postal.codes[b] as string))
      .slice(0, max)
      .map((z) => ({
        name: fx.postal.codes[z] as string,
        latitude: fx.postal.latitudes[z] as number,
        longitude: fx.postal.longitudes[z] as number,
      })),
  };
}
