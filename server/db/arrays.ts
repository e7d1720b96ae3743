/**
 * Lists as one PostgreSQL array literal, sent as a single parameter (`${intArray(ids)}::int[]`), so
 * a statement's text stays the same whatever the count (prepared once) and no value is spliced in.
 */

/** Whole numbers (truncated). */
export const intArray = (ids: readonly number[]) => `{${ids.map((id) => Math.trunc(id)).join(',')}}`;

/** Member ids: uuids the database itself gave out (never text a client typed). */
export const uuidArray = (ids: readonly string[]) => `{${ids.join(',')}}`;

/** Any text: each element double-quoted, with `"` and `\` escaped as array input wants. */
export const textArray = (values: readonly string[]) =>
  `{${values.map((value) => `"${value.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;
