import { z } from 'zod';
import { isCategoryAllowed } from '../categories';
import { OWN_LIST_MAX_OFFSET, OWN_LIST_MAX_PAGE_SIZE, OWN_LIST_PAGE_SIZE } from '../own-lists';
import { DECIMAL_TEXT, wholeNumberParam } from './numbers';
import { textField } from './text';

/** Longest title and description of an item or want. */
export const LISTING_TITLE_MAX_LENGTH = 120;
export const LISTING_DESCRIPTION_MAX_LENGTH = 2000;
/** estimated_value and max_value are decimal(10,2). */
export const LISTING_VALUE_MAX = 99_999_999.99;

/** A good's condition (issue 31, ADR 082), best first; services have none. */
export const ITEM_CONDITIONS = ['new', 'like-new', 'good', 'fair', 'for-parts'] as const;
export type ItemCondition = (typeof ITEM_CONDITIONS)[number];

/** Most photos an item shows (issue 31, ADR 082); the first is the cover. */
export const ITEM_PHOTOS_MAX = 8;

/** One stored photo of an item: the large version and the feed-size one (600 px WebP). */
export interface ItemPhotoUrls {
  imageUrl: string;
  thumbnailUrl: string;
}

/** Messages shown under the fields (spec section 5) and returned by the server. */
export const LISTING_MESSAGES = {
  titleRequired: 'Title is required',
  titleTooLong: `Title must be at most ${LISTING_TITLE_MAX_LENGTH} characters`,
  descriptionRequired: 'Description is required',
  descriptionTooLong: `Description must be at most ${LISTING_DESCRIPTION_MAX_LENGTH} characters`,
  categoryRequired: 'Category is required',
  categoryNotInList: 'Choose a category from the list',
  photoInvalid: 'Choose a photo (JPEG, PNG or WebP)',
  conditionInvalid: 'Choose a condition from the list',
  conditionForService: 'Services have no condition',
} as const;

/** Stable codes of photo errors; the client may branch on them. */
export const PHOTO_ERROR_CODES = {
  /** 413: more than PHOTO_MAX_BYTES of image. */
  tooLarge: 'PHOTO_TOO_LARGE',
  /** 400: not a JPEG, PNG, WebP (or HEIF where supported), or damaged. */
  invalid: 'INVALID_PHOTO',
  /** 400: more pixels than the server decodes (a decompression bomb, or a huge panorama). */
  tooManyPixels: 'PHOTO_TOO_MANY_PIXELS',
} as const;

/** Stable codes of what a trade does to items and wants (issue 30, ADR 073). */
export const ITEM_ERROR_CODES = {
  /** 409: the item was traded in a completed barter; it cannot be shown again or edited. */
  traded: 'ITEM_TRADED',
  /** 409: the item has ITEM_PHOTOS_MAX photos already (ADR 082); remove one first. */
  photoLimit: 'ITEM_PHOTO_LIMIT',
  /** 409: a photo order names a photo the item does not have (now): another change came first. */
  photosChanged: 'ITEM_PHOTOS_CHANGED',
} as const;

export const WANT_ERROR_CODES = {
  /** 404: no open "Did this fill your want?" question for this want and barter (answered, or never asked). */
  questionNotFound: 'WANT_QUESTION_NOT_FOUND',
} as const;

/** Where the server serves stored photos (server/storage/photo-store.ts). */
const SERVED_PHOTO_PREFIX = '/photos/';

const titleField = textField('Title', { error: LISTING_MESSAGES.titleRequired })
  .min(1, LISTING_MESSAGES.titleRequired)
  .max(LISTING_TITLE_MAX_LENGTH, LISTING_MESSAGES.titleTooLong);

const descriptionField = textField('Description', {
  error: LISTING_MESSAGES.descriptionRequired,
  multiline: true,
})
  .min(1, LISTING_MESSAGES.descriptionRequired)
  .max(LISTING_DESCRIPTION_MAX_LENGTH, LISTING_MESSAGES.descriptionTooLong);

/** A want's description may be left out; blank means none (null). */
const optionalDescriptionField = textField('Description', {
  error: 'Description must be text',
  multiline: true,
})
  .max(LISTING_DESCRIPTION_MAX_LENGTH, LISTING_MESSAGES.descriptionTooLong)
  .nullable()
  .optional()
  .transform((value) => (value ? value : null));

const categoryField = textField('Category', { error: LISTING_MESSAGES.categoryRequired }).min(
  1,
  LISTING_MESSAGES.categoryRequired,
);

const isServiceField = z.boolean({ error: 'Service must be true or false' });
const isActiveField = z.boolean({ error: 'Active must be true or false' });

/**
 * The photo: a data URL from the camera or file chooser (the server checks, re-encodes and stores it),
 * or, when editing, the URL the server already serves it at (meaning "keep it"). null: no photo.
 */
const imageUrlField = textField('Photo', { error: LISTING_MESSAGES.photoInvalid, trim: false, dataUrl: true })
  .refine(
    (value) => value.startsWith('data:') || value.startsWith(SERVED_PHOTO_PREFIX),
    LISTING_MESSAGES.photoInvalid,
  )
  .nullable();

/**
 * A good's condition (ADR 082): one of ITEM_CONDITIONS, or none (blank or null: the form's "Not
 * stated"). Multipart forms send it as text like the JSON body.
 */
const conditionField = z
  .union([z.enum(ITEM_CONDITIONS), z.literal(''), z.null()], { error: LISTING_MESSAGES.conditionInvalid })
  .transform((value): ItemCondition | null => (value ? value : null));

/** A service with a condition: refused with a message under the condition field. */
function checkServiceCondition(
  value: { condition?: unknown; isService?: unknown },
  ctx: z.RefinementCtx,
): void {
  if (value.isService === true && value.condition) {
    ctx.addIssue({ code: 'custom', path: ['condition'], message: LISTING_MESSAGES.conditionForService });
  }
}

/** At most two decimals, judged on the shortest decimal form of the number (12.5 yes, 12.345 no). */
function hasAtMostTwoDecimals(value: number): boolean {
  return /^-?\d+(\.\d{1,2})?$/.test(String(value));
}

/**
 * An optional amount such as estimatedValue or maxValue: a number or numeric text from an input;
 * blank, null, undefined or NaN (an empty number input) mean none and become null. Text must be a
 * decimal (common/schemas/numbers.ts: "12.50" and "1e3" yes, "0x10" and "Infinity" no).
 */
function amountField(label: string) {
  const notANumber = `${label} must be a positive number`;
  return z
    .union([z.number(), z.nan(), z.string(), z.null()], { error: notANumber })
    .optional()
    .transform((value): number | null => {
      if (value === undefined || value === null) return null;
      if (typeof value === 'number') return Number.isNaN(value) ? null : value;
      const text = value.trim();
      if (text === '') return null;
      return DECIMAL_TEXT.test(text) ? Number(text) : Number.NaN;
    })
    .pipe(
      z
        .number({ error: notANumber })
        .min(0, notANumber)
        .max(LISTING_VALUE_MAX, `${label} must be less than 100,000,000`)
        .refine(hasAtMostTwoDecimals, `${label} can have at most two decimal places`)
        .nullable(),
    );
}

const estimatedValueField = amountField('Estimated value');
const maxValueField = amountField('Max value');

/** Adds "Choose a category from the list" when the category is not in the goods/services list that applies. */
function checkCategoryList(value: { category?: unknown; isService?: unknown }, ctx: z.RefinementCtx): void {
  if (typeof value.category !== 'string' || value.category.trim() === '') return;
  if (!isCategoryAllowed(value.category.trim(), value.isService === true)) {
    ctx.addIssue({ code: 'custom', path: ['category'], message: LISTING_MESSAGES.categoryNotInList });
  }
}

/** Run the category check even when other fields fail, so the form shows every message at once. */
const categoryCheckParams = {
  when: (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null,
};

/** The Add New Item form and POST /api/items (spec sections 5 and 7). Unknown fields are refused. */
export const itemFormSchema = z
  .strictObject({
    title: titleField,
    description: descriptionField,
    category: categoryField,
    isService: isServiceField.default(false),
    imageUrl: imageUrlField.optional(),
    condition: conditionField.optional().transform((value) => value ?? null),
    estimatedValue: estimatedValueField,
    isActive: isActiveField.default(true),
  })
  .superRefine(checkCategoryList, categoryCheckParams)
  .superRefine(checkServiceCondition, categoryCheckParams);

/** What the item form holds (input side: amounts may still be text). */
export type ItemFormValues = z.input<typeof itemFormSchema>;
/** A checked new item, as the server receives it. */
export type ItemInput = z.output<typeof itemFormSchema>;

/**
 * PATCH /api/items/:id: any subset of the item's fields; nothing defaults. `imageUrl`: a data URL
 * replaces the photo, null removes it, the current URL or leaving it out keeps it. The category is
 * checked against isService here when both are sent, and by the server against the stored item otherwise.
 */
export const itemUpdateSchema = z
  .strictObject({
    title: titleField.optional(),
    description: descriptionField.optional(),
    category: categoryField.optional(),
    isService: isServiceField.optional(),
    imageUrl: imageUrlField.optional(),
    /** Left out keeps it; blank or null clears it. A service has none (an item made a service loses it). */
    condition: conditionField.optional(),
    // The outer optional keeps "left out" apart from "cleared" (blank or null becomes null).
    estimatedValue: estimatedValueField.optional(),
    isActive: isActiveField.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.isService !== undefined) checkCategoryList(value, ctx);
    checkServiceCondition(value, ctx);
  }, categoryCheckParams);

/**
 * POST /api/items/:id/photos (ADR 082): one more photo, last, as a data URL in `imageUrl` or as
 * multipart/form-data's "photo" file (then the body has no fields).
 */
export const itemPhotoAddSchema = z.strictObject({
  imageUrl: textField('Photo', { error: LISTING_MESSAGES.photoInvalid, trim: false, dataUrl: true })
    .refine((value) => value.startsWith('data:'), LISTING_MESSAGES.photoInvalid)
    .optional(),
});

/**
 * PUT /api/items/:id/photos (ADR 082): the photos to keep, in their new order, by their large
 * version's URL (the first is the cover); any left out are removed. Each must be one of the item's
 * photos, once.
 */
export const itemPhotoOrderSchema = z.strictObject({
  photos: z
    .array(textField('Photo', { error: 'Each photo is its URL' }).max(300, 'Not a photo of this item'), {
      error: 'photos must be a list of photo URLs',
    })
    .max(ITEM_PHOTOS_MAX, `An item has at most ${ITEM_PHOTOS_MAX} photos`)
    .refine((urls) => new Set(urls).size === urls.length, 'Each photo may be listed once'),
});
export type ItemPhotoOrder = z.output<typeof itemPhotoOrderSchema>;

export type ItemUpdateValues = z.input<typeof itemUpdateSchema>;
export type ItemUpdate = z.output<typeof itemUpdateSchema>;

/** The Add to Want List form and POST /api/wants (spec sections 5 and 7). Unknown fields are refused. */
export const wantFormSchema = z
  .strictObject({
    title: titleField,
    description: optionalDescriptionField,
    category: categoryField,
    isService: isServiceField.default(false),
    maxValue: maxValueField,
    isActive: isActiveField.default(true),
  })
  .superRefine(checkCategoryList, categoryCheckParams);

export type WantFormValues = z.input<typeof wantFormSchema>;
export type WantInput = z.output<typeof wantFormSchema>;

/** PATCH /api/wants/:id: any subset of the want's fields; nothing defaults. */
export const wantUpdateSchema = z
  .strictObject({
    title: titleField.optional(),
    description: optionalDescriptionField.optional(),
    category: categoryField.optional(),
    isService: isServiceField.optional(),
    maxValue: maxValueField.optional(),
    isActive: isActiveField.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.isService !== undefined) checkCategoryList(value, ctx);
  }, categoryCheckParams);

export type WantUpdateValues = z.input<typeof wantUpdateSchema>;
export type WantUpdate = z.output<typeof wantUpdateSchema>;

/** The fields every view of an item shares: the owner's list, the feeds and the item detail. */
export const itemBaseSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  category: z.string(),
  isService: z.boolean(),
  /** The large photo (at most 1600 px), served by the app; null without a photo. */
  imageUrl: z.string().nullable(),
  /** The feed-size photo (at most 600 px); the large one for items stored before thumbnails existed. */
  thumbnailUrl: z.string().nullable(),
  estimatedValue: z.number().nullable(),
  /** A good's condition (ADR 082); null (or left out) for services and goods listed without one. */
  condition: z.enum(ITEM_CONDITIONS).nullable().optional(),
});

/** One of an item's photos (ADR 082): the large version and the feed-size one. */
export const itemPhotoSchema = z.object({ imageUrl: z.string(), thumbnailUrl: z.string() });

/**
 * Why moderation hides an item (ADR 025, 027): removed for good, hidden while its owner is suspended,
 * or held while a moderator looks at a photo the screening found likely explicit.
 */
export const ITEM_MODERATION = ['removed', 'suspended', 'held'] as const;
export type ItemModeration = (typeof ITEM_MODERATION)[number];

/**
 * What the owner may do with an item now (server/policies/listing-policy.ts): edit its fields or
 * photo, hide or show it, delete it. An item an accepted barter holds allows none of them.
 */
export const ITEM_ACTIONS = ['edit', 'hide', 'show', 'delete'] as const;
export type ItemAction = (typeof ITEM_ACTIONS)[number];

/**
 * Where a traded item went (issue 30, ADR 073): "Traded to <name>", or "Given at <swap day>" for a
 * swap day's hand-over. `to` is the receiver as other members see them ('Former member', id null,
 * once their account is gone).
 */
export const itemTradeSchema = z.object({
  at: z.iso.datetime(),
  barterRequestId: z.number().int().nullable(),
  to: z.object({ id: z.string().nullable(), displayName: z.string() }),
  swapDay: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});

export type ItemTrade = z.infer<typeof itemTradeSchema>;

/** An item as the API returns it to its owner. */
export const itemSchema = itemBaseSchema.extend({
  /**
   * All its photos in order, at most ITEM_PHOTOS_MAX; the first is the cover (imageUrl, thumbnailUrl).
   * The server always sends it; a client reading an older answer takes the cover alone.
   */
  photos: z.array(itemPhotoSchema).optional(),
  isActive: z.boolean(),
  /** Hidden by moderation, and why; null when it is the owner's to show or hide. */
  moderation: z.enum(ITEM_MODERATION).nullable(),
  /** An accepted barter holds it (issue 13): it cannot be offered in another one until that ends. */
  isReserved: z.boolean(),
  /** Traded in a completed barter (issue 30): inactive for good; null while it is the owner's. */
  traded: itemTradeSchema.nullable(),
  /** What the owner may do with it now; the web offers exactly these (ADR 025, issue 27). */
  allowedActions: z.array(z.enum(ITEM_ACTIONS)),
  /**
   * Stale listings (issue 31, ADR 088): when the owner last confirmed it is still there (listed,
   * edited, renewed), and, while "Still available?" is open or the listing left the feeds for want
   * of an answer, when it was asked and when it left (null while it is still in the feeds).
   */
  confirmedAt: z.iso.datetime().optional(),
  stale: z.object({ askedAt: z.iso.datetime(), pausedAt: z.iso.datetime().nullable() }).nullable().optional(),
  viewCount: z.number().int(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

export type Item = z.infer<typeof itemSchema>;

/** A want as the API returns it to its owner. */
export const wantSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string().nullable(),
  category: z.string(),
  isService: z.boolean(),
  maxValue: z.number().nullable(),
  isActive: z.boolean(),
  /** When a completed trade met it (issue 30); such a want is inactive until kept open. */
  fulfilledAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});

export type Want = z.infer<typeof wantSchema>;

/** "Did this fill your want?" (issue 30): a want of the member and the completed barter that may have met it. */
export const wantQuestionSchema = z.object({
  barterRequestId: z.number().int(),
  wantId: z.number().int(),
  title: z.string(),
});

export type WantQuestion = z.infer<typeof wantQuestionSchema>;

/** GET /api/wants/questions: of one completed barter, or (without it) all of the member's. */
export const wantQuestionsQuerySchema = z.strictObject({
  barterRequestId: wholeNumberParam('barterRequestId', 1, 2_147_483_647).optional(),
});

/** POST /api/wants/:id/answer: the answer to "Did this fill your want?" about that barter. */
export const wantAnswerSchema = z.strictObject({
  barterRequestId: z.number().int().min(1).max(2_147_483_647),
  filled: z.boolean(),
});

/** `:id` in listing paths: a positive 32-bit integer; anything else is a 400, never a database error. */
export const listingIdParamsSchema = z.strictObject({
  id: z
    .string()
    .regex(/^[1-9]\d{0,9}$/, 'Not a valid id')
    .transform(Number)
    .pipe(z.number().max(2_147_483_647, 'Not a valid id')),
});

// Plain values every member screen needs live without zod (ADR 033).
export {
  OWN_LIST_MAX_OFFSET,
  OWN_LIST_MAX_PAGE_SIZE,
  OWN_LIST_PAGE_SIZE,
  TOTAL_COUNT_HEADER,
} from '../own-lists';

/**
 * Query of the owner's lists: offset paging, newest first. The body stays a plain list (spec
 * section 7) and the total rides in the X-Total-Count header, so a client that reads only the list
 * still works (it sees the first page).
 */
export const ownListQuerySchema = z.object({
  limit: wholeNumberParam('limit', 1, OWN_LIST_MAX_PAGE_SIZE).default(OWN_LIST_PAGE_SIZE),
  offset: wholeNumberParam('offset', 0, OWN_LIST_MAX_OFFSET).default(0),
});

export type OwnListQuery = z.output<typeof ownListQuerySchema>;
