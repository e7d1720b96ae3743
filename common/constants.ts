/** Business constants and limits from spec section 9, settled by docs/product.md. One place, never retyped. */

export const PRODUCT_NAME = 'Barterhood';

export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 200;
export const NAME_MAX_LENGTH = 80;
export const EMAIL_MAX_LENGTH = 254;

/** Local-storage key and value that remember a passed site gate (spec sections 2 and 9). */
export const GATE_STORAGE_KEY = 'site-access';
export const GATE_STORAGE_VALUE = 'granted';

export const FEED_PAGE_SIZE = 20;
export const FEED_MAX_PAGE_SIZE = 50;
export const DISTANCE_OPTIONS_MILES = [5, 10, 25, 50] as const;
export const DEFAULT_DISTANCE_MILES = 25;
export const SORT_OPTIONS = ['recent', 'distance', 'value', 'match'] as const;

export const TRAVEL_DISTANCE_MIN = 1;
export const TRAVEL_DISTANCE_MAX = 100;
export const TRAVEL_DISTANCE_DEFAULT = 25;

export const SAFETY_TIP_DELAY_MS = 3000;
export const SAFETY_TIP_DURATION_MS = 5000;

export const LOCATION_SEARCH_DEBOUNCE_MS = 300;
export const LOCATION_SEARCH_MIN_CHARS = 3;
export const LOCATION_SEARCH_MAX_RESULTS = 5;

export const CAMERA_IDEAL_WIDTH = 1280;
export const CAMERA_IDEAL_HEIGHT = 720;
export const CAMERA_JPEG_QUALITY = 0.8;

export const TRADE_HISTORY_RECENT = 5;

/** Messages of a conversation per page: default and largest. */
export const MESSAGES_PAGE_SIZE = 50;
export const MESSAGES_MAX_PAGE_SIZE = 100;
/** What a message a moderator removed shows instead of its text (ADR 025). */
export const REMOVED_MESSAGE = 'This message was removed by a moderator.';

/** The longest note a member adds to a report. */
export const REPORT_NOTE_MAX = 500;

/** The longest "About you" on a member's page. */
export const BIO_MAX_LENGTH = 280;

export const TOAST_DURATION_MS = 5000;
export const TOAST_LIMIT = 1;
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

export const FLYER_PRINT_DELAY_MS = 250;
export const FLYER_TEAR_OFF_TABS = 10;

/** The largest JSON body of any route but the data-URL ones (item and want forms are a few KB). */
export const BODY_LIMIT_BYTES = 256 * 1024;
/**
 * The data-URL routes (POST /api/items, PATCH /api/items/:id, POST /api/analyze-image) carry a photo
 * inside JSON: about 10 MB of image becomes about 13.4 MB of base64. Multipart uploads stream instead.
 */
export const DATA_URL_BODY_LIMIT_BYTES = 15 * 1024 * 1024;
/** The largest photo the server accepts, in decoded bytes (larger ones get 413 PHOTO_TOO_LARGE). */
export const PHOTO_MAX_BYTES = 10 * 1024 * 1024;
