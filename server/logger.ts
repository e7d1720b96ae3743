import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';

/**
 * Field names whose values never reach a log line, at the top of a log object or one level down
 * (`{ user: { email } }`). E-mail addresses count: they identify a member (docs/security.md).
 */
const SECRET_FIELDS = [
  'password',
  'passwordHash',
  'password_hash',
  'currentPassword',
  'newPassword',
  'confirmPassword',
  'email',
  'token',
  'accessToken',
  'refreshToken',
  'idToken',
  'apiKey',
  'clientSecret',
  'sessionSecret',
  'secret',
  'cookie',
  'cookies',
  'authorization',
  'sid',
];

/** pino `redact` paths: the secret fields, and headers wherever a request or response is logged. */
export const REDACT_PATHS = [
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`]),
  '*["set-cookie"]',
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
];

const REDACTED = '[Redacted]';

/** Query-string parameters whose values are secrets (OAuth callback codes, tokens). */
const SECRET_QUERY_PARAMS = new Set([
  'code',
  'state',
  'token',
  'id_token',
  'access_token',
  'password',
  'email',
]);

/**
 * Text patterns that carry member data inside messages:
 * - drizzle's "Failed query: <sql>\nparams: <values>" puts every bound value (e-mail, argon2 hash,
 *   descriptions) into the message and so into the stack; everything from "params:" on goes;
 * - PostgreSQL's "Key (email)=(someone@example.com) already exists";
 * - any e-mail address or argon2 hash that got into a message some other way.
 */
const DRIZZLE_PARAMS = /\nparams: [\s\S]*$/;
const KEY_VALUE = /(Key \([^)]*\)=\()[\s\S]*?(\)(?: already exists| is not present| conflicts))/g;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
const ARGON2_HASH = /\$argon2(?:id|i|d)\$[^\s"'`,)]+/g;

/** `text` with bound query values, e-mail addresses and password hashes replaced by [Redacted]. */
export function scrubText(text: string): string {
  return text
    .replace(DRIZZLE_PARAMS, `\nparams: ${REDACTED}`)
    .replace(KEY_VALUE, `$1${REDACTED}$2`)
    .replace(ARGON2_HASH, REDACTED)
    .replace(EMAIL, REDACTED);
}

/**
 * Error fields kept in logs. Everything else is dropped: node-postgres' `detail` ("Failing row
 * contains (...)" lists the whole row, hash included), drizzle's and PGlite's `params`, `where`,
 * `internalQuery`, and whatever a library may attach next. An allow-list, so a new field is safe.
 * The SQL text stays in drizzle's message (values are bound parameters, never inlined), so the
 * `query` fields that repeat it go too.
 */
const SAFE_ERROR_FIELDS = new Set([
  'code',
  'errno',
  'syscall',
  'statusCode',
  'status',
  'severity',
  'constraint',
  'table',
  'column',
  'schema',
  'routine',
  'dataType',
  'validationContext',
]);
const MAX_CAUSE_DEPTH = 5;

interface ErrorLike {
  name?: unknown;
  message?: unknown;
  stack?: unknown;
  cause?: unknown;
  errors?: unknown;
  [key: string]: unknown;
}

function isErrorLike(value: unknown): value is ErrorLike {
  return (
    value instanceof Error ||
    (typeof value === 'object' && value !== null && typeof (value as ErrorLike).message === 'string')
  );
}

/** The stack with its first line (name and message, which may hold values) rebuilt from safe parts. */
function scrubStack(error: ErrorLike, type: string, message: string): string | undefined {
  if (typeof error.stack !== 'string') return undefined;
  const frames = error.stack.split('\n').filter((line) => /^\s+at /.test(line));
  return [`${type}: ${message}`, ...frames.map(scrubText)].join('\n');
}

/**
 * pino's `err` serializer, made safe: type, scrubbed message and stack, the allow-listed fields and
 * the cause chain (drizzle wraps the driver's error in `cause`), nothing else.
 */
export function serializeError(value: unknown, depth = 0): unknown {
  if (!isErrorLike(value)) return value;
  const type =
    typeof value.constructor === 'function' && value.constructor.name !== 'Object'
      ? value.constructor.name
      : typeof value.name === 'string'
        ? value.name
        : 'Error';
  const message = scrubText(String(value.message));
  const out: Record<string, unknown> = { type, message };
  const stack = scrubStack(value, type, message);
  if (stack) out.stack = stack;
  for (const key of Object.keys(value)) {
    if (!SAFE_ERROR_FIELDS.has(key)) continue;
    const field = value[key];
    if (typeof field === 'string') out[key] = scrubText(field);
    else if (typeof field === 'number' || typeof field === 'boolean') out[key] = field;
  }
  if (depth < MAX_CAUSE_DEPTH) {
    if (value.cause !== undefined) out.cause = serializeError(value.cause, depth + 1);
    if (Array.isArray(value.errors)) {
      out.aggregateErrors = value.errors.map((inner) => serializeError(inner, depth + 1));
    }
  }
  return out;
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Fastify's request serializer, with secret query values (an OAuth callback's code) redacted. */
function serializeRequest(request: LoggedRequest) {
  let url = request.url;
  if (url?.includes('?')) {
    const [path, query = ''] = url.split(/\?(.*)/s, 2);
    const params = new URLSearchParams(query);
    for (const key of [...params.keys()]) {
      if (SECRET_QUERY_PARAMS.has(key.toLowerCase())) params.set(key, REDACTED);
    }
    url = `${path}?${params}`;
  }
  return {
    method: request.method,
    url: url === undefined ? undefined : scrubText(url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * The one set of logger options (server/main.ts and the tests that read logs): redacted secret
 * fields, errors without query parameters or row values, and message strings scrubbed the same way.
 */
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: {
      err: serializeError,
      error: serializeError,
      req: serializeRequest,
    },
    hooks: {
      // A message built from an error ("could not save: " + error.message) is scrubbed too.
      logMethod(args, method) {
        const scrubbed = args.map((arg) => (typeof arg === 'string' ? scrubText(arg) : arg));
        return method.apply(this, scrubbed as Parameters<typeof method>);
      },
    },
  };
}

/** A pino logger with loggerOptions, writing JSON lines to stdout or to `destination`. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return destination ? pino(loggerOptions(level), destination) : pino(loggerOptions(level));
}
