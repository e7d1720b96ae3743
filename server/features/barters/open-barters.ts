import { type SQL, sql } from 'drizzle-orm';
import { intArray } from '../../db/arrays';

/**
 * The viewer's open barters on these items (issue 28), as a statement other features may run or
 * join: per item, the newest pending request (not past its 14 days at `now`) that names the item and
 * has the viewer on a side. Output columns: item_id, barter_id, by_you (the viewer proposed it).
 * Reads barter_request_items by its item index, then each request by primary key.
 */
export function openBartersOnSql(viewerId: string, itemIds: readonly number[], now: Date): SQL {
  return sql`SELECT DISTINCT ON (bi.item_id) bi.item_id, r.id AS barter_id,
      (r.from_user_id = ${viewerId}::uuid) AS by_you
    FROM barter_request_items bi
    JOIN barter_requests r ON r.id = bi.barter_request_id
    WHERE bi.item_id = ANY(${intArray(itemIds)}::int[]) AND r.status = 'pending'
      AND (r.expires_at IS NULL OR r.expires_at > ${now.toISOString()}::timestamptz)
      AND (r.from_user_id = ${viewerId}::uuid OR r.to_user_id = ${viewerId}::uuid)
    ORDER BY bi.item_id, r.id DESC`;
}
