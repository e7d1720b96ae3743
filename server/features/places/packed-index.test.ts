/**
 * The town index packed (issue 32): names, keys and codes in a few large values instead of a string
 * each. packed-index.answers.json holds what the index answered before it was packed (the code at
 * 8639da6, the bundled data of package-lock.json): searches for a sample of typed text (fixed cases
 * and the data's own names cut short, each from one of four places), reverse look-ups, the fairest
 * area between points and the map's labels. A change to the data files changes those answers: write
 * the file again from the code before a change to the index, then compare.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { Place } from '#common/schemas/places.ts';
import { closeWorkerPool } from '../../workers/pool';
import {
  fairestNamedPlace,
  labelsInBox,
  nearestNamedPlace,
  nearestPlace,
  placeIndexStats,
  searchPlaces,
} from './offline-geocoder';
import {
  codeAt,
  codeColumn,
  groupRows,
  packedCount,
  packGroups,
  packStrings,
  startsWithAt,
  stringAt,
} from './packed-columns';

afterAll(() => closeWorkerPool());

type Compact = [string, string, number, number] | null;
type Point = { latitude: number; longitude: number };
interface Answers {
  searches: Array<{ query: string; origin: Point | null; places: Compact[] }>;
  reverse: Array<{ point: [number, number]; town: Compact; named: Compact }>;
  fairest: Array<{ points: Array<[number, number]>; place: Compact }>;
  labels: Array<{
    box: { south: number; west: number; north: number; east: number };
    labels: Awaited<ReturnType<typeof labelsInBox>>;
  }>;
}

const answers = JSON.parse(
  readFileSync(new URL('./packed-index.answers.json', import.meta.url), 'utf8'),
) as Answers;
const compact = (p: Place | null): Compact => (p ? [p.id, p.displayName, p.latitude, p.longitude] : null);

describe('packed columns', () => {
  it('give back each string, with prefixes that never reach into the next one', () => {
    const strings = ['portland', '', 'zürich', 'por', '北京', 'p', 'łódź', ''];
    const packed = packStrings(strings);
    expect(packedCount(packed)).toBe(strings.length);
    expect(strings.map((_, i) => stringAt(packed, i))).toEqual(strings);
    // Latin-1 end to end (one byte a character); the others apart.
    expect(packed.text).toBe('portlandzürichporp');
    expect([...packed.wide]).toEqual([
      [4, '北京'],
      [6, 'łódź'],
    ]);
    expect(startsWithAt(packed, 0, 'port')).toBe(true);
    expect(startsWithAt(packed, 0, 'portland')).toBe(true);
    // "portland" then "" then "zürich": not "portlandz".
    expect(startsWithAt(packed, 0, 'portlandz')).toBe(false);
    expect(startsWithAt(packed, 1, '')).toBe(true);
    expect(startsWithAt(packed, 1, 'z')).toBe(false);
    expect(startsWithAt(packed, 2, 'zür')).toBe(true);
    expect(startsWithAt(packed, 3, 'por')).toBe(true);
    expect(startsWithAt(packed, 3, 'porp')).toBe(false);
    expect(startsWithAt(packed, 4, '北')).toBe(true);
    expect(startsWithAt(packed, 4, '')).toBe(true);
    expect(startsWithAt(packed, 4, '京')).toBe(false);
    expect(startsWithAt(packed, 5, 'p')).toBe(true);
    expect(startsWithAt(packed, 5, 'pł')).toBe(false);
    expect(startsWithAt(packed, 6, 'łó')).toBe(true);
    expect(startsWithAt(packed, 7, 'p')).toBe(false);
    expect(packStrings([])).toEqual({ text: '', starts: Uint32Array.of(0), wide: new Map() });
  });

  it('number the codes once each', () => {
    const codes = ['US', 'GB', 'US', 'OR', 'US', ''];
    const column = codeColumn(codes);
    expect(column.values).toEqual(['US', 'GB', 'OR', '']);
    expect(codes.map((_, i) => codeAt(column, i))).toEqual(codes);
  });

  it('group rows by key, in the order added', () => {
    const keys = ['por', 'zur', 'por', 'new', 'zur', 'por'];
    const groups = packGroups(keys);
    expect([...groupRows(groups, 'por')]).toEqual([0, 2, 5]);
    expect([...groupRows(groups, 'zur')]).toEqual([1, 4]);
    expect([...groupRows(groups, 'new')]).toEqual([3]);
    expect([...groupRows(groups, 'xyz')]).toEqual([]);
  });

  it('survive a structured clone (what the worker pool sends)', () => {
    const packed = structuredClone({
      names: packStrings(['a', 'bc']),
      codes: codeColumn(['x', 'y', 'x']),
      groups: packGroups(['a', 'b', 'a']),
    });
    expect(stringAt(packed.names, 1)).toBe('bc');
    expect(codeAt(packed.codes, 2)).toBe('x');
    expect([...groupRows(packed.groups, 'a')]).toEqual([0, 2]);
  });
});

describe('the packed town index', () => {
  it(`answers ${answers.searches.length} searches as the index before packing did`, () => {
    for (const { query, origin, places } of answers.searches) {
      expect(searchPlaces(query, 5, origin).map(compact), `${query} from ${JSON.stringify(origin)}`).toEqual(
        places,
      );
    }
    const stats = placeIndexStats();
    expect(stats?.places).toBeGreaterThan(130_000);
    // The names, keys, codes and buckets in a few MB (as strings and arrays: about 20 MB of heap).
    expect(stats?.packedBytes).toBeLessThan(8_000_000);
  }, 120_000);

  it('names the same towns and areas at points, between points and on the map', async () => {
    for (const { point, town, named } of answers.reverse) {
      expect(compact(nearestPlace(point[0], point[1])), `${point}`).toEqual(town);
      expect(compact(nearestNamedPlace(point[0], point[1])), `${point}`).toEqual(named);
    }
    for (const { points, place } of answers.fairest) {
      const at = points.map(([latitude, longitude]) => ({ latitude, longitude }));
      expect(compact(fairestNamedPlace(at)), JSON.stringify(points)).toEqual(place);
    }
    for (const { box, labels } of answers.labels) {
      expect(await labelsInBox(box, 20), JSON.stringify(box)).toEqual(labels);
    }
  }, 120_000);
});
