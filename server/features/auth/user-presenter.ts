import type { CurrentUser } from '#common/schemas/auth.ts';
import type { UserRow } from '../../db/schema/users';

/**
 * The member's own account as GET /api/auth/user returns it. A whitelist: the password hash,
 * Google subject and demo name never leave the server.
 */
export function presentCurrentUser(user: UserRow): CurrentUser {
  return {
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    location: user.location,
    latitude: user.latitude,
    longitude: user.longitude,
    maxTravelDistance: user.maxTravelDistance,
    profileImageUrl: user.profileImageUrl,
    isDemo: user.isDemo,
    emailVerified: user.emailVerifiedAt !== null,
    hasPassword: user.passwordHash !== null,
    role: user.role,
    suspendedUntil:
      user.suspendedUntil && user.suspendedUntil.getTime() > Date.now()
        ? user.suspendedUntil.toISOString()
        : null,
  };
}
