import { z } from 'zod';
import { TRAVEL_DISTANCE_MAX, TRAVEL_DISTANCE_MIN } from '../constants';
import { disallowedCharactersMessage, textField } from './text';

/** Longest location text kept; display names of places are far shorter. */
export const LOCATION_MAX_LENGTH = 200;

/** Messages of spec section 5 for the profile form, shown under the fields and returned by the server. */
export const PROFILE_MESSAGES = {
  locationRequired: 'Location is required',
  locationTooLong: `Location must be at most ${LOCATION_MAX_LENGTH} characters`,
  locationInvalid: disallowedCharactersMessage('Location'),
  latitudeRange: 'Latitude must be between -90 and 90',
  longitudeRange: 'Longitude must be between -180 and 180',
  coordinatesTogether: 'Latitude and longitude must be given together',
  travelDistanceRange: `Max travel distance must be between ${TRAVEL_DISTANCE_MIN} and ${TRAVEL_DISTANCE_MAX} miles`,
  travelDistanceWhole: 'Max travel distance must be a whole number of miles',
} as const;

const coordinate = (min: number, max: number, message: string) =>
  z.number({ error: message }).min(min, message).max(max, message).nullable().optional();

/**
 * The profile form and PUT /api/user/profile (spec section 5): location required, coordinates
 * optional (both or neither), max travel distance a whole number of miles from 1 to 100.
 * Coordinates left out are stored as null, so a changed location never keeps stale coordinates.
 */
export const profileFormSchema = z
  .strictObject({
    // Control characters (NUL in particular, which PostgreSQL refuses in text): locationInvalid.
    location: textField('Location', { error: PROFILE_MESSAGES.locationRequired })
      .min(1, PROFILE_MESSAGES.locationRequired)
      .max(LOCATION_MAX_LENGTH, PROFILE_MESSAGES.locationTooLong),
    latitude: coordinate(-90, 90, PROFILE_MESSAGES.latitudeRange),
    longitude: coordinate(-180, 180, PROFILE_MESSAGES.longitudeRange),
    maxTravelDistance: z
      .number({ error: PROFILE_MESSAGES.travelDistanceRange })
      .int(PROFILE_MESSAGES.travelDistanceWhole)
      .min(TRAVEL_DISTANCE_MIN, PROFILE_MESSAGES.travelDistanceRange)
      .max(TRAVEL_DISTANCE_MAX, PROFILE_MESSAGES.travelDistanceRange),
  })
  .refine((values) => (values.latitude == null) === (values.longitude == null), {
    message: PROFILE_MESSAGES.coordinatesTogether,
    path: ['longitude'],
  });

export type ProfileFormValues = z.input<typeof profileFormSchema>;
export type ProfileInput = z.infer<typeof profileFormSchema>;
