import { z } from 'zod';
import { LOCATION_SEARCH_MIN_CHARS } from '../constants';
import { DECIMAL_TEXT } from './numbers';
import { textField } from './text';

/** Stable error codes of the place endpoints. */
export const PLACES_ERROR_CODES = {
  geocoderUnavailable: 'GEOCODER_UNAVAILABLE',
  placeNotFound: 'PLACE_NOT_FOUND',
} as const;

export const PLACES_MESSAGES = {
  queryTooShort: `Type at least ${LOCATION_SEARCH_MIN_CHARS} characters to search for a place`,
  queryTooLong: 'The search text is too long',
  latitudeRange: 'Latitude must be between -90 and 90',
  longitudeRange: 'Longitude must be between -180 and 180',
} as const;

/** Longest search text accepted; no place name comes near it. */
export const PLACE_QUERY_MAX_LENGTH = 200;

/** A named place as GET /api/places/search and /api/places/reverse return it. */
export const placeSchema = z.object({
  /** Stable across restarts, e.g. `geonames:5746545` or `osm:R186579`. */
  id: z.string(),
  /** "City, Region, Country", what the profile stores as the member's location. */
  displayName: z.string(),
  latitude: z.number(),
  longitude: z.number(),
});

export type Place = z.infer<typeof placeSchema>;

/**
 * Where another member is, as a map may draw it (item detail, member page): a circle around their
 * public point rounded to 0.01 degree, never their exact point (server/geo/approximate-area.ts).
 */
export const approximateAreaSchema = z.object({
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  /** The circle's radius; the member is somewhere inside. */
  radiusMeters: z.number().int().positive(),
  /** The town nearest the centre ("Portland, Oregon, United States"), for the words beside or instead of the map. */
  name: z.string().nullable(),
});

export type ApproximateArea = z.infer<typeof approximateAreaSchema>;

/** GET /api/places/search?q=: the text, trimmed, at least 3 characters (spec section 5). */
export const placeSearchQuerySchema = z.object({
  q: textField('Search text', { error: PLACES_MESSAGES.queryTooShort })
    .min(LOCATION_SEARCH_MIN_CHARS, PLACES_MESSAGES.queryTooShort)
    .max(PLACE_QUERY_MAX_LENGTH, PLACES_MESSAGES.queryTooLong),
});

// Query strings arrive as text; a blank value must not coerce to 0.
const coordinateParam = (min: number, max: number, message: string) =>
  z
    .string({ error: message })
    .trim()
    // Decimal, or exponent form as String() writes numbers very close to 0 (1e-7); never hex.
    .regex(DECIMAL_TEXT, message)
    .transform(Number)
    .pipe(z.number().min(min, message).max(max, message));

/** GET /api/places/reverse?lat=&lon=. */
export const placeReverseQuerySchema = z.object({
  lat: coordinateParam(-90, 90, PLACES_MESSAGES.latitudeRange),
  lon: coordinateParam(-180, 180, PLACES_MESSAGES.longitudeRange),
});
