import { type SQL, sql } from 'drizzle-orm';

/**
 * The members a viewer and they hide from each other (member_blocks, either way; ADR 025), as a
 * subquery for `NOT IN`: PostgreSQL hashes it once per statement, so each candidate row costs a hash
 * probe, and a viewer who blocked nobody (nearly all) costs two empty index probes.
 */
export function hiddenMembersOf(viewerId: string): SQL {
  return sql`(SELECT b.blocked_id FROM member_blocks b WHERE b.blocker_id = ${viewerId}::uuid
    UNION ALL SELECT b.blocker_id FROM member_blocks b WHERE b.blocked_id = ${viewerId}::uuid)`;
}

/** `column` (a member id) is not hidden from the viewer. */
export function notHiddenFrom(column: string, viewerId: string): SQL {
  return sql`${sql.raw(column)} NOT IN ${hiddenMembersOf(viewerId)}`;
}
