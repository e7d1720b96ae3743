import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Geocoder } from './geocoder';
import { NominatimGeocoder } from './nominatim-geocoder';
import { offlineGeocoder, placeIndexStats, warmPlaceIndex } from './offline-geocoder';

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

/**
 * Log how long each build of the offline index took and what it holds: the towns once the server
 * listens, the neighbourhoods and ZIP codes when first needed and again after an idle spell (ADR 093).
 */
function logIndexBuild(geocoder: Geocoder, log: FastifyBaseLogger): Geocoder {
  let logged = placeIndexStats();
  const after = <T>(result: T): T => {
    const stats = placeIndexStats();
    if (stats && stats !== logged) {
      logged = stats;
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
