import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { LOCATION_SEARCH_MAX_RESULTS } from '#common/constants.ts';
import { apiErrorSchema } from '#common/schemas/errors.ts';
import {
  BASE_MAP_MAX_LABELS,
  BASE_MAP_MAX_OUTLINES,
  baseMapQuerySchema,
  baseMapSchema,
} from '#common/schemas/maps.ts';
import {
  PLACES_ERROR_CODES,
  placeReverseQuerySchema,
  placeSchema,
  placeSearchQuerySchema,
} from '#common/schemas/places.ts';
import packageJson from '../../../package.json' with { type: 'json' };
import { notFound } from '../../errors';
import { ownPoint } from '../../geo/earth';
import { createGeocoder } from './create-geocoder';
import { outlinesInBox } from './neighbourhood-outlines';
import { labelsInBox } from './offline-geocoder';

/**
 * Per member (per address when signed out, before the 401): typing with the picker's 300 ms pause
 * makes at most about three searches a second, and only while typing.
 */
const SEARCHES_PER_MINUTE = 60;
const REVERSE_LOOKUPS_PER_MINUTE = 20;
/** A map asks once per view it settles on (ADR 086): panning a minute about stays well below this. */
const BASE_MAPS_PER_MINUTE = 60;

const perMember = (max: number) => ({
  rateLimit: {
    max,
    timeWindow: '1 minute',
    keyGenerator: (request: FastifyRequest) => `places:${request.user?.id ?? request.ip}`,
  },
});

/**
 * Place search and reverse look-up for the location picker (spec sections 2, 5 and 7), served by our
 * own API so the browser never talks to a third party. Members only: the picker is on the profile.
 */
export async function placesRoutes(app: FastifyInstance): Promise<void> {
  const geocoder = createGeocoder(app.config, packageJson.version, app.log);
  const routes = app.withTypeProvider<ZodTypeProvider>();
  // The offline town index (what the feeds' and profiles' town names read) takes a second to build:
  // once the server listens, not on a member's first page. The finer index waits for a search. Not inside the unit and API tests (vitest), whose servers listen for timing tests
  // that a busy second would disturb; there the first search loads it.
  if (!process.env.VITEST) {
    app.addHook('onListen', async () => {
      setTimeout(() => geocoder.warm?.(), 200).unref();
    });
  }

  routes.get(
    '/api/places/search',
    {
      config: perMember(SEARCHES_PER_MINUTE),
      schema: {
        tags: ['places'],
        summary:
          'Towns, neighborhoods and US ZIP codes whose name (or code) starts with the text (3 or more ' +
          'characters), at most 5',
        description:
          "Accent- and case-insensitive. Places near the member's own saved point come first, nearest " +
          'first; then the most populous. Text after a comma narrows by city, region or country ' +
          '("Portland, Maine", "Buckman, Portland"); so do the last words when the whole text names ' +
          'nothing ("Hawthorne Portland"). Besides GeoNames towns, Zillow neighborhoods and ZIP codes, ' +
          'a small sourced table of districts (ADR 057). 502 GEOCODER_UNAVAILABLE when an external ' +
          'geocoder fails.',
        querystring: placeSearchQuerySchema,
        response: {
          200: placeSchema.array(),
          400: apiErrorSchema,
          401: apiErrorSchema,
          429: apiErrorSchema,
          502: apiErrorSchema,
        },
      },
    },
    // The member's own point only orders their own suggestions: it is never in an answer, and an
    // external geocoder (Nominatim, when configured) gets only a box around it rounded to 0.1 degree.
    async (request) =>
      geocoder.search(request.query.q, LOCATION_SEARCH_MAX_RESULTS, ownPoint(request.member)),
  );

  routes.get(
    '/api/places/reverse',
    {
      config: perMember(REVERSE_LOOKUPS_PER_MINUTE),
      schema: {
        tags: ['places'],
        summary: 'The most precise named place near a point: neighborhood, ZIP code or town',
        description:
          'For "use current location": the answer names the point; the profile keeps the point itself. ' +
          '404 PLACE_NOT_FOUND when no town is near (open sea). 502 GEOCODER_UNAVAILABLE when an ' +
          'external geocoder fails.',
        querystring: placeReverseQuerySchema,
        response: {
          200: placeSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          404: apiErrorSchema,
          429: apiErrorSchema,
          502: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const place = await geocoder.reverse(request.query.lat, request.query.lon);
      if (!place)
        throw notFound('No named place was found near this point.', PLACES_ERROR_CODES.placeNotFound);
      return place;
    },
  );

  routes.get(
    '/api/places/base-map',
    {
      config: perMember(BASE_MAPS_PER_MINUTE),
      schema: {
        tags: ['places'],
        summary:
          'What a map draws without a tile server: neighbourhood outlines, towns and ZIP codes in a box',
        description:
          `From the place data the server ships (ADR 086): Zillow neighbourhood outlines (US cities; thinned ` +
          `to about 50 m, at most ${BASE_MAP_MAX_OUTLINES}), GeoNames towns (most populous first) and US ZIP ` +
          `code areas at their centres (at most ${BASE_MAP_MAX_LABELS} of each). The box is at most 4 ` +
          'degrees each way, south below north and west below east (400 otherwise). 502 ' +
          'GEOCODER_UNAVAILABLE when the data cannot be loaded.',
        querystring: baseMapQuerySchema,
        response: {
          200: baseMapSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          429: apiErrorSchema,
          502: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const box = request.query;
      const [outlines, labels] = await Promise.all([
        outlinesInBox(box, BASE_MAP_MAX_OUTLINES),
        labelsInBox(box, BASE_MAP_MAX_LABELS),
      ]);
      return {
        neighbourhoods: outlines.map(({ name, rings }) => ({ name, rings })),
        towns: labels.towns,
        postalCodes: labels.postalCodes,
      };
    },
  );
}
