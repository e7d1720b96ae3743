import { z } from 'zod';
import {
  DEFAULT_DISTANCE_MILES,
  DISTANCE_OPTIONS_MILES,
  FEED_MAX_PAGE_SIZE,
  FEED_PAGE_SIZE,
  SORT_OPTIONS,
} from '../constants';
import { FEED_SEED_MAX } from '../feed-names';
import { ITEM_CONDITIONS, itemBaseSchema, itemPhotoSchema } from './listings';
import { handOverRecordSchema } from './no-shows';
import { decimalParam, wholeNumberParam } from './numbers';
import { approximateAreaSchema } from './places';
import { textField } from './text';

// Plain values the web's first screen needs live without zod (ADR 033).
export { FEED_NAMES, FEED_SEED_MAX, type FeedName } from '../feed-names';

export type FeedSort = (typeof SORT_OPTIONS)[number];

/** Deepest page a feed serves: offset paging past this is refused rather than scanned. */
export const FEED_MAX_OFFSET = 10_000;
/** Longest search text; longer text is refused (400). */
export const SEARCH_MAX_LENGTH = 100;
/** Feed cards carry at most this many characters of the description; GET /api/items/:id has all of it. */
export const FEED_DESCRIPTION_MAX_LENGTH = 300;
/** Titles of the owner's active wants on a card ('Looking for'); the item detail shows more. */
export const LOOKING_FOR_ON_CARD = 2;
export const LOOKING_FOR_ON_DETAIL = 10;

const conditionMessage = `condition must be one of ${ITEM_CONDITIONS.join(', ')}`;
const radiusMessage = `radius must be one of ${DISTANCE_OPTIONS_MILES.join(', ')}`;

/**
 * GET /api/feed/:feedName query (spec section 7 plus docs/product.md): paging, distance filter,
 * sort, search text and, for random-barter, the seed that keeps the order stable while paging.
 * Numbers are decimal text (common/schemas/numbers.ts: "0x10" and, for whole numbers, "1e3" are refused).
 */
export const feedQuerySchema = z.object({
  limit: wholeNumberParam('limit', 1, FEED_MAX_PAGE_SIZE).default(FEED_PAGE_SIZE),
  offset: wholeNumberParam('offset', 0, FEED_MAX_OFFSET).default(0),
  radius: decimalParam(radiusMessage)
    .refine((value) => (DISTANCE_OPTIONS_MILES as readonly number[]).includes(value), radiusMessage)
    .default(DEFAULT_DISTANCE_MILES),
  sort: z.enum(SORT_OPTIONS, { error: `sort must be one of ${SORT_OPTIONS.join(', ')}` }).default('recent'),
  /** Search text over titles, descriptions and categories; blank means no search. */
  q: textField('Search text')
    .max(SEARCH_MAX_LENGTH, `q must be at most ${SEARCH_MAX_LENGTH} characters`)
    .optional()
    .transform((value) => (value ? value : undefined)),
  /** random-barter only: the same seed gives the same order; left out, the session decides. */
  seed: wholeNumberParam('seed', 0, FEED_SEED_MAX).optional(),
  /**
   * Goods in this condition or better (ADR 082, addendum): 'good' gives new, like new and good. Services
   * and goods listed without a condition are left out while it is set; left out, any item.
   */
  condition: z.enum(ITEM_CONDITIONS, { error: conditionMessage }).optional(),
});

/** GET /api/search/showing-for: the search text of a results page (ADR 089). */
export const showingForQuerySchema = z.object({
  q: textField('Search text', { error: 'Search text is required' })
    .min(1, 'Search text is required')
    .max(SEARCH_MAX_LENGTH, `q must be at most ${SEARCH_MAX_LENGTH} characters`),
});

/** "Showing results for guitar": the text with each corrected word as listings spell it; null: none corrected. */
export const showingForSchema = z.object({ showingFor: z.string().nullable() });
export type ShowingFor = z.infer<typeof showingForSchema>;

/** What a client sends: text, as in a URL (numbers too). */
export type FeedQueryInput = z.input<typeof feedQuerySchema>;
/** The checked query as the server uses it. */
export type FeedQuery = z.output<typeof feedQuerySchema>;

/** The feed's name; an unknown one is a 404 (FEED_NOT_FOUND), decided by the route. */
export const feedParamsSchema = z.object({ feedName: textField('Feed name') });

/** The owner as a card shows them: first name, last initial only (privacy), photo. */
export const feedUserSchema = z.object({
  id: z.string(),
  firstName: z.string().nullable(),
  /**
   * What of the last name shows: the initial and a full stop ("O."), or as little more as tells the
   * owner apart from a namesake near them ("Ol.", "O. (2)"; ADR 058); null when none.
   */
  lastName: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
});

/**
 * What matched, for the card's reason (issue 31, ADR 089; docs/matching.md): the kind of text match
 * (the title is the want, all its words in the title, a related term within the category, a near
 * spelling, all its words in the description, some of its words in the title, the category alone),
 * the want's words that matched as its member typed them, and the item's related words.
 */
export const MATCH_REASON_KINDS = [
  'title',
  'all-words',
  'related',
  'near-spelling',
  'elsewhere',
  'some-words',
  'category',
] as const;
export const matchReasonSchema = z.object({
  kind: z.enum(MATCH_REASON_KINDS),
  words: z.array(z.string()),
  related: z.array(z.string()),
});
export type MatchReason = z.infer<typeof matchReasonSchema>;

/** Why an item is on Barter Match (docs/matching.md): the number and its reasons. */
export const feedMatchSchema = z.object({
  /** 0 to 100, see server/features/match-graph/match-score.ts. */
  score: z.number().int().min(0).max(100),
  /** The viewer's want the item matches best ("Matches your want: cordless drill"). */
  wantId: z.number().int(),
  wantTitle: z.string(),
  /** What of the item matched that want ('mountain, bike in the title'; ADR 089). */
  reason: matchReasonSchema.optional(),
  /** The owner wants something the viewer offers ("They want your bike"). */
  mutual: z.boolean(),
  /** When mutual: the owner's want that one of the viewer's items matches. */
  theirWantTitle: z.string().optional(),
  /**
   * The viewer would get this item in a trade circle proposed to them (issue 16): the circle, and
   * the loop in words ("You give Cordless drill to Ben T., Ben T. gives Camping tent to Cat T., …").
   */
  circle: z.object({ circleId: z.number().int(), path: z.string() }).optional(),
  /**
   * When mutual: the viewer's listed item that the owner's want matches ("They want your bike"), so
   * Propose Barter starts with it ticked (issue 28).
   */
  yourItemId: z.number().int().optional(),
});

/**
 * The viewer's open barter on an item (a pending proposal, either way, issue 28): the card says so and
 * leads to it instead of a second proposal.
 */
export const openBarterSchema = z.object({
  /** The pending request, as /barters/:id opens it. */
  id: z.number().int(),
  /** The viewer proposed it ("You proposed"); otherwise the owner proposed to the viewer. */
  proposedByYou: z.boolean(),
});
export type OpenBarter = z.infer<typeof openBarterSchema>;

/** An item on a feed, the saved list or a search (spec section 3 feed items, settled by product.md). */
export const feedItemSchema = itemBaseSchema.extend({
  /** Up to FEED_DESCRIPTION_MAX_LENGTH characters (ending in "…" when cut); the detail has it all. */
  description: z.string(),
  createdAt: z.iso.datetime(),
  isSaved: z.boolean(),
  user: feedUserSchema,
  /** Great-circle miles from the viewer's location to the owner's public point (ADR 015), to 0.1; null when either has none. */
  distanceMiles: z.number().nullable(),
  /** '4.9 (23 trades)'; rating null and 0 trades: 'New trader'. */
  owner: z.object({
    rating: z.number().nullable(),
    completedTrades: z.number().int().nonnegative(),
    /** "Kept N of M hand-overs" over the last 12 months (ADR 079); hidden while `due` is 0. */
    handOvers: handOverRecordSchema,
  }),
  /** Titles of the owner's active wants, newest first (up to two on cards); empty: 'Open to offers'. */
  lookingFor: z.array(z.string()),
  /** Only on the barter-match feed. */
  match: feedMatchSchema.optional(),
  /** On feeds, searches and an item's detail: the viewer's open barter on it, or null. */
  openBarter: openBarterSchema.nullable().optional(),
});

export type FeedItem = z.infer<typeof feedItemSchema>;
export type FeedMatch = z.infer<typeof feedMatchSchema>;

/** GET /api/feed/:feedName and GET /api/saved-items: a list of feed items. */
export const feedListSchema = z.array(feedItemSchema);

/** GET /api/items/:id: the card's fields with the whole description, and the viewer's relation to it. */
export const itemDetailSchema = feedItemSchema.extend({
  /** The whole description. */
  description: z.string(),
  /** All its photos in order, the cover first (ADR 082); empty without a photo. */
  photos: z.array(itemPhotoSchema).optional(),
  /** Up to LOOKING_FOR_ON_DETAIL titles. */
  lookingFor: z.array(z.string()),
  /** The viewer's own item (then it may be inactive, and the Propose button makes no sense). */
  isOwn: z.boolean(),
  isActive: z.boolean(),
  /** The owner's approximate area for the map (never their exact point); null without a location. */
  approximateArea: approximateAreaSchema.nullable(),
});

export type ItemDetail = z.infer<typeof itemDetailSchema>;

/** POST /api/saved-items/:id answer. */
export const saveItemResultSchema = z.object({ saved: z.literal(true) });
