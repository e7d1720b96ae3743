import { FORMER_MEMBER, memberDisplayName } from '../../../common/member-name';
import type { MemberRef } from '../../../common/schemas/barters';

/** The columns a member reference is made from (select them from `users`). */
export interface MemberRefRow {
  id: string | null;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
}

/**
 * Another member as barters, notifications and member pages show them: id, "Ann R." and picture;
 * never the e-mail or a position. A missing row (deleted account) is 'Former member' with a null id.
 */
export function presentMemberRef(row: MemberRefRow | null | undefined): MemberRef {
  if (!row?.id) return { id: null, displayName: FORMER_MEMBER, profileImageUrl: null };
  return {
    id: row.id,
    displayName: memberDisplayName(row.firstName, row.lastName),
    profileImageUrl: row.profileImageUrl,
  };
}
