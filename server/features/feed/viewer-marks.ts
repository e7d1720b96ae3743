import { type SQL, sql } from 'drizzle-orm';
import type { FeedItem, OpenBarter } from '#common/schemas/feed.ts';
import { uuidArray } from '../../db/arrays';
import type { Db } from '../../db/client';
import { queryPrepared, unsizedArray } from '../../db/prepared';
import { openBartersOnSql } from '../barters';
import { listedItem } from '../items';
import { ownerWantMatchesMyItem } from '../match-graph';

/**
 * What a page of cards shows of the viewer's own relation to each item, read fresh for every page (a
 * kept card or ranking never carries it), in one statement for the whole page (issue 28):
 * - `openBarter`: the viewer's open barter on the item (barters/open-barters.ts), so the card says
 *   "You proposed" and leads to it instead of a second proposal;
 * - `match.yourItemId`: on a mutual match ("They want your bike"), the viewer's listed item that the
 *   owner's want matches, the same want the card names (the owner's first active want one of the
 *   viewer's active items matches, as the ranking and the match graph choose it), so Propose Barter
 *   starts with it ticked.
 */
export async function markViewerRelations<T extends FeedItem>(
  db: Db,
  viewerId: string,
  items: readonly T[],
  now = new Date(),
): Promise<T[]> {
  if (items.length === 0) return [...items];
  const rows = await queryPrepared<{
    item_id: number | null;
    barter_id: number | null;
    by_you: boolean | null;
    owner_id: string | null;
    your_item_id: number | null;
  }>(db, viewerMarksQuery(viewerId, items, now));
  const openBarters = new Map<number, OpenBarter>();
  const wanted = new Map<string, number>();
  for (const row of rows) {
    if (row.item_id !== null && row.barter_id !== null) {
      openBarters.set(row.item_id, { id: row.barter_id, proposedByYou: row.by_you === true });
    } else if (row.owner_id !== null && row.your_item_id !== null) {
      wanted.set(row.owner_id, row.your_item_id);
    }
  }
  return items.map((item) => {
    const yourItemId = item.match?.mutual ? wanted.get(item.user.id) : undefined;
    return {
      ...item,
      openBarter: openBarters.get(item.id) ?? null,
      ...(item.match && yourItemId !== undefined ? { match: { ...item.match, yourItemId } } : {}),
    };
  });
}

/**
 * The statement of markViewerRelations: the viewer's open barters on the page's items and, for the
 * owners of mutual matches on it, the viewer's item each one's want matches. Prepared: the text is
 * one of two (with mutual matches on the page or without) and the ids are parameters, so each is
 * parsed once per connection. Without mutual matches (every feed but Barter Match, and most of its
 * pages) it is only the open barters: planning the owners' branch as well cost PostgreSQL about
 * 0.5 ms a page for nothing (bench:feed, 2026-12-04). The owners are an array of unknown length to
 * the planner (unsizedArray), so PostgreSQL keeps one plan for the branch instead of planning it
 * for each page's count of owners.
 */
export function viewerMarksQuery(viewerId: string, items: readonly FeedItem[], now: Date): SQL {
  const owners = [...new Set(items.filter((item) => item.match?.mutual).map((item) => item.user.id))];
  const barters = sql`SELECT b.item_id, b.barter_id, b.by_you, NULL::text AS owner_id, NULL::int AS your_item_id
      FROM (${openBartersOnSql(
        viewerId,
        items.map((item) => item.id),
        now,
      )}) b`;
  if (owners.length === 0) return barters;
  // The viewer's items once, with their words: matched against every owner's wants below, where a
  // subquery would be flattened into the join and each item's words built again for every pair.
  return sql`WITH mine AS MATERIALIZED (
        SELECT m.id, m.category, m.is_service, m.estimated_value, ${listedItem('m')} AS listed,
               tsvector_to_array(m.search_vector) AS lexemes
        FROM items m WHERE m.user_id = ${viewerId}::uuid AND m.is_active)
      ${barters}
      UNION ALL
      SELECT NULL, NULL, NULL, o.owner_id::text, x.id
      FROM unnest(${unsizedArray(sql`${uuidArray(owners)}::uuid[]`)}) AS o(owner_id)
      CROSS JOIN LATERAL (
        SELECT mi.id, mi.listed FROM wants ow
        JOIN mine mi ON ${ownerWantMatchesMyItem('ow', 'mi')}
        WHERE ow.user_id = o.owner_id AND ow.is_active
        ORDER BY ow.id, mi.listed DESC, mi.id DESC LIMIT 1) x
      -- An item an accepted barter holds cannot be offered: then nothing is ticked.
      WHERE x.listed`;
}
