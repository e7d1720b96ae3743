import { FORMER_MEMBER, memberDisplayName } from '#common/member-name.ts';
import type { MemberRef } from '#common/schemas/barters.ts';
import { users } from '../../db/schema/users';

/** The columns a member reference is made from (select them from `users`: `memberRefColumns`). */
export interface MemberRefRow {
  id: string | null;
  /** `users.display_name`, the name as the database keeps it told apart from near namesakes (ADR 058). */
  displayName: string | null;
  firstName?: string | null;
  lastName?: string | null;
  profileImageUrl: string | null;
}

/** What to select from `users` (or an alias of it) for presentMemberRef: one join, no extra query. */
export function memberRefColumns(table: typeof users = users) {
  return {
    id: table.id,
    displayName: table.displayName,
    firstName: table.firstName,
    lastName: table.lastName,
    profileImageUrl: table.profileImageUrl,
  };
}

/**
 * How a member's name reads to others: the stored name, told apart from near namesakes ("Maya Ol.";
 * ADR 058); "Ann R." from the names only for a row written before its trigger could name it.
 */
export function shownName(row: {
  displayName?: string | null;
  firstName?: string | null;
  lastName?: string | null;
}): string {
  return row.displayName ?? memberDisplayName(row.firstName, row.lastName);
}

/**
 * Another member as barters, notifications and member pages show them: id, "Ann R." and picture;
 * never the e-mail or a position. A missing row (deleted account) is 'Former member' with a null id.
 */
export function presentMemberRef(row: MemberRefRow | null | undefined): MemberRef {
  if (!row?.id) return { id: null, displayName: FORMER_MEMBER, profileImageUrl: null };
  return {
    id: row.id,
    displayName: shownName(row),
    profileImageUrl: row.profileImageUrl,
  };
}
