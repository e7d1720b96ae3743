/**
 * Saved searches' limits without zod: the feed's Save search dialog (on the first screen, ADR 033)
 * needs them, not the request schemas of common/schemas/alerts.ts (which re-exports them) (ADR 084).
 */

/** Saved searches a member may keep; one more is refused (409 SAVED_SEARCH_LIMIT). */
export const SAVED_SEARCHES_MAX = 20;
/** A saved search's name, as the list shows it. */
export const SAVED_SEARCH_NAME_MAX_LENGTH = 60;
