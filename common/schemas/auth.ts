import { z } from 'zod';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../constants';
import { textField } from './text';

/** Messages of spec section 5, shown under the fields and returned by the server. */
export const AUTH_MESSAGES = {
  firstNameRequired: 'First name is required',
  emailInvalid: 'Please enter a valid email address',
  passwordTooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
  passwordsDiffer: "Passwords don't match",
  demoNameRequired: 'Please enter your name to continue',
  /** Any new password (the list is checked on the server: server/features/auth/password-strength.ts). */
  passwordTooCommon: 'This password is too common. Choose one that is harder to guess.',
} as const;

/**
 * Why the server refused a new password (ADR 055): zxcvbn's warning, in our words, with its advice;
 * `tooWeak` when zxcvbn gives no warning. Keyed by zxcvbn's warning names, plus the member's own name
 * and e-mail address. Checked on the server only (zxcvbn is too big for the first screen).
 */
export const PASSWORD_STRENGTH_MESSAGES = {
  tooWeak: 'This password is too easy to guess. Add more words that are less common.',
  straightRow: 'Straight rows of keys on a keyboard are easy to guess. Add more words that are less common.',
  keyPattern: 'Short keyboard patterns are easy to guess. Add more words that are less common.',
  simpleRepeat: 'Repeated characters like "aaa" are easy to guess. Add more words that are less common.',
  extendedRepeat:
    'Repeated patterns like "abcabcabc" are easy to guess. Add more words that are less common.',
  sequences: 'Sequences like "abc" or "123" are easy to guess. Add more words that are less common.',
  recentYears: 'Recent years are easy to guess. Add more words that are less common.',
  dates: 'Dates are easy to guess. Add more words that are less common.',
  topTen: 'This is one of the most used passwords. Choose one that is harder to guess.',
  topHundred: 'This is a very often used password. Choose one that is harder to guess.',
  common: 'This is a commonly used password. Choose one that is harder to guess.',
  similarToCommon: 'This is like a commonly used password. Choose one that is harder to guess.',
  wordByItself: 'A single word is easy to guess. Add more words that are less common.',
  namesByThemselves: 'A single name or surname is easy to guess. Add more words that are less common.',
  commonNames: 'Common names and surnames are easy to guess. Add more words that are less common.',
  userInputs:
    'Your own details and the name of this site are easy to guess. Add more words that are less common.',
  containsName: 'Your password must not contain your name.',
  containsEmail: 'Your password must not contain your email address.',
} as const;

/** Stable error codes of the account endpoints; the client may branch on them. */
export const AUTH_ERROR_CODES = {
  emailTaken: 'EMAIL_TAKEN',
  userNotFound: 'USER_NOT_FOUND',
  invalidCredentials: 'INVALID_CREDENTIALS',
  demoLoginDisabled: 'DEMO_LOGIN_DISABLED',
  /** 400 for a new password on the list of most common ones; belongs to the password field. */
  passwordTooCommon: 'PASSWORD_TOO_COMMON',
  /** 400 for a new password zxcvbn scores below 2; the message says why; belongs to the password field. */
  passwordTooWeak: 'PASSWORD_TOO_WEAK',
  /** 400 for a new password that contains the member's name or e-mail address; belongs to the password field. */
  passwordPersonal: 'PASSWORD_PERSONAL',
  /** 400: an account e-mail's link that expired, was used, or never existed. */
  linkInvalid: 'LINK_INVALID',
  /** 400 from a password or e-mail change: the current password does not match. */
  currentPasswordWrong: 'CURRENT_PASSWORD_WRONG',
  /** 400 from an e-mail change to the address the member already has. */
  emailUnchanged: 'EMAIL_UNCHANGED',
  /** 403: demo accounts have no e-mail or password to change. */
  demoAccount: 'DEMO_ACCOUNT',
} as const;

/** The codes of a refused new password (sign-up, change, reset): each belongs to the password field. */
export const PASSWORD_REFUSED_CODES: readonly string[] = [
  AUTH_ERROR_CODES.passwordTooCommon,
  AUTH_ERROR_CODES.passwordTooWeak,
  AUTH_ERROR_CODES.passwordPersonal,
];

/** Values of `?error=` on /login after a Google sign-in that did not complete. */
export const GOOGLE_ERRORS = {
  unavailable: 'google-unavailable',
  failed: 'google-failed',
} as const;

/** E-mail addresses are stored and compared trimmed and in lower case. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

const emailField = textField('Email')
  .max(EMAIL_MAX_LENGTH, AUTH_MESSAGES.emailInvalid)
  .pipe(z.email(AUTH_MESSAGES.emailInvalid));

// Taken as typed (not trimmed): spaces may be part of a password.
const passwordField = textField('Password', { trim: false })
  .min(PASSWORD_MIN_LENGTH, AUTH_MESSAGES.passwordTooShort)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

const firstNameField = textField('First name')
  .min(1, AUTH_MESSAGES.firstNameRequired)
  .max(NAME_MAX_LENGTH, `First name must be at most ${NAME_MAX_LENGTH} characters`);

const lastNameField = textField('Last name')
  .max(NAME_MAX_LENGTH, `Last name must be at most ${NAME_MAX_LENGTH} characters`)
  .optional();

/** The register form (spec section 5): the confirmation must match, shown on the confirm field. */
export const registerFormSchema = z
  .object({
    firstName: firstNameField,
    lastName: lastNameField,
    email: emailField,
    password: passwordField,
    confirmPassword: z.string(),
  })
  .refine((values) => values.password === values.confirmPassword, {
    message: AUTH_MESSAGES.passwordsDiffer,
    path: ['confirmPassword'],
  });

export type RegisterFormValues = z.input<typeof registerFormSchema>;

/** POST /api/auth/register: the form without the confirmation, which is never sent. */
export const registerSchema = z.strictObject({
  firstName: firstNameField,
  lastName: lastNameField,
  email: emailField,
  password: passwordField,
});

export type RegisterInput = z.infer<typeof registerSchema>;

/** POST /api/auth/login (spec section 5). */
export const loginSchema = z.strictObject({
  email: emailField,
  password: passwordField,
});

export type LoginInput = z.infer<typeof loginSchema>;

/** POST /api/demo-login: a name that is not blank after trimming. */
export const demoLoginSchema = z.strictObject({
  name: textField('Name')
    .min(1, AUTH_MESSAGES.demoNameRequired)
    .max(NAME_MAX_LENGTH, `Name must be at most ${NAME_MAX_LENGTH} characters`),
});

export type DemoLoginInput = z.infer<typeof demoLoginSchema>;

/** GET /api/auth/user: the signed-in member's own account; nullable where the database is. */
export const currentUserSchema = z.object({
  id: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.string().nullable(),
  location: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  maxTravelDistance: z.number().int(),
  profileImageUrl: z.string().nullable(),
  /** A demo account (made by demo login): no e-mail or password, kept by this browser only. */
  isDemo: z.boolean(),
  /** The member proved they read mail at `email` (ADR 024); until then a banner asks them to. */
  emailVerified: z.boolean(),
  /** The member has a password (Google and demo members may not): changing it asks for the current one. */
  hasPassword: z.boolean(),
  /** 'moderator' sees the moderation screen (ADR 025). */
  role: z.enum(['member', 'moderator']),
  /** While set (ISO time, in the future): suspended, may only read their account and appeal. */
  suspendedUntil: z.string().nullable(),
});

export type CurrentUser = z.infer<typeof currentUserSchema>;

/** A link's token from an account e-mail (base64url, 43 characters). */
const tokenField = z
  .string({ error: 'This link is not valid. Please ask for a new one.' })
  .regex(/^[A-Za-z0-9_-]{43}$/, 'This link is not valid. Please ask for a new one.');

/** Texts of the account screens and their answers (ADR 024). */
export const ACCOUNT_MESSAGES = {
  resetSent: 'If an account uses this email address, we have sent it a link to set a new password.',
  linkInvalid: 'This link has expired or was already used. Please ask for a new one.',
  passwordChanged: 'Your password has been changed.',
  currentPasswordWrong: 'Your current password is not correct.',
  verificationSent: 'We have sent a link to confirm your email address.',
  emailChangeSent: 'We have sent a link to your new address. Your email changes when you follow it.',
} as const;

/** POST /api/auth/password-reset: where to send the link. */
export const passwordResetRequestSchema = z.strictObject({ email: emailField });
export type PasswordResetRequestInput = z.infer<typeof passwordResetRequestSchema>;

/** POST /api/auth/password-reset/confirm: the link's token and the new password. */
export const passwordResetSchema = z.strictObject({ token: tokenField, password: passwordField });
export type PasswordResetInput = z.infer<typeof passwordResetSchema>;

/** The reset form: the new password twice. */
export const passwordResetFormSchema = z
  .object({ password: passwordField, confirmPassword: z.string() })
  .refine((values) => values.password === values.confirmPassword, {
    message: AUTH_MESSAGES.passwordsDiffer,
    path: ['confirmPassword'],
  });
export type PasswordResetFormValues = z.input<typeof passwordResetFormSchema>;

/** POST /api/auth/verify-email: the link's token. */
export const verifyEmailSchema = z.strictObject({ token: tokenField });

/** PUT /api/account/password: the current password (absent for a member without one) and the new one. */
export const changePasswordSchema = z.strictObject({
  currentPassword: z.string().max(PASSWORD_MAX_LENGTH).optional(),
  newPassword: passwordField,
});
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

/** The Account tab's password form: the new password twice. */
export const changePasswordFormSchema = z
  .object({
    currentPassword: z.string().max(PASSWORD_MAX_LENGTH),
    newPassword: passwordField,
    confirmPassword: z.string(),
  })
  .refine((values) => values.newPassword === values.confirmPassword, {
    message: AUTH_MESSAGES.passwordsDiffer,
    path: ['confirmPassword'],
  });
export type ChangePasswordFormValues = z.input<typeof changePasswordFormSchema>;

/** PUT /api/account/email: the new address, confirmed with the password. */
export const changeEmailSchema = z.strictObject({
  email: emailField,
  password: z.string().max(PASSWORD_MAX_LENGTH).optional(),
});
export type ChangeEmailInput = z.infer<typeof changeEmailSchema>;

/** DELETE /api/account: the password, or (for a member without one) the e-mail typed again. */
export const deleteAccountSchema = z.strictObject({
  password: z.string().max(PASSWORD_MAX_LENGTH).optional(),
  email: z.string().max(EMAIL_MAX_LENGTH).optional(),
});
export type DeleteAccountInput = z.infer<typeof deleteAccountSchema>;

/** GET /api/account/sessions: where the member is signed in. */
export const accountSessionSchema = z.object({
  id: z.string(),
  /** Browser and system in a few words, from the User-Agent at sign-in ("Chrome on Linux"). */
  device: z.string(),
  signedInAt: z.string(),
  lastActiveAt: z.string(),
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;

/** GET /api/notifications/unread-count and GET /api/messages/unread-count: a plain number. */
export const unreadCountSchema = z.number().int().nonnegative();
