import { and, desc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  SAVED_SEARCHES_MAX,
  type SavedSearch,
  type savedSearchFormSchema,
  type WantedCount,
} from '#common/schemas/alerts.ts';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/rows';
import { type SavedSearchRow, savedSearches } from '../../db/schema/alerts';
import type { UserRow } from '../../db/schema/users';
import { conflict, notFound } from '../../errors';
import { viewerPoint } from '../../geo/earth';
import { alertCandidates } from './listing-alerts';

/** The code of a saved search past SAVED_SEARCHES_MAX. */
export const SAVED_SEARCH_LIMIT = 'SAVED_SEARCH_LIMIT';

export function presentSavedSearch(row: SavedSearchRow): SavedSearch {
  return {
    id: row.id,
    name: row.name,
    feed: row.feed as SavedSearch['feed'],
    q: row.q,
    radius: row.radiusMiles,
    condition: row.condition ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The member's saved searches, newest first (at most SAVED_SEARCHES_MAX). */
export async function listSavedSearches(db: Db, member: UserRow): Promise<SavedSearch[]> {
  const rows = await db
    .select()
    .from(savedSearches)
    .where(eq(savedSearches.userId, member.id))
    .orderBy(desc(savedSearches.id))
    .limit(SAVED_SEARCHES_MAX);
  return rows.map(presentSavedSearch);
}

/**
 * Save a search. The member's row is locked first, so two saves at once count each other: the one
 * past SAVED_SEARCHES_MAX is a 409 SAVED_SEARCH_LIMIT.
 */
export async function saveSearch(
  db: Db,
  member: UserRow,
  form: z.output<typeof savedSearchFormSchema>,
): Promise<SavedSearch> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT 1 FROM users WHERE id = ${member.id}::uuid FOR UPDATE`);
    const [counted] = await queryRows<{ n: number }>(
      tx,
      sql`SELECT count(*)::int AS n FROM saved_searches WHERE user_id = ${member.id}::uuid`,
    );
    if (Number(counted?.n ?? 0) >= SAVED_SEARCHES_MAX) {
      throw conflict(
        `You can keep up to ${SAVED_SEARCHES_MAX} saved searches. Remove one to save another.`,
        SAVED_SEARCH_LIMIT,
      );
    }
    const [row] = await tx
      .insert(savedSearches)
      .values({
        userId: member.id,
        name: form.name,
        feed: form.feed,
        q: form.q,
        radiusMiles: form.radius,
        condition: form.condition,
      })
      .returning();
    if (!row) throw new Error('saveSearch: insert returned no row');
    return presentSavedSearch(row);
  });
}

/** Remove one of the member's saved searches; someone else's or a missing one is a 404. */
export async function removeSavedSearch(db: Db, member: UserRow, id: number): Promise<void> {
  const gone = await db
    .delete(savedSearches)
    .where(and(eq(savedSearches.id, id), eq(savedSearches.userId, member.id)))
    .returning({ id: savedSearches.id });
  if (gone.length === 0) throw notFound('Saved search not found.');
}

/**
 * How many other members nearby want a thing like the member's draft (their active wants and saved
 * searches, by the same rules as the alerts a listing would send), and within how many whole miles
 * of the member they all are. Nobody is named; without a location, nobody is within a distance.
 */
export async function wantedCount(
  db: Db,
  member: UserRow,
  draft: { title: string; category: string | undefined; isService: boolean },
): Promise<WantedCount> {
  const point = viewerPoint(member);
  if (!point) return { count: 0, withinMiles: null };
  const category = draft.category ?? '';
  const relation = sql`SELECT ${draft.title}::text AS title, ${category}::text AS category,
      ${draft.isService}::boolean AS is_service, NULL::numeric AS estimated_value,
      setweight(to_tsvector('english', ${draft.title}::text), 'A')
        || setweight(to_tsvector('english', ${category}::text), 'C') AS search_vector,
      tsvector_to_array(to_tsvector('english', ${draft.title}::text)) AS title_lexemes`;
  const members = await alertCandidates(db, { relation, ownerId: member.id, point });
  if (members.length === 0) return { count: 0, withinMiles: null };
  const farthest = Math.max(...members.map((m) => m.distance));
  return { count: members.length, withinMiles: Math.max(1, Math.ceil(farthest)) };
}
