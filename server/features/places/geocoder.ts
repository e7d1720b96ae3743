import type { FastifyBaseLogger } from 'fastify';
import type { Place } from '../../../common/schemas/places';
import type { Config } from '../../config';
import type { Point } from '../../geo/earth';
import { NominatimGeocoder } from './nominatim-geocoder';
import { offlineGeocoder, placeIndexStats, warmPlaceIndex } from './offline-geocoder';

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

/** The identifying User-Agent Nominatim's usage policy asks for. */
export function geocoderUserAgent(version: string, publicUrl: string): string {
  return `Barterhood/${version} (+${publicUrl})`;
}

/** The geocoder the settings choose. */
export function createGeocoder(config: Config, version: string, log: FastifyBaseLogger): Geocoder {
  const { provider, nominatimUrl } = config.geocoder;
  if (provider === 'nominatim' && nominatimUrl) {
    return new NominatimGeocoder({
      baseUrl: nominatimUrl,
      userAgent: geocoderUserAgent(version, config.publicUrl),
      onError: (error, what) => log.warn({ err: error, what }, 'geocoder request failed'),
    });
  }
  return logIndexBuild(offlineGeocoder, log);
}

/** Log once how long the offline index took to build and what it holds (it is built on first use). */
function logIndexBuild(geocoder: Geocoder, log: FastifyBaseLogger): Geocoder {
  let logged = placeIndexStats() !== null;
  const after = <T>(result: T): T => {
    const stats = logged ? null : placeIndexStats();
    if (stats) {
      logged = true;
      log.info(stats, 'offline place index built');
    }
    return result;
  };
  return {
    search: async (query, limit, origin) => after(await geocoder.search(query, limit, origin)),
    reverse: async (latitude, longitude) => after(await geocoder.reverse(latitude, longitude)),
    warm: async () => {
      if (!(await warmPlaceIndex())) {
        log.warn(
          'the offline place index could not be built in the worker pool; the next search tries again',
        );
      }
      after(undefined);
    },
  };
}
