/**
 * The offline place index built in the worker pool (issue 27, ADR 048): loading it leaves the event
 * loop free, and the installed index answers exactly as one built on this thread does.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { closeWorkerPool } from '../../workers/pool';

afterAll(() => closeWorkerPool());

const SEARCHES: Array<[string, { latitude: number; longitude: number } | null]> = [
  ['portland', null],
  ['portland', { latitude: 43.66, longitude: -70.26 }],
  ['Zürich', null],
  ['moreland', null],
  ['buckman, portland', null],
  ['hawthorne portland', null],
  ['sunnyside', { latitude: 45.52, longitude: -122.68 }],
  ['972', { latitude: 45.52, longitude: -122.68 }],
  ['sao paulo', null],
  ['sp', null],
];
const POINTS: Array<[number, number]> = [
  [45.5, -122.6],
  [51.5074, -0.1278],
  [-33.87, 151.21],
  [40.75, -73.99],
  [0, -30],
];

describe('the offline place index from the worker pool', () => {
  it('loads beside the event loop and answers as the index built here', async () => {
    // A copy of the module of its own: this project's files share a worker, and one that ran
    // before may have loaded the index already (then the build below would not happen).
    vi.resetModules();
    const pooled = await import('./offline-geocoder');
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    try {
      await pooled.loadPlaceIndex();
    } finally {
      clearInterval(timer);
    }
    // Timers kept firing while the index was built (built here, it holds the loop a second or more).
    expect(ticks).toBeGreaterThan(5);
    expect(pooled.placeIndexStats()).toMatchObject({
      places: expect.any(Number),
      neighbourhoods: expect.any(Number),
    });

    // A fresh copy of the module builds its own index on this thread, as before the pool.
    vi.resetModules();
    const here = await import('./offline-geocoder');
    expect(here).not.toBe(pooled);
    for (const [query, origin] of SEARCHES) {
      const expected = here.searchPlaces(query, 5, origin);
      expect(expected.length, query).toBeGreaterThan(0);
      expect(await pooled.offlineGeocoder.search(query, 5, origin), query).toEqual(expected);
    }
    for (const [latitude, longitude] of POINTS) {
      expect(await pooled.offlineGeocoder.reverse(latitude, longitude)).toEqual(
        here.nearestNamedPlace(latitude, longitude),
      );
    }
  }, 300_000);
});

describe('the finer index (neighbourhoods and ZIP codes) when idle (ADR 093)', () => {
  it('is built on first need, not by the warm-up; let go after FINE_IDLE_MS unused; built again in the pool', async () => {
    vi.resetModules();
    const geocoder = await import('./offline-geocoder');
    await geocoder.offlineGeocoder.warm?.();
    // The warm-up builds the towns the feeds read, not the finer index.
    expect(geocoder.nearestPlace(45.5, -122.6)?.displayName).toMatch(/Portland, Oregon/);
    expect(geocoder.fineIndexLoaded()).toBe(false);

    const [first] = await geocoder.offlineGeocoder.search('buckman, portland', 5);
    expect(first?.displayName).toMatch(/^Buckman/);
    expect(geocoder.fineIndexLoaded()).toBe(true);

    const usedAt = performance.now();
    expect(geocoder.letIdleFineIndexGo(usedAt + geocoder.FINE_IDLE_MS / 2)).toBe(false);
    expect(geocoder.fineIndexLoaded()).toBe(true);
    expect(geocoder.letIdleFineIndexGo(usedAt + geocoder.FINE_IDLE_MS + 1)).toBe(true);
    expect(geocoder.fineIndexLoaded()).toBe(false);

    // Built again in the pool, not here: timers keep firing while it is, and it answers the same.
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    try {
      expect(await geocoder.offlineGeocoder.search('buckman, portland', 5)).toEqual(
        await geocoder.offlineGeocoder.search('buckman, portland', 5),
      );
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(5);
    const [again] = await geocoder.offlineGeocoder.search('buckman, portland', 5);
    expect(again).toEqual(first);
    expect(geocoder.fineIndexLoaded()).toBe(true);
  }, 300_000);
});

describe('the offline place index when the worker pool fails', () => {
  it('answers 502 GEOCODER_UNAVAILABLE (never building on this thread), and the next search tries again', async () => {
    vi.resetModules();
    const actual = await vi.importActual<typeof import('../../workers/pool')>('../../workers/pool');
    let failures = 1;
    vi.doMock('../../workers/pool', () => ({
      ...actual,
      runInPool: (...args: Parameters<typeof actual.runInPool>) => {
        if (failures-- > 0)
          return Promise.reject(new actual.WorkerPoolError('task buildPlaceData failed', 'crashed'));
        return actual.runInPool(...args);
      },
    }));
    try {
      const geocoder = await import('./offline-geocoder');
      await expect(geocoder.offlineGeocoder.search('portland', 5)).rejects.toMatchObject({
        statusCode: 502,
        code: 'GEOCODER_UNAVAILABLE',
      });
      expect(geocoder.placeIndexStats()).toBeNull();
      const [first] = await geocoder.offlineGeocoder.search('portland', 5);
      expect(first?.displayName).toMatch(/^Portland, Oregon/);
    } finally {
      vi.doUnmock('../../workers/pool');
      await actual.closeWorkerPool();
    }
  }, 300_000);
});
