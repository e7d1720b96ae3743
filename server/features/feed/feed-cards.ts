import { type SQL, sql } from 'drizzle-orm';
import type { ItemCondition, ItemPhotoUrls } from '#common/schemas/listings.ts';
import { intArray } from '../../db/arrays';
import type { Db } from '../../db/client';
import { queryPrepared } from '../../db/prepared';
import { queryRows } from '../../db/rows';
import { approximateArea } from '../../geo/approximate-area';
import { itemPoint } from '../../geo/sql';
import { listedItem } from '../items';
import { traderSummaryColumns } from '../trades';
import type { CardOrder, CardRows, Direction, FeedRow, MatchRow, Versions } from './feed-types';
import { matchWordsColumn, parseMatchWords } from './match-reason';

/**
 * What a feed card shows, read in one statement for the items a page subquery names: the rows
 * every list of items uses (feeds, saved items, a member's items, an item's detail).
 */

const run = queryRows;

/** A card row as the database returns it. */
export interface RawRow {
  id: number;
  title: string;
  description: string;
  category: string;
  is_service: boolean;
  image_url: string | null;
  thumbnail_url: string | null;
  condition: ItemCondition | null;
  /** Only where asked for (an item's detail): all its photos, the cover first (ADR 082). */
  photos?: ItemPhotoUrls[];
  estimated_value: number | null;
  created_at: string;
  is_active: boolean;
  user_id: string;
  first_name: string | null;
  last_initial: string | null;
  shown_name: string | null;
  profile_image_url: string | null;
  distance_miles: number | null;
  /** The item's copy of its owner's PUBLIC point (never the exact one); null without a location. */
  item_latitude: number | null;
  item_longitude: number | null;
  is_saved: boolean;
  looking_for: string[] | null;
  owner_rating: number | null;
  owner_trades: number;
  owner_kept: number;
  owner_due: number;
  score?: number | null;
  want_id?: number | null;
  want_title?: string | null;
  mutual?: boolean | null;
  their_want_title?: string | null;
  same_category?: boolean | null;
  text_pct?: number | null;
  max_value?: number | null;
  /** JSON text [words, related] (match-reason.ts). */
  match_words?: string | null;
}

/** A card row as the feed types hold it. */
export function toFeedRow(row: RawRow): FeedRow {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    category: row.category,
    isService: row.is_service,
    imageUrl: row.image_url,
    thumbnailUrl: row.thumbnail_url,
    condition: row.condition,
    ...(row.photos ? { photos: row.photos } : {}),
    estimatedValue: row.estimated_value,
    createdAt: row.created_at,
    isActive: row.is_active,
    userId: row.user_id,
    firstName: row.first_name,
    lastInitial: row.last_initial,
    shownName: row.shown_name,
    profileImageUrl: row.profile_image_url,
    distanceMiles: row.distance_miles,
    mapPoint: mapPointOf(row),
    isSaved: row.is_saved,
    lookingFor: row.looking_for ?? [],
    match: toMatch(row),
    owner: {
      averageRating: row.owner_rating,
      completedTrades: row.owner_trades,
      handOvers: { kept: Number(row.owner_kept ?? 0), due: Number(row.owner_due ?? 0) },
    },
  };
}

/** Where a map places the card: the item's public point rounded to 0.01 degree (approximate-area.ts). */
function mapPointOf(row: Pick<RawRow, 'item_latitude' | 'item_longitude'>): FeedRow['mapPoint'] {
  if (row.item_latitude === null || row.item_longitude === null) return null;
  const area = approximateArea({ latitude: row.item_latitude, longitude: row.item_longitude });
  return area ? { latitude: area.latitude, longitude: area.longitude } : null;
}

/** The match columns of a row (barter-match), or null. */
export function toMatch(row: MatchColumns): MatchRow | null {
  return row.score == null || row.want_id == null
    ? null
    : {
        score: row.score,
        wantId: row.want_id,
        wantTitle: row.want_title ?? '',
        mutual: row.mutual === true,
        theirWantTitle: row.their_want_title ?? null,
        sameCategory: row.same_category === true,
        textPercent: row.text_pct ?? 0,
        maxValue: row.max_value ?? null,
        ...parseMatchWords(row.match_words),
      };
}

export type MatchColumns = Pick<
  RawRow,
  | 'score'
  | 'want_id'
  | 'want_title'
  | 'mutual'
  | 'their_want_title'
  | 'same_category'
  | 'text_pct'
  | 'max_value'
  | 'match_words'
>;

/**
 * The match columns a barter-match page subquery `p` outputs, as the row types expect them, and the
 * words its card's reason names (match-reason.ts: the page's rows only, by primary key).
 */
export const MATCH_COLUMNS = sql`p.score, p.want_id, p.want_title, p.mutual, p.their_want_title, p.same_category,
  p.text_pct, p.max_value::float8 AS max_value, ${matchWordsColumn('p')}`;

/** ORDER BY over the page's output columns (bare names inside, `p.`-prefixed outside). */
export function orderBy(keys: Array<[string, Direction]>, prefix = ''): SQL {
  return sql.raw(keys.map(([column, direction]) => `${prefix}${column} ${direction}`).join(', '));
}

/**
 * The card fields of the items a page subquery `p` names (column id, distance and the order
 * columns), in one statement: owner, rating summary, saved flag and the owner's newest active
 * wants come from index look-ups for the page's rows only.
 */
export function presentPage(options: {
  page: SQL;
  viewerId: string;
  order: Array<[string, Direction]>;
  lookingFor: number;
  /** More output columns. */
  extra?: SQL;
  /** Leave out items no longer listed (inactive, or reserved by an accepted barter). */
  activeOnly?: boolean;
  /** More joined relations (one row each). */
  join?: SQL;
}): SQL {
  const owner = traderSummaryColumns(sql`u.id`);
  const point = itemPoint('i');
  return sql`SELECT i.id, i.title, i.description, i.category, i.is_service, i.image_url, i.thumbnail_url, i.condition,
      i.estimated_value::float8 AS estimated_value,
      to_char(i.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
      i.is_active, u.id::text AS user_id, u.first_name, left(u.last_name, 1) AS last_initial,
      u.display_name AS shown_name, u.profile_image_url,
      round(p.distance::numeric, 1)::float8 AS distance_miles,
      ${point.latitude}::float8 AS item_latitude, ${point.longitude}::float8 AS item_longitude,
      EXISTS (SELECT 1 FROM saved_items s WHERE s.user_id = ${options.viewerId}::uuid AND s.item_id = i.id) AS is_saved,
      ARRAY(SELECT w.title FROM wants w WHERE w.user_id = i.user_id AND w.is_active
            ORDER BY w.created_at DESC, w.id DESC LIMIT ${options.lookingFor}::int) AS looking_for,
      ${owner.averageRating}::float8 AS owner_rating, ${owner.completedTrades}::int AS owner_trades,
      ${owner.handOversKept} AS owner_kept, ${owner.handOversDue} AS owner_due
      ${options.extra ?? sql``}
    FROM (${options.page}) p
    JOIN items i ON i.id = p.id ${options.activeOnly ? sql`AND ${listedItem('i')}` : sql``}
    JOIN users u ON u.id = i.user_id
    ${options.join ?? sql``}
    ORDER BY ${orderBy(options.order, 'p.')}`;
}

/**
 * The cards of the items a page subquery names (output columns id, distance and the `order`
 * columns), in that order, as the viewer sees them: for lists whose rows other features choose
 * (saved items, a member's items), so every list shows the same card.
 */
export async function readCardPage(
  db: Db,
  options: { page: SQL; viewerId: string; order: CardOrder; lookingFor: number },
): Promise<FeedRow[]> {
  const rows = await run<RawRow>(db, presentPage(options));
  return rows.map(toFeedRow);
}

/**
 * The cards of these items as the viewer sees them (their saved flag), read by primary key in one
 * prepared statement that also reads both counters; items hidden or deleted since are left out.
 * Distance and match are not set: they come from the ranking.
 */
export async function findCardRows(
  db: Db,
  viewerId: string,
  ids: readonly number[],
  lookingFor: number,
): Promise<CardRows> {
  if (ids.length === 0) return { cards: [], versions: await readPageState(db, viewerId, ids) };
  // The same text for every page (the ids are one array parameter): prepared once per connection.
  const raw = await queryPrepared<CardRow>(db, cardsQuery(viewerId, ids, lookingFor));
  const first = raw[0];
  const versions = first
    ? { listing: first.listing_version, card: first.card_version }
    : await readPageState(db, viewerId, ids);
  return { cards: raw.map(toFeedRow), versions };
}

interface CardRow extends RawRow {
  listing_version: number;
  card_version: number;
}

/** The statement of findCardRows (ids as one int[] parameter, so the text is the same for every page). */
export function cardsQuery(viewerId: string, ids: readonly number[], lookingFor: number): SQL {
  const page = sql`SELECT p.id, p.ord, NULL::float8 AS distance
    FROM unnest(${intArray(ids)}::int[]) WITH ORDINALITY AS p(id, ord)`;
  return presentPage({
    page,
    viewerId,
    order: [['ord', 'ASC']],
    lookingFor,
    activeOnly: true,
    extra: sql`, v.version::float8 AS listing_version, v.card_version::float8 AS card_version`,
    join: sql`JOIN listing_changes v ON v.id = 1`,
  });
}

/** Both counters, and which of these items the viewer has saved (one prepared statement). */
export async function readPageState(
  db: Db,
  viewerId: string,
  ids: readonly number[],
): Promise<Versions & { saved: Set<number> }> {
  const [row] = await queryPrepared<{ version: number; card_version: number; saved: number[] }>(
    db,
    sql`SELECT v.version::float8 AS version, v.card_version::float8 AS card_version,
          ARRAY(SELECT s.item_id FROM saved_items s
                WHERE s.user_id = ${viewerId}::uuid AND s.item_id = ANY(${intArray(ids)}::int[])) AS saved
        FROM listing_changes v WHERE v.id = 1`,
  );
  return { listing: row?.version ?? 0, card: row?.card_version ?? 0, saved: new Set(row?.saved ?? []) };
}
