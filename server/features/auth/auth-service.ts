import { NAME_MAX_LENGTH } from '#common/constants.ts';
import {
  AUTH_ERROR_CODES,
  type DemoLoginInput,
  type LoginInput,
  normalizeEmail,
  type RegisterInput,
} from '#common/schemas/auth.ts';
import { SAFETY_ERROR_CODES } from '#common/schemas/safety.ts';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema/users';
import { conflict, HttpError, isUniqueViolation } from '../../errors';
import { checkNewPassword } from './password-strength';
import { hashPassword, verifyPassword } from './passwords';
import {
  findDemoUserById,
  findUserByEmail,
  findUserByGoogleSub,
  insertUser,
  renameDemoUser,
  setGoogleSub,
} from './users-repository';

const emailTaken = () => conflict('An account with this email already exists.', AUTH_ERROR_CODES.emailTaken);

/**
 * Create a member with an e-mail and password; 400 PASSWORD_TOO_COMMON, PASSWORD_PERSONAL or
 * PASSWORD_TOO_WEAK for a password too easy to guess (ADR 055; new passwords only: existing accounts
 * still sign in with theirs), 409 EMAIL_TAKEN when the address is in use.
 */
export async function register(db: Db, input: RegisterInput): Promise<UserRow> {
  const email = normalizeEmail(input.email);
  await checkNewPassword(input.password, {
    email,
    firstName: input.firstName,
    lastName: input.lastName,
  });
  if (await findUserByEmail(db, email)) throw emailTaken();
  const passwordHash = await hashPassword(input.password);
  try {
    return await insertUser(db, {
      email,
      passwordHash,
      firstName: input.firstName,
      lastName: input.lastName || null,
    });
  } catch (error) {
    // Two registrations racing for the same address: the unique index decides.
    if (isUniqueViolation(error, 'users_email_unique')) throw emailTaken();
    throw error;
  }
}

/**
 * The member whose e-mail and password match. 401 USER_NOT_FOUND for an unknown address (the client
 * then offers registration, spec section 4), 401 INVALID_CREDENTIALS for a wrong password or an
 * account without one (demo and Google members).
 */
export async function login(db: Db, input: LoginInput): Promise<UserRow> {
  const user = await findUserByEmail(db, normalizeEmail(input.email));
  const matches = await verifyPassword(user?.passwordHash ?? null, input.password);
  if (!user) {
    throw new HttpError(
      401,
      AUTH_ERROR_CODES.userNotFound,
      'user-not-found: No account uses this email address.',
    );
  }
  if (!matches) {
    throw new HttpError(
      401,
      AUTH_ERROR_CODES.invalidCredentials,
      'invalid-credentials: The email or password is incorrect.',
    );
  }
  if (user.bannedAt) {
    throw new HttpError(
      403,
      SAFETY_ERROR_CODES.accountBanned,
      'This account was closed for breaking the Terms.',
    );
  }
  return user;
}

/** Split a typed name into the name as typed (spaces tidied) and first/last names. */
export function parseDemoName(name: string): {
  demoName: string;
  firstName: string;
  lastName: string | null;
} {
  const display = name.trim().replace(/\s+/g, ' ');
  const [firstName = display, ...rest] = display.split(' ');
  return { demoName: display, firstName, lastName: rest.length ? rest.join(' ') : null };
}

/**
 * The demo account for this browser (ADR 016). A name never identifies an account: every demo login
 * makes a new demo account (no e-mail, no password), unless the browser holds the signed id of the
 * demo account it made before (`heldId`, from its demo cookie); then that one, renamed when a
 * different name was typed. Never a member who signs in another way.
 */
export async function demoLogin(db: Db, input: DemoLoginInput, heldId: string | null): Promise<UserRow> {
  const names = parseDemoName(input.name);
  const held = heldId ? await findDemoUserById(db, heldId) : null;
  if (held) return held.demoName === names.demoName ? held : renameDemoUser(db, held.id, names);
  return insertUser(db, { ...names, isDemo: true });
}

/** The verified facts a Google ID token gives us. */
export interface GoogleIdentity {
  sub: string;
  email?: string | undefined;
  emailVerified: boolean;
  givenName?: string | undefined;
  familyName?: string | undefined;
  name?: string | undefined;
}

/**
 * The member for a Google identity: the one already linked to it; else the one with the same e-mail,
 * but only when Google says the address is verified (otherwise anyone could claim an account by
 * adding its address to a Google profile); else a new member. An unverified address is not stored.
 */
export async function signInWithGoogle(db: Db, identity: GoogleIdentity): Promise<UserRow> {
  const linked = await findUserByGoogleSub(db, identity.sub);
  if (linked) return linked;

  const email = identity.email && identity.emailVerified ? normalizeEmail(identity.email) : null;
  if (email) {
    const sameEmail = await findUserByEmail(db, email);
    if (sameEmail) {
      if (sameEmail.googleSub && sameEmail.googleSub !== identity.sub) {
        throw new Error('the account with this e-mail is linked to another Google identity');
      }
      return setGoogleSub(db, sameEmail.id, identity.sub);
    }
  }

  const fallbackNames = (identity.name ?? '').trim().split(/\s+/);
  const firstName = (identity.givenName?.trim() || fallbackNames[0] || 'Neighbour').slice(0, NAME_MAX_LENGTH);
  const lastName =
    (identity.familyName?.trim() || fallbackNames.slice(1).join(' ')).slice(0, NAME_MAX_LENGTH) || null;
  try {
    // Google vouched for the address (only verified ones are stored).
    return await insertUser(db, {
      googleSub: identity.sub,
      email,
      firstName,
      lastName,
      emailVerifiedAt: email ? new Date() : null,
    });
  } catch (error) {
    if (isUniqueViolation(error, 'users_google_sub_unique')) {
      const created = await findUserByGoogleSub(db, identity.sub);
      if (created) return created;
    }
    throw error;
  }
}
