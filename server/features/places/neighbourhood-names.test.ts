/**
 * Issue 28: the names neighbours give their area (districts, main streets, neighbourhoods the Zillow
 * data lacks), ranked near the member's own area, and typed as "place, town" or "place town".
 */
import { describe, expect, it } from 'vitest';
import { kmBetween } from '../../geo/earth';
import { CURATED_PLACES } from './curated-places';
import { addCuratedPlaces, loadNeighbourhoods } from './neighbourhoods';
import { coversWords, searchPlaces } from './offline-geocoder';

const PORTLAND = { latitude: 45.5122, longitude: -122.6533 };
const LONDON = { latitude: 51.5074, longitude: -0.1278 };
const PORTLAND_CENTRE = { latitude: 45.5152, longitude: -122.6784 };
const IN_PORTLAND = /, Portland, Oregon, United States$/;

const names = (q: string, origin: { latitude: number; longitude: number } | null = null) =>
  searchPlaces(q, 5, origin).map((p) => p.displayName);

describe('place names a neighbour in Portland uses', () => {
  it.each([
    ['Hawthorne', 'Hawthorne District, Portland, Oregon, United States'],
    ['Sunnyside', 'Sunnyside, Portland, Oregon, United States'],
    ['Alberta', 'Alberta Arts District, Portland, Oregon, United States'],
    ['Hawthorne Portland', 'Hawthorne District, Portland, Oregon, United States'],
    ['Laurelhurst', 'Laurelhurst, Portland, Oregon, United States'],
    ['Belmont', 'Belmont District, Portland, Oregon, United States'],
    ['Mississippi', 'Mississippi District, Portland, Oregon, United States'],
    ['Ladds', "Ladd's Addition, Portland, Oregon, United States"],
    ["Ladd's Addition", "Ladd's Addition, Portland, Oregon, United States"],
    ['Nob Hill', 'Nob Hill, Portland, Oregon, United States'],
    ['Goose Hollow', 'Goose Hollow, Portland, Oregon, United States'],
    ['Grant Park', 'Grant Park, Portland, Oregon, United States'],
  ])('offers a Portland, Oregon place first for "%s" to a member in Portland', (q, first) => {
    const places = searchPlaces(q, 5, PORTLAND);
    expect(places[0]?.displayName).toBe(first);
    // A real point in the city, a few kilometres from its centre.
    expect(kmBetween(places[0] as { latitude: number; longitude: number }, PORTLAND_CENTRE)).toBeLessThan(8);
  });

  it('does not offer Portland first to a member in London typing "Hawthorne"', () => {
    const found = names('Hawthorne', LONDON);
    expect(found.length).toBe(5);
    expect(found[0]).not.toMatch(IN_PORTLAND);
    expect(found[0]).toBe('Hawthorne, California, United States');
  });

  it("keeps today's order without a known area: the most populous towns first", () => {
    expect(names('Hawthorne')[0]).toBe('Hawthorne, California, United States');
    expect(names('Hawthorne')).not.toContain('Hawthorne District, Portland, Oregon, United States');
    expect(names('Portl').slice(0, 2)).toEqual([
      'Portland, Oregon, United States',
      'Portland, Maine, United States',
    ]);
  });

  it.each([
    ['Hawthorne, Portland', 'Hawthorne District, Portland, Oregon, United States'],
    ['Hawthorne Portland', 'Hawthorne District, Portland, Oregon, United States'],
    ['hawthorne   portland', 'Hawthorne District, Portland, Oregon, United States'],
    ['Sunnyside, Portland, OR', 'Sunnyside, Portland, Oregon, United States'],
    ['Sunnyside Portland OR', 'Sunnyside, Portland, Oregon, United States'],
    ['Sunnyside, Portland Oregon', 'Sunnyside, Portland, Oregon, United States'],
    ['Alberta, Portland', 'Alberta Arts District, Portland, Oregon, United States'],
    ['Buckman Portland', 'Buckman, Portland, Oregon, United States'],
    ['Portland Maine', 'Portland, Maine, United States'],
    ['Hawthorne New York', 'Hawthorne, New York, United States'],
  ])('reads "%s" as a place and the town, region or country it is in', (q, first) => {
    // The same for anyone: the town named wins over the member's area.
    expect(names(q)[0]).toBe(first);
    expect(names(q, LONDON)[0]).toBe(first);
  });

  it('still finds a whole name before reading its last word as a town', () => {
    expect(names('New York')[0]).toBe('New York City, New York, United States');
    expect(names('Salt Lake')[0]).toBe('Salt Lake City, Utah, United States');
    expect(names('Hawthorne Nowhere')).toEqual([]);
  });

  it('still finds ZIP code 97214 and Buckman', () => {
    expect(names('97214', PORTLAND)).toEqual(['97214, Portland, Oregon, United States']);
    expect(names('97214')).toEqual(['97214, Portland, Oregon, United States']);
    expect(names('Buckman')).toEqual(['Buckman, Portland, Oregon, United States']);
    expect(names('Buckman', PORTLAND)[0]).toBe('Buckman, Portland, Oregon, United States');
  });

  it('answers public places only: never the point it ranked by', () => {
    const origin = { latitude: 45.51234, longitude: -122.62987 };
    for (const place of searchPlaces('Hawthorne', 5, origin)) {
      expect(place.latitude).not.toBe(origin.latitude);
      expect(place.longitude).not.toBe(origin.longitude);
      expect(Object.keys(place).sort()).toEqual(['displayName', 'id', 'latitude', 'longitude']);
    }
  });
});

describe('qualifier words', () => {
  const known = ['united states', 'us', 'or', 'portland', 'oregon'];
  it.each([
    ['portland', true],
    ['port', true],
    ['portland or', true],
    ['portland oregon', true],
    ['portland oreg', true],
    ['oregon portland', true],
    ['portland maine', false],
    ['seattle', false],
    ['', true],
  ])('reads %j against a place in Portland, Oregon: %s', (qualifier, expected) => {
    expect(coversWords(qualifier, known)).toBe(expected);
  });
});

describe("the project's own table of neighbourhoods and districts (ADR 057)", () => {
  it('names a source and a real point near its city for every entry, each once', () => {
    const slugs = new Set<string>();
    for (const place of CURATED_PLACES) {
      expect(place.source).toMatch(/Wikipedia, "/);
      expect(place.slug).toMatch(/^[a-z0-9-]+$/);
      expect(slugs.has(place.slug)).toBe(false);
      slugs.add(place.slug);
      if (place.city === 'Portland' && place.state === 'OR')
        expect(kmBetween(place, PORTLAND_CENTRE)).toBeLessThan(12);
    }
  });

  it('adds what the Zillow data lacks after it, and never a name it already has in that city', () => {
    const zillow = loadNeighbourhoods();
    const before = zillow.count;
    const inPortland = (columns: typeof zillow) =>
      columns.names.filter((_, n) => columns.cities[n] === 'Portland' && columns.states[n] === 'OR');
    expect(inPortland(zillow)).not.toContain('Sunnyside');
    const all = addCuratedPlaces(zillow);
    expect(all.count).toBe(before + CURATED_PLACES.length);
    expect(all.ids.slice(before)).toEqual(CURATED_PLACES.map((p) => `curated:${p.slug}`));
    expect(new Set(inPortland(all)).size).toBe(inPortland(all).length);
    // Adding a name it already has ("Buckman") adds nothing.
    const buckman = { ...(CURATED_PLACES[0] as (typeof CURATED_PLACES)[number]), slug: 'x', name: 'Buckman' };
    expect(addCuratedPlaces(loadNeighbourhoods(), [buckman]).count).toBe(before);
  });
});
