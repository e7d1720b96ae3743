import type { FastifyBaseLogger } from 'fastify';
import type { Place } from '../../../common/schemas/places';
import type { Config } from '../../config';
import { NominatimGeocoder } from './nominatim-geocoder';
import { offlineGeocoder, placeIndexStats } from './offline-geocoder';

/** Where place search and reverse look-up come from (settings GEOCODER and NOMINATIM_URL). */
export interface Geocoder {
  /** Places whose name starts with the text, best first, at most `limit`. */
  search(query: string, limit: number): Promise<Place[]>;
  /** The named place nearest to the point, or null when there is none near enough. */
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
    search: async (query, limit) => after(await geocoder.search(query, limit)),
    reverse: async (latitude, longitude) => after(await geocoder.reverse(latitude, longitude)),
  };
}
