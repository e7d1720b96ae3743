/**
 * The column types drizzle's sessions keep as PostgreSQL's text and map themselves: times, dates and
 * intervals, their arrays, and numeric arrays. Rows of prepared statements are read the same way on
 * both databases (ADR 126): node-postgres with these as text (postgres.ts), PGlite with them in its
 * map of parsers (pglite-thread.ts).
 */
export const DRIZZLE_TEXT_TYPES: ReadonlySet<number> = new Set([
  1114, // timestamp
  1184, // timestamptz
  1186, // interval
  1082, // date
  1231, // numeric[]
  1115, // timestamp[]
  1185, // timestamptz[]
  1187, // interval[]
  1182, // date[]
]);

/** A text value as it came. */
export const keepText = (value: string): string => value;
