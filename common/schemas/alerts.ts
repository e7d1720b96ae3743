import { z } from 'zod';
import { SAVED_SEARCH_NAME_MAX_LENGTH } from '../alert-rules';
import { DISTANCE_OPTIONS_MILES } from '../constants';
import { FEED_NAMES } from '../feed-names';
import { SEARCH_MAX_LENGTH } from './feed';
import { ITEM_CONDITIONS } from './listings';
import { wholeNumberParam } from './numbers';
import { textField } from './text';

// Plain limits the feed's first screen needs live without zod (ADR 033).
export { SAVED_SEARCH_NAME_MAX_LENGTH, SAVED_SEARCHES_MAX } from '../alert-rules';
/** The longest draft title the "neighbours want this" count reads. */
export const WANTED_COUNT_TITLE_MAX_LENGTH = 200;

const radiusMessage = `radius must be one of ${DISTANCE_OPTIONS_MILES.join(', ')}`;

const conditionMessage = `condition must be one of ${ITEM_CONDITIONS.join(', ')}`;

/**
 * POST /api/saved-searches: a feed's filter as it stands (the search text, the distance, the
 * condition: any of them may be left as it is), with a name.
 */
export const savedSearchFormSchema = z.object({
  name: textField('Name', { error: 'Name is required' })
    .min(1, 'Name is required')
    .max(SAVED_SEARCH_NAME_MAX_LENGTH, `Name must be at most ${SAVED_SEARCH_NAME_MAX_LENGTH} characters`),
  feed: z.enum(FEED_NAMES, { error: `feed must be one of ${FEED_NAMES.join(', ')}` }),
  /** The search text; blank: every new listing on the feed within the radius. */
  q: textField('Search text', { error: 'Search text must be text' })
    .max(SEARCH_MAX_LENGTH, `q must be at most ${SEARCH_MAX_LENGTH} characters`)
    .nullable()
    .optional()
    .transform((value) => (value ? value : null)),
  radius: z
    .number({ error: radiusMessage })
    .refine((value) => (DISTANCE_OPTIONS_MILES as readonly number[]).includes(value), radiusMessage),
  /**
   * Goods in this condition or better, as the feed's filter (ADR 082, addendum; ADR 089); null or
   * left out: any item.
   */
  condition: z
    .enum(ITEM_CONDITIONS, { error: conditionMessage })
    .nullable()
    .optional()
    .transform((value) => value ?? null),
});
export type SavedSearchForm = z.input<typeof savedSearchFormSchema>;

/** A saved search as its member lists it. */
export const savedSearchSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  feed: z.enum(FEED_NAMES),
  q: z.string().nullable(),
  radius: z.number().int(),
  /** The condition filter (goods in it or better); null: any item. */
  condition: z.enum(ITEM_CONDITIONS).nullable(),
  createdAt: z.iso.datetime(),
});
export type SavedSearch = z.infer<typeof savedSearchSchema>;
export const savedSearchListSchema = z.array(savedSearchSchema);

/** DELETE /api/saved-searches/:id: a whole number in decimal ("1e3" and "0x10" are refused). */
export const savedSearchParamsSchema = z.object({ id: wholeNumberParam('id', 1, 2_147_483_647) });

/**
 * GET /api/alerts/wanted-count: the item form's draft (title, category, goods or service), for
 * "4 neighbours within 2 miles want this".
 */
export const wantedCountQuerySchema = z.object({
  title: textField('Title', { error: 'Title is required' })
    .min(1, 'Title is required')
    .max(WANTED_COUNT_TITLE_MAX_LENGTH, `Title must be at most ${WANTED_COUNT_TITLE_MAX_LENGTH} characters`),
  category: textField('Category').max(100, 'Category must be at most 100 characters').optional(),
  isService: z.enum(['true', 'false'], { error: 'isService must be true or false' }).default('false'),
});

/**
 * How many other members nearby want a thing like the draft (active wants and saved searches within
 * their travel distance), never who; `withinMiles` is the farthest of them rounded up to a whole
 * mile (null when none, or when the member has no location).
 */
export const wantedCountSchema = z.object({
  count: z.number().int().nonnegative(),
  withinMiles: z.number().int().positive().nullable(),
});
export type WantedCount = z.infer<typeof wantedCountSchema>;
