/**
 * Judges a new password (sign-up, password change, reset; ADR 055, after ADR 016). In order:
 *
 * 1. One of the 49,233 most common passwords (`@zxcvbn-ts/language-common`'s list, any letter case):
 *    400 PASSWORD_TOO_COMMON.
 * 2. The member's e-mail address, its local part, or a part of their name (each of at least
 *    PERSONAL_PART_MIN_LENGTH characters, case and accents ignored) inside the password: 400
 *    PASSWORD_PERSONAL. Shorter parts ("Al") are not refused outright (they would refuse every password
 *    with "al" in it); zxcvbn weighs them below as the member's own words.
 * 3. zxcvbn (`@zxcvbn-ts/core` with the common and English dictionaries, the member's details and the
 *    site's own words as user inputs) scores it below MIN_SCORE: 400 PASSWORD_TOO_WEAK with zxcvbn's
 *    warning in our words (PASSWORD_STRENGTH_MESSAGES).
 *
 * Server only: the dictionaries are about 1.5 MB, too much for the web bundle, and about 25 MB of heap
 * once loaded. The judgement runs in the worker pool (`passwordRefusal`, the `judgePassword` task;
 * ADR 093): the pool thread loads the dictionaries when a password is first set (150-300 ms, never
 * on the event loop) and they go with the thread once it has been idle, so an idle server holds
 * none. One estimate looks at the first ESTIMATE_MAX_LENGTH characters only, with few l33t
 * substitutions, which keeps its worst case near 15 ms on this machine (zxcvbn's time grows fast
 * with length: 2 s for 200 characters with its defaults).
 */
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { AUTH_ERROR_CODES, AUTH_MESSAGES, PASSWORD_STRENGTH_MESSAGES } from '#common/schemas/auth.ts';
import { badRequest, type HttpError, serviceUnavailable } from '../../errors';
import { runInPool, WorkerPoolError } from '../../workers/pool';

/** zxcvbn's scores run 0 to 4; 2 is "somewhat guessable: protection from unthrottled online attacks". */
export const MIN_SCORE = 2;
/** zxcvbn looks at this many characters; a password this long whose start is strong is strong. */
export const ESTIMATE_MAX_LENGTH = 32;
/** A name part or e-mail local part shorter than this is weighed by zxcvbn, not refused outright. */
export const PERSONAL_PART_MIN_LENGTH = 4;
/** The site's own words: guessable for anyone attacking a Barterhood account. */
export const SITE_WORDS = [
  'barter',
  'barterhood',
  'barters',
  'swap',
  'swapday',
  'trade',
  'neighbor',
  'neighbour',
];

/** Who the password is for: their e-mail and name, as far as known. */
export interface PasswordOwner {
  email: string | null;
  firstName?: string | null;
  lastName?: string | null;
}

interface Estimator {
  common: ReadonlySet<string>;
  zxcvbn: ZxcvbnFactory;
}

let estimatorPromise: Promise<Estimator> | null = null;

/** Lets other work run between the heavy steps of loading. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function loadEstimator(): Promise<Estimator> {
  const core = await import('@zxcvbn-ts/core');
  await turn();
  const common = await import('@zxcvbn-ts/language-common');
  await turn();
  const english = await import('@zxcvbn-ts/language-en');
  await turn();
  const zxcvbn = new core.ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary, userInputs: SITE_WORDS },
    graphs: common.adjacencyGraphs,
    maxLength: ESTIMATE_MAX_LENGTH,
    // zxcvbn's default (100) costs up to 650 ms on 64 characters; 4 keeps "p@ssw0rd" found.
    l33tMaxSubstitutions: 4,
  });
  return { common: new Set(common.dictionary['passwords-common']), zxcvbn };
}

function estimator(): Promise<Estimator> {
  estimatorPromise ??= loadEstimator().catch((error: unknown) => {
    // Let the next password try again rather than keep a failed load for the process's life.
    estimatorPromise = null;
    throw error;
  });
  return estimatorPromise;
}

/** How many passwords the common list holds (for tests and docs). */
export async function commonPasswordCount(): Promise<number> {
  return (await estimator()).common.size;
}

/** Lower case, accents and other marks removed: "José" and "jose" are the same name. */
function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The owner's words: those long enough to refuse outright, and all of them for zxcvbn. */
function personalWords(owner: PasswordOwner): {
  address: string[];
  name: string[];
  local: string[];
  all: string[];
} {
  const address: string[] = [];
  const local: string[] = [];
  const all: string[] = [];
  if (owner.email) {
    const folded = fold(owner.email.trim());
    const at = folded.lastIndexOf('@');
    const localPart = at > 0 ? folded.slice(0, at) : folded;
    address.push(folded);
    if (localPart.length >= PERSONAL_PART_MIN_LENGTH) local.push(localPart);
    all.push(folded, localPart, ...localPart.split(/[^\p{L}\p{N}]+/u), ...folded.slice(at + 1).split('.'));
  }
  const names = [owner.firstName, owner.lastName]
    .filter((name): name is string => Boolean(name))
    .map((name) => fold(name.trim()));
  const parts = names.flatMap((name) => name.split(/[^\p{L}\p{N}]+/u));
  // "Jean-Luc" is also "jeanluc", "Mary Ann" also "maryann".
  const joined = names.map((name) => name.replace(/[^\p{L}\p{N}]+/gu, ''));
  const name = [...new Set([...parts, ...joined])].filter((part) => part.length >= PERSONAL_PART_MIN_LENGTH);
  all.push(...parts, ...joined);
  return { address, name, local, all: [...new Set(all.filter((word) => word.length > 0))] };
}

/** Why a password may not be used, as plain data (what the pool's thread sends back). */
export interface PasswordVerdict {
  message: string;
  code: string;
}

/** How long a judgement may take in the pool, its dictionaries' first load included (a loaded host). */
const JUDGE_TIMEOUT_MS = 30_000;

/**
 * Why the password may not be used (a 400 to throw), or null when it may. Judged in the worker pool
 * (`judgePasswordHere` there); when the pool cannot judge it (its thread died, the time limit on an
 * overloaded machine), 503 with Retry-After: the password is neither taken nor refused.
 */
export async function passwordRefusal(password: string, owner: PasswordOwner): Promise<HttpError | null> {
  let verdict: PasswordVerdict | null;
  try {
    verdict = await runInPool(
      'judgePassword',
      { password, owner: { email: owner.email, firstName: owner.firstName, lastName: owner.lastName } },
      { timeoutMs: JUDGE_TIMEOUT_MS },
    );
  } catch (error) {
    if (error instanceof WorkerPoolError) throw Object.assign(serviceUnavailable(), { cause: error });
    throw error;
  }
  return verdict ? badRequest(verdict.message, verdict.code) : null;
}

/**
 * The judgement itself, on the calling thread (the pool's): why the password may not be used, or
 * null. Awaits the estimator's first load in this thread; each judgement after that is synchronous
 * and short.
 */
export async function judgePasswordHere(
  password: string,
  owner: PasswordOwner,
): Promise<PasswordVerdict | null> {
  const { common, zxcvbn } = await estimator();
  if (common.has(password.toLowerCase())) {
    return { message: AUTH_MESSAGES.passwordTooCommon, code: AUTH_ERROR_CODES.passwordTooCommon };
  }
  const words = personalWords(owner);
  const folded = fold(password);
  // Also with spaces, dots and dashes taken out: "maria.lopez" hides in "Maria Lopez 1".
  const squeezed = folded.replace(/[^\p{L}\p{N}@]+/gu, '');
  const contains = (word: string) =>
    folded.includes(word) || squeezed.includes(word.replace(/[^\p{L}\p{N}@]+/gu, ''));
  // The whole address first ("maria.lopez@example.com" holds the name too), then the name, then
  // the address's local part.
  if (words.address.some(contains)) {
    return { message: PASSWORD_STRENGTH_MESSAGES.containsEmail, code: AUTH_ERROR_CODES.passwordPersonal };
  }
  if (words.name.some(contains)) {
    return { message: PASSWORD_STRENGTH_MESSAGES.containsName, code: AUTH_ERROR_CODES.passwordPersonal };
  }
  if (words.local.some(contains)) {
    return { message: PASSWORD_STRENGTH_MESSAGES.containsEmail, code: AUTH_ERROR_CODES.passwordPersonal };
  }
  const result = zxcvbn.check(password, words.all);
  if (result.score >= MIN_SCORE) return null;
  const warning = result.feedback.warning;
  const message =
    warning && Object.hasOwn(PASSWORD_STRENGTH_MESSAGES, warning)
      ? PASSWORD_STRENGTH_MESSAGES[warning as keyof typeof PASSWORD_STRENGTH_MESSAGES]
      : PASSWORD_STRENGTH_MESSAGES.tooWeak;
  return { message, code: AUTH_ERROR_CODES.passwordTooWeak };
}

/** Throws the refusal's 400 when the password may not be used (see passwordRefusal). */
export async function checkNewPassword(password: string, owner: PasswordOwner): Promise<void> {
  const refusal = await passwordRefusal(password, owner);
  if (refusal) throw refusal;
}
