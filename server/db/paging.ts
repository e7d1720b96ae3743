/** One page of a list and how many rows the whole list has. */
export interface Page<T> {
  rows: T[];
  total: number;
}

export interface PageRequest {
  limit: number;
  offset: number;
}

/**
 * A page with its total. A short, non-empty page (or a short first page) already says how many
 * there are, so the count query runs only for a full page or one past the end.
 */
export async function withTotal<T>(
  rows: T[],
  page: PageRequest,
  countAll: () => Promise<number>,
): Promise<Page<T>> {
  if (rows.length < page.limit && (rows.length > 0 || page.offset === 0)) {
    return { rows, total: page.offset + rows.length };
  }
  return { rows, total: await countAll() };
}
