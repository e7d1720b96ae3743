import { z } from 'zod';
import { textField } from './text';

// Public spots for the hand-over (issue 30, ADR 080): a list moderators keep per area, each spot with
// its source; a hand-over plan may choose one near both members, or the fairest named area between
// them when none is near.

export const PUBLIC_SPOT_KINDS = ['library', 'station', 'cafe', 'police_safe_trade', 'other'] as const;
export type PublicSpotKind = (typeof PUBLIC_SPOT_KINDS)[number];

export const PUBLIC_SPOT_NAME_MAX_LENGTH = 120;
export const PUBLIC_SPOT_SOURCE_MAX_LENGTH = 500;
export const PUBLIC_SPOT_PLACE_MAX_LENGTH = 300;

export const PUBLIC_SPOT_ERROR_CODES = {
  /** 400: a plan names a spot that does not exist. */
  unknown: 'PUBLIC_SPOT_UNKNOWN',
  /** 409: a plan names a spot moderators removed. */
  removed: 'PUBLIC_SPOT_REMOVED',
} as const;

export const PUBLIC_SPOT_MESSAGES = {
  nameRequired: 'Name the spot',
  nameTooLong: `The name must be at most ${PUBLIC_SPOT_NAME_MAX_LENGTH} characters`,
  kindRequired: 'Choose what kind of spot it is',
  sourceRequired: 'Say where this spot comes from: a link or a citation',
  sourceTooLong: `The source must be at most ${PUBLIC_SPOT_SOURCE_MAX_LENGTH} characters`,
  placeRequired: 'Choose the spot’s place from the search',
} as const;

const coordinate = (min: number, max: number) => z.number().finite().min(min).max(max);

/**
 * POST /api/moderation/public-spots: a moderator adds a spot. The position is a place chosen in the
 * place search (its name and point as the search answered them), never typed as coordinates.
 */
export const addPublicSpotSchema = z.strictObject({
  name: textField('Name', { error: PUBLIC_SPOT_MESSAGES.nameRequired })
    .min(1, PUBLIC_SPOT_MESSAGES.nameRequired)
    .max(PUBLIC_SPOT_NAME_MAX_LENGTH, PUBLIC_SPOT_MESSAGES.nameTooLong),
  kind: z.enum(PUBLIC_SPOT_KINDS, { error: PUBLIC_SPOT_MESSAGES.kindRequired }),
  source: textField('Source', { error: PUBLIC_SPOT_MESSAGES.sourceRequired })
    .min(1, PUBLIC_SPOT_MESSAGES.sourceRequired)
    .max(PUBLIC_SPOT_SOURCE_MAX_LENGTH, PUBLIC_SPOT_MESSAGES.sourceTooLong),
  place: z.strictObject(
    {
      displayName: textField('Place', { error: PUBLIC_SPOT_MESSAGES.placeRequired })
        .min(1, PUBLIC_SPOT_MESSAGES.placeRequired)
        .max(PUBLIC_SPOT_PLACE_MAX_LENGTH, PUBLIC_SPOT_MESSAGES.placeRequired),
      latitude: coordinate(-90, 90),
      longitude: coordinate(-180, 180),
    },
    { error: PUBLIC_SPOT_MESSAGES.placeRequired },
  ),
});
export type AddPublicSpotInput = z.input<typeof addPublicSpotSchema>;

/**
 * PUT /api/moderation/public-spots/:id: a moderator corrects a spot. The whole spot, by the same
 * rules as adding one (a name, a kind, a source, a place chosen in the search).
 */
export const editPublicSpotSchema = addPublicSpotSchema;
export type EditPublicSpotInput = AddPublicSpotInput;

/** A spot as moderators see it on their screen (a public place: its position is no secret). */
export const publicSpotSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: z.enum(PUBLIC_SPOT_KINDS),
  /** The town it is in. */
  area: z.string(),
  place: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  source: z.string(),
  addedBy: z.string().nullable(),
  addedAt: z.iso.datetime(),
});
export type PublicSpot = z.infer<typeof publicSpotSchema>;

/** A spot offered in a hand-over plan's form: names only, no distances to anyone. */
export const spotSuggestionSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: z.enum(PUBLIC_SPOT_KINDS),
  area: z.string(),
});
export type SpotSuggestion = z.infer<typeof spotSuggestionSchema>;

/**
 * GET /api/barter-requests/:id/hand-over-plan/places: public spots near both members, fairest first;
 * when none is near, the fairest named area (a neighbourhood or town centre) between the members.
 */
export const handOverPlacesSchema = z.object({
  spots: z.array(spotSuggestionSchema),
  fairestArea: z.object({ name: z.string() }).nullable(),
});
export type HandOverPlaces = z.infer<typeof handOverPlacesSchema>;
