/**
 * Member references: how one member names another (id, shown name, picture) and how a path's id is
 * checked to name a member. Every feature that shows or names other members uses these.
 */
export { isMemberId, memberExists, requireMemberId } from './member-id';
export { type MemberRefRow, memberRefColumns, presentMemberRef, shownName } from './member-ref';
