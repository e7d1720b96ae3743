import { type SQL, sql } from 'drizzle-orm';
import { TRAVEL_DISTANCE_MAX } from '#common/constants.ts';
import type { Point } from '../../geo/earth';
import { distanceMiles, memberPoint, withinRadius } from '../../geo/sql';
import { notHiddenFrom } from '../safety';
import { pairColumns, pairMatches, wantsWithQuery } from './graph-sql';
import { textPercentSql, wantPointsSql } from './match-sql';

/**
 * A listing to match against members' wants (ADR 084): a one-row relation with the columns of
 * `items` the match reads (title, category, is_service, estimated_value, search_vector,
 * title_lexemes), a listed
 * item or an item form's draft, with its owner and its public point (the owner's).
 */
export interface ListingToMatch {
  relation: SQL;
  ownerId: string;
  point: Point;
}

/**
 * The members whose active wants match `listing` by the match graph's one definition of a match
 * (graph-sql.ts: pairMatches), within each member's own travel distance, measured between the two
 * public points (ADR 059); not its owner, nobody hidden from them either way, no member without a
 * location (no distance to be within). One row per member: the want the graph would show (most
 * points, then the oldest), and the distance (member_id, want_id, want_title, distance). Members
 * are found through their public points' index within the largest travel distance.
 */
export function wantersOfListingSql(listing: ListingToMatch): SQL {
  const distance = distanceMiles(listing.point, memberPoint('u'));
  return sql`SELECT DISTINCT ON (q.member_id) q.member_id::text AS member_id, q.want_id, q.want_title,
      q.distance::float8 AS distance
    FROM (SELECT p.*, ${textPercentSql()} AS text_pct FROM (
        SELECT u.id AS member_id, w.id AS want_id, w.title AS want_title, ${distance} AS distance,
          ${pairColumns()}
        FROM users u
        JOIN LATERAL (${wantsWithQuery(sql`w.user_id = u.id`)}) w ON true
        CROSS JOIN (${listing.relation}) i
        WHERE ${withinRadius(listing.point, TRAVEL_DISTANCE_MAX, memberPoint('u'))}
          AND ${distance} <= u.max_travel_distance
          AND u.id <> ${listing.ownerId}::uuid AND ${notHiddenFrom('u.id', listing.ownerId)}
          AND ${pairMatches()}) p) q
    ORDER BY q.member_id, ${wantPointsSql()} DESC, q.want_id`;
}
