/**
 * Paging of the owner's lists, without zod: every member screen pages them, while the query schema
 * stays in common/schemas/listings.ts (which re-exports these) (ADR 033).
 */

/** Page sizes of the owner's lists (GET /api/items/my, GET /api/wants/my): default and largest. */
export const OWN_LIST_PAGE_SIZE = 50;
export const OWN_LIST_MAX_PAGE_SIZE = 100;
/** Deepest offset served: more than a year of non-stop listing at the default create limits. */
export const OWN_LIST_MAX_OFFSET = 1_000_000;
/** Response header of the owner's lists carrying how many there are in all (ADR 017). */
export const TOTAL_COUNT_HEADER = 'x-total-count';
