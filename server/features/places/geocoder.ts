import { PLACES_ERROR_CODES, type Place } from '#common/schemas/places.ts';
import { HttpError } from '../../errors';
import type { Point } from '../../geo/earth';

/** Where place search and reverse look-up come from (settings GEOCODER and NOMINATIM_URL). */
export interface Geocoder {
  /**
   * Places whose name (or ZIP code) starts with the text, best first, at most `limit`; those near
   * `origin` (the searching member's own point, when they have one) first.
   */
  search(query: string, limit: number, origin?: Point | null): Promise<Place[]>;
  /** Load what look-ups need ahead of the first one (the offline index); nothing for a service. */
  warm?(): Promise<void>;
  /** The most precise named place near the point (neighborhood, ZIP code, town), or null. */
  reverse(latitude: number, longitude: number): Promise<Place | null>;
}

/** The upstream failure every caller sees: 502 GEOCODER_UNAVAILABLE with a plain sentence. */
export function geocoderUnavailable(
  message = 'Location search is unavailable right now. Please try again in a moment.',
) {
  return new HttpError(502, PLACES_ERROR_CODES.geocoderUnavailable, message);
}
