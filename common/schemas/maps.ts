import { z } from 'zod';
import { BASE_MAP_MAX_SPAN } from '../map-limits';
import { feedItemSchema, feedMatchSchema, feedQuerySchema, feedUserSchema } from './feed';
import { decimalParam } from './numbers';

/**
 * The map of a feed and the map's own base (ADR 086): items at their approximate public points
 * (never homes), and the neighbourhood outlines, town names and ZIP codes the server ships, drawn
 * when no tile server is set.
 */

/** Most items a feed's map shows: its first items in the feed's own order. */
export const FEED_MAP_MAX_ITEMS = 100;
export { BASE_MAP_MAX_SPAN };
/** Most neighbourhood outlines in one answer. */
export const BASE_MAP_MAX_OUTLINES = 400;
/** Most town names, and most ZIP codes, in one answer. */
export const BASE_MAP_MAX_LABELS = 150;

export const MAP_MESSAGES = {
  south: 'south must be a latitude between -90 and 90',
  north: 'north must be a latitude between -90 and 90',
  west: 'west must be a longitude between -180 and 180',
  east: 'east must be a longitude between -180 and 180',
  order: 'south must be below north and west below east',
  span: `The box may be at most ${BASE_MAP_MAX_SPAN} degrees wide and tall`,
} as const;

const coordinate = (min: number, max: number, message: string) =>
  decimalParam(message).pipe(z.number().min(min, message).max(max, message));

/** GET /api/places/base-map?south=&west=&north=&east=: the box the map shows. */
export const baseMapQuerySchema = z
  .object({
    south: coordinate(-90, 90, MAP_MESSAGES.south),
    west: coordinate(-180, 180, MAP_MESSAGES.west),
    north: coordinate(-90, 90, MAP_MESSAGES.north),
    east: coordinate(-180, 180, MAP_MESSAGES.east),
  })
  .refine((box) => box.south < box.north && box.west < box.east, MAP_MESSAGES.order)
  .refine(
    (box) => box.north - box.south <= BASE_MAP_MAX_SPAN && box.east - box.west <= BASE_MAP_MAX_SPAN,
    MAP_MESSAGES.span,
  );

export type BaseMapQuery = z.output<typeof baseMapQuerySchema>;

const mapLabelSchema = z.object({ name: z.string(), latitude: z.number(), longitude: z.number() });

/** What the map draws without tiles: outlines, then town names and ZIP codes at their points. */
export const baseMapSchema = z.object({
  neighbourhoods: z.array(
    z.object({
      name: z.string(),
      /** Outer rings, each a flat [longitude, latitude, ...] list, closed. */
      rings: z.array(z.array(z.number())),
    }),
  ),
  /** Towns in the box, most populous first. */
  towns: z.array(mapLabelSchema),
  /** US ZIP code areas in the box, at their centres (the data has no outlines for them). */
  postalCodes: z.array(mapLabelSchema),
});

export type BaseMap = z.infer<typeof baseMapSchema>;

/** GET /api/feed/:feedName/map: the feed's filters and sort, without paging. */
export const feedMapQuerySchema = feedQuerySchema.pick({
  radius: true,
  sort: true,
  q: true,
  seed: true,
  condition: true,
});

/** A point on a map: a public point rounded to 0.01 degree, as the area maps' centres are. */
export const mapPointSchema = z.object({
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
});

export type MapPoint = z.infer<typeof mapPointSchema>;

/**
 * An item on a feed's map, as its marker and the list beside it show it (ADR 086, addendum): the
 * title, the owner's name, the distance and, on Barter Match, the score. Details opens the item by
 * its id, so the rest of the card (description, photos, wants) is not sent a hundred times over.
 */
export const feedMapItemSchema = feedItemSchema.pick({ id: true, title: true, distanceMiles: true }).extend({
  user: feedUserSchema.pick({ id: true, firstName: true, lastName: true }),
  match: feedMatchSchema.pick({ score: true }).optional(),
  /** The owner's public point rounded to 0.01 degree (the area maps' centre); never their home. */
  point: mapPointSchema,
});

export type FeedMapItem = z.infer<typeof feedMapItemSchema>;

/** The feed's first items that have a point, in its order, and where the map starts. */
export const feedMapSchema = z.object({
  items: z.array(feedMapItemSchema),
  /** Items among the first FEED_MAP_MAX_ITEMS whose owner has no location (not on the map). */
  withoutPoint: z.number().int().nonnegative(),
  /**
   * The viewer's own area (their public point rounded as the items' are) and the radius searched,
   * so the map opens on the neighbourhood even with nothing on it; null without a location.
   */
  centre: mapPointSchema.nullable(),
  radiusMiles: z.number().positive(),
});

export type FeedMap = z.infer<typeof feedMapSchema>;
