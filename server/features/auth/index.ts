/** Signing in: accounts' passwords, the sign-in routes (password, Google, demo), sessions ended. */
export { accountRoutes, authRoutes } from './auth-routes';
export { register } from './auth-service';
export { endSessions } from './end-sessions';
export { googleRoutes } from './google-routes';
export { readKnownDevice, rememberDevice } from './known-device';
export { checkNewPassword, passwordRefusal } from './password-strength';
export { hashPassword, verifyPassword } from './passwords';
export { presentCurrentUser } from './user-presenter';
export { findUserByEmail, updateUserRow } from './users-repository';
