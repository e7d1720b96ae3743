import { OWN_LIST_PAGE_SIZE, TOTAL_COUNT_HEADER } from '#common/own-lists.ts';
import { apiRequest } from './api-client';

/** One page of an owner's list and how many rows the whole list has (the server's count). */
export interface OwnListPage<T> {
  rows: T[];
  total: number;
}

/**
 * GET one page of an own list (GET /api/items/my, /api/wants/my, /api/saved-items, /api/barter-requests)
 * (ADR 017): the body is the page, the X-Total-Count header the total. Without the header (an older
 * server) the total is what was seen. `query` adds parameters of its own (the barter box).
 */
export async function fetchOwnListPage<T>(
  path: string,
  offset: number,
  query: Record<string, string> = {},
): Promise<OwnListPage<T>> {
  const params = new URLSearchParams({ ...query, limit: String(OWN_LIST_PAGE_SIZE), offset: String(offset) });
  const response = await apiRequest('GET', `${path}?${params}`);
  const rows = (await response.json()) as T[];
  const header = response.headers.get(TOTAL_COUNT_HEADER);
  const total = header !== null && /^\d+$/.test(header) ? Number(header) : offset + rows.length;
  return { rows, total };
}

/** The next page's offset, or undefined once every row has been loaded (or a page came back empty). */
export function nextOwnListOffset<T>(
  lastPage: OwnListPage<T>,
  pages: Array<OwnListPage<T>>,
): number | undefined {
  const loaded = pages.reduce((sum, page) => sum + page.rows.length, 0);
  return lastPage.rows.length > 0 && loaded < lastPage.total ? loaded : undefined;
}

/**
 * Every loaded row once, in page order, and the newest total. Rows can shift between pages when the
 * list changes while paging (offset paging), so a row seen twice is shown once.
 */
export function flattenOwnList<T extends { id: number }>(
  pages: Array<OwnListPage<T>> | undefined,
): { rows: T[]; total: number } {
  if (!pages?.length) return { rows: [], total: 0 };
  const seen = new Set<number>();
  const rows: T[] = [];
  for (const page of pages) {
    for (const row of page.rows) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      rows.push(row);
    }
  }
  return { rows, total: Math.max(pages.at(-1)?.total ?? 0, rows.length) };
}
