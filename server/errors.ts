import { ERROR_CODES, type ErrorCode } from '#common/error-codes.ts';

/**
 * An error whose message is safe to show to the client, with an HTTP status and a stable code.
 *
 * A client's error (4xx) carries no stack: it is the answer to what the client sent, logged by its
 * status and code alone, and capturing the stack through Fastify's hooks was the costliest step of a
 * refused sign-in (ADR 102). A 5xx keeps its stack for the log.
 */
export class HttpError extends Error {
  override name = 'HttpError';
  /** Seconds the client should wait before retrying (sent as `Retry-After`); 503s default to 5. */
  readonly retryAfterSeconds: number | undefined;
  /** The request's field the error is about, for a form to show it there (sent as `field`). */
  readonly field: string | undefined;
  /** Why, more precisely than `code` (sent as `reason`; a moderation refusal's reason). */
  readonly reason: string | undefined;
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode | string,
    message: string,
    options: { retryAfterSeconds?: number; field?: string; reason?: string } = {},
  ) {
    const stackFrames = Error.stackTraceLimit;
    if (statusCode < 500) Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackFrames;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.field = options.field;
    this.reason = options.reason;
  }
}

export const badRequest = (message: string, code: string = ERROR_CODES.badRequest) =>
  new HttpError(400, code, message);
export const unauthorized = (
  message = 'Please sign in to continue.',
  code: string = ERROR_CODES.unauthorized,
) => new HttpError(401, code, message);
export const forbidden = (
  message = 'You are not allowed to do that.',
  code: string = ERROR_CODES.forbidden,
) => new HttpError(403, code, message);
export const notFound = (message = 'Not found.', code: string = ERROR_CODES.notFound) =>
  new HttpError(404, code, message);
export const conflict = (message: string, code: string = ERROR_CODES.conflict) =>
  new HttpError(409, code, message);
export const tooManyRequests = (message = 'Too many attempts. Please wait a minute and try again.') =>
  new HttpError(429, ERROR_CODES.rateLimited, message);
export const serviceUnavailable = (
  message = 'The service is temporarily unavailable. Please try again shortly.',
) => new HttpError(503, ERROR_CODES.databaseUnavailable, message);

/**
 * The photo store could not be reached or refused the server (ADR 042): 503, and the cause goes to the
 * log with `what` was being done (never to the client).
 */
export function photoStorageUnavailable(what: string, cause: unknown): HttpError {
  const error = new HttpError(
    503,
    ERROR_CODES.photoStorageUnavailable,
    'Photos cannot be stored or shown right now. Please try again shortly.',
  );
  error.cause = Object.assign(new Error(`photo storage failed while ${what}`), { cause });
  return error;
}

/** Code of DatabaseBusyError. */
export const DB_ACQUIRE_TIMEOUT = 'DB_ACQUIRE_TIMEOUT';

/**
 * PGlite's one connection stayed busy (a long query or an open transaction) for longer than
 * DB_ACQUIRE_TIMEOUT_MS; the request never ran its query. Answered 503, like an exhausted pool.
 */
export class DatabaseBusyError extends Error {
  override name = 'DatabaseBusyError';
  readonly code = DB_ACQUIRE_TIMEOUT;
  constructor(waitedMs: number) {
    super(`the database stayed busy for ${waitedMs} ms; gave up waiting for it`);
  }
}

const CONNECTION_ERROR_CODES = new Set([
  DB_ACQUIRE_TIMEOUT,
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '57014', // query_canceled (statement timeout)
  '53300', // too_many_connections
]);

const CONNECTION_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /connection (is )?closed/i,
  /client has encountered a connection error/i,
  /cannot use a pool after calling end/i,
  /PGlite is closed/i,
];

/** What the cause-chain checks below read of an error (a driver's error carries `code` and `constraint`). */
type CauseFields = { code?: unknown; message?: unknown; constraint?: unknown };

/** The first of `error` and its causes (six deep at most) that `test` accepts. */
function findCause(error: unknown, test: (cause: CauseFields) => boolean): CauseFields | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 6; depth++) {
    if (typeof current === 'object' && test(current as CauseFields)) return current as CauseFields;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** True when `error` (or anything in its cause chain) says the database could not be reached. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return (
    findCause(error, (cause) => {
      const { code, message } = cause;
      if (typeof code === 'string' && (CONNECTION_ERROR_CODES.has(code) || code.startsWith('08')))
        return true;
      if (typeof message === 'string' && CONNECTION_MESSAGES.some((pattern) => pattern.test(message)))
        return true;
      return cause instanceof AggregateError && cause.errors.some(isDatabaseUnavailable);
    }) !== undefined
  );
}

/** PostgreSQL's serialization_failure and deadlock_detected: the transaction was ended, not wrong. */
const TRANSACTION_CONFLICT_CODES = new Set(['40001', '40P01']);

/**
 * True when `error` (or its cause) says PostgreSQL ended the transaction to break a conflict with
 * another one (a deadlock, a serialization failure): the request can simply be sent again, so it is
 * answered 503 with `Retry-After`, not 500.
 */
export function isTransactionConflict(error: unknown): boolean {
  return (
    findCause(error, ({ code }) => typeof code === 'string' && TRANSACTION_CONFLICT_CODES.has(code)) !==
    undefined
  );
}

/** True when `error` (or its cause) is a PostgreSQL unique violation, optionally on a named constraint. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const violation = findCause(error, ({ code }) => code === '23505');
  return violation !== undefined && (constraint === undefined || violation.constraint === constraint);
}
