import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIPv4, isIPv6 } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { CLOCK_PERIODS_TEXT, isClockPeriod } from './jobs/cron';

const DEFAULT_SITE_PASSWORD = 'barter';

const booleanSetting = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** A whole number of seconds from 0 to 3600 for the setting `name`. */
const cacheSeconds = (name: string) => {
  const message = `${name} must be a whole number of seconds from 0 to 3600`;
  return z.coerce.number({ error: message }).int(message).min(0, message).max(3600, message);
};

const positiveInt = z.coerce.number().int().positive();
/** A whole number from 0 up: 0 turns the limit it sets off. */
const limitOrOff = z.coerce.number().int().min(0);

/**
 * Fastify's `trustProxy` in the one form that cannot be fooled by a visitor (ADR 044): false, or the
 * proxies' addresses. (Fastify ignores a bare hop count, since it cannot check the sender.)
 */
export type TrustProxy = false | string[];

/** proxy-addr's names for the private ranges a proxy in the same network has an address in. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** One proxy address, CIDR range or named range ("10.0.0.0/8", "::1", "fd00::/8", "uniquelocal"). */
function isAddressOrRange(text: string): boolean {
  if (NAMED_RANGES.has(text)) return true;
  const [address = '', bits, ...rest] = text.split('/');
  if (rest.length > 0) return false;
  const ipv4 = isIPv4(address);
  if (!ipv4 && !isIPv6(address)) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (ipv4 ? 32 : 128);
}

/**
 * TRUST_PROXY's text as Fastify's `trustProxy`: '' or 'false' -> false; otherwise a comma-separated
 * list of the proxies' addresses, CIDR ranges or the names loopback, linklocal and uniquelocal.
 * Undefined when it is anything else: 'true' (believe any sender's X-Forwarded-For) is refused, since
 * a visitor reaching the server directly could then choose the address its rate limits count.
 */
export function parseTrustProxy(text: string): TrustProxy | undefined {
  const value = text.trim();
  if (value === '' || value === 'false') return false;
  const parts = value.split(',').map((part) => part.trim());
  return parts.every(isAddressOrRange) ? parts : undefined;
}

/**
 * The origin of a map tile URL template ("https://tiles.example.org/{z}/{x}/{y}.png" ->
 * "https://tiles.example.org"), or null when it is not an http(s) template with {z}, {x} and {y}.
 * A {s} subdomain placeholder is not supported: the CSP names one origin.
 */
export function mapTileOrigin(template: string): string | null {
  if (!['{z}', '{x}', '{y}'].every((part) => template.includes(part)) || template.includes('{s}'))
    return null;
  try {
    const url = new URL(template.replace(/\{[a-z]+\}/g, '0'));
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    if (url.username || url.password) return null;
    return url.origin;
  } catch {
    return null;
  }
}

/** Where photos are kept (ADR 042): DATA_DIR/photos, or a bucket of an S3-compatible store. */
export type PhotoStorage = { kind: 'local' } | S3PhotoStorage;

export interface S3PhotoStorage {
  kind: 's3';
  bucket: string;
  /** The store's address (`http://minio:9000`); undefined: AWS S3 itself. */
  endpoint: string | undefined;
  region: string;
  /** Buckets addressed as `endpoint/bucket` rather than `bucket.endpoint` (MinIO and most others). */
  forcePathStyle: boolean;
  /** From the URL; undefined: the AWS SDK's usual sources (AWS_ACCESS_KEY_ID..., a role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
}

const STORAGE_URL_FORMS =
  'STORAGE_URL must be s3://BUCKET (AWS S3) or s3://KEY:SECRET@HOST[:PORT]/BUCKET (any S3-compatible store; s3+http:// without TLS)';

/**
 * STORAGE_URL as settings, or ConfigError. `s3://bucket` is a bucket on AWS S3; with a path,
 * `s3://host:port/bucket` is a bucket on that S3-compatible store over HTTPS (`s3+http://` over plain
 * HTTP). Key and secret may come in the URL (percent-encoded) or from the AWS SDK's usual sources.
 * Query: `region` (default us-east-1), `forcePathStyle` (default true with a host, false on AWS).
 * No message repeats the value: it may hold a secret.
 */
export function parseStorageUrl(text: string): S3PhotoStorage {
  const fail = (why: string) => new ConfigError(`Invalid setting STORAGE_URL: ${why}`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw fail(`not a URL. ${STORAGE_URL_FORMS}; percent-encode a key or secret with / @ : ? or #`);
  }
  if (url.protocol !== 's3:' && url.protocol !== 's3+http:') throw fail(STORAGE_URL_FORMS);
  if (url.hash) throw fail('no #fragment allowed (percent-encode # in a secret as %23)');
  const segments = url.pathname.split('/').filter((part) => part !== '');
  const onAws = segments.length === 0;
  if (segments.length > 1) throw fail(`the path is the bucket's name alone. ${STORAGE_URL_FORMS}`);
  if (!url.hostname) throw fail(STORAGE_URL_FORMS);
  if (onAws && (url.protocol === 's3+http:' || url.port)) {
    throw fail(`a host needs a bucket after it: s3+http://HOST:PORT/BUCKET. ${STORAGE_URL_FORMS}`);
  }
  const bucket = onAws ? url.hostname : (segments[0] as string);
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw fail('the bucket name must be 3 to 63 lower-case letters, digits, dots and hyphens');
  }
  let credentials: S3PhotoStorage['credentials'];
  if (url.username || url.password) {
    if (!url.username || !url.password)
      throw fail('give both the access key and the secret (KEY:SECRET@), or neither');
    try {
      credentials = {
        accessKeyId: decodeURIComponent(url.username),
        secretAccessKey: decodeURIComponent(url.password),
      };
    } catch {
      throw fail('the access key or secret has a broken percent-encoding');
    }
  }
  let region = 'us-east-1';
  let forcePathStyle = !onAws;
  for (const [name, value] of url.searchParams) {
    if (name === 'region') {
      if (!/^[a-z0-9-]{1,40}$/.test(value)) throw fail('region must look like eu-west-1');
      region = value;
    } else if (name === 'forcePathStyle') {
      if (value !== 'true' && value !== 'false') throw fail('forcePathStyle must be true or false');
      forcePathStyle = value === 'true';
    } else {
      throw fail(`unknown option "${name}" (region and forcePathStyle are known)`);
    }
  }
  const endpoint = onAws ? undefined : `${url.protocol === 's3+http:' ? 'http' : 'https'}://${url.host}`;
  return { kind: 's3', bucket, endpoint, region, forcePathStyle, credentials };
}

/** The photo storage for people (start-up line, logs): never the key or secret. */
export function describePhotoStorage(storage: PhotoStorage, dataDir: string): string {
  if (storage.kind === 'local') return `the directory ${path.join(dataDir, 'photos')}`;
  return `the S3 bucket ${storage.bucket} ${storage.endpoint ? `at ${storage.endpoint}` : `on AWS (${storage.region})`}`;
}

/** The settings table of docs/contract.md, read once at start. */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  // Checked by parseStorageUrl (its messages never repeat the value: it may hold a secret).
  STORAGE_URL: z.string().trim().optional(),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SITE_PASSWORD: z.string().optional(),
  PUBLIC_URL: z.url().optional(),
  SUPPORT_EMAIL: z.email().default('support@barterhood.example'),
  LEGAL_EMAIL: z.email().default('legal@barterhood.example'),
  LICENSING_EMAIL: z.email().default('licensing@barterhood.example'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().trim().min(3).max(200).default('Barterhood <no-reply@barterhood.example>'),
  PASSWORD_RESET_RATE_LIMIT: positiveInt.default(5),
  // Unset: on in development and test, off in production (a demo login needs no password).
  DEMO_LOGIN: booleanSetting.optional(),
  SEED_DEMO: booleanSetting.default(true),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  GOOGLE_ISSUER_URL: z.url().default('https://accounts.google.com'),
  PHOTO_SCREENING: booleanSetting.default(true),
  // Unset: on, off in tests (they run the finder themselves).
  CIRCLE_FINDER: booleanSetting.optional(),
  PHOTO_SCREENING_THRESHOLD: z.coerce
    .number({ error: 'PHOTO_SCREENING_THRESHOLD must be a number above 0, at most 1' })
    .gt(0, 'PHOTO_SCREENING_THRESHOLD must be a number above 0, at most 1')
    .max(1, 'PHOTO_SCREENING_THRESHOLD must be a number above 0, at most 1')
    .default(0.7),
  AI_PROVIDER: z.enum(['local', 'openai']).default('local'),
  OPENAI_BASE_URL: z.url().optional(),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_MODEL: z.string().optional(),
  OPENAI_TIMEOUT_MS: positiveInt.default(30_000),
  GEOCODER: z.enum(['offline', 'nominatim']).default('offline'),
  NOMINATIM_URL: z.url().optional(),
  MAP_TILE_URL: z
    .string()
    .trim()
    .refine((value) => value === '' || mapTileOrigin(value) !== null, {
      error:
        'MAP_TILE_URL must be an http(s) tile URL template with {z}, {x} and {y}, e.g. https://tiles.example.org/{z}/{x}/{y}.png',
    })
    .optional(),
  MAP_TILE_ATTRIBUTION: z.string().trim().max(300).default(''),
  METRICS_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
  TRUST_PROXY: z
    .string()
    .trim()
    .refine((value) => parseTrustProxy(value) !== undefined, {
      error:
        "TRUST_PROXY must be a comma-separated list of the proxies' addresses or ranges, e.g. 10.0.0.5 or 172.16.0.0/12,::1 or uniquelocal",
    })
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  GATE_RATE_LIMIT: positiveInt.default(10),
  LOGIN_RATE_LIMIT: positiveInt.default(20),
  LOGIN_ACCOUNT_RATE_LIMIT: positiveInt.default(10),
  REGISTER_RATE_LIMIT: positiveInt.default(10),
  DEMO_LOGIN_RATE_LIMIT: positiveInt.default(20),
  ANALYZE_RATE_LIMIT: positiveInt.default(20),
  ITEM_CREATE_RATE_LIMIT: positiveInt.default(100),
  WANT_CREATE_RATE_LIMIT: positiveInt.default(100),
  LOCATION_CHANGE_RATE_LIMIT: positiveInt.default(10),
  BARTER_PROPOSAL_RATE_LIMIT: positiveInt.default(30),
  MESSAGE_RATE_LIMIT: positiveInt.default(60),
  // Unset: every 60 seconds, off in tests (they run the jobs themselves). A period a clock keeps:
  // the jobs are cron schedules, at most once a minute (ADR 066).
  BARTER_EXPIRY_SWEEP_SECONDS: z.coerce
    .number({ error: `BARTER_EXPIRY_SWEEP_SECONDS must be ${CLOCK_PERIODS_TEXT}` })
    .refine(isClockPeriod, `BARTER_EXPIRY_SWEEP_SECONDS must be ${CLOCK_PERIODS_TEXT}`)
    .optional(),
  // The longest a swap day's match may solve (ADR 050): two thirds for items-then-members, the rest for the fallback.
  SWAP_DAY_MATCH_SECONDS: positiveInt.default(30),
  // Stale listings (issue 31, ADR 088): a listing confirmed longer ago than this asks its owner
  // "Still available?"; without an answer for the grace days more it leaves the feeds.
  STALE_LISTING_DAYS: positiveInt.default(30),
  STALE_LISTING_GRACE_DAYS: positiveInt.default(7),
  // Web Push (ADR 087): the operator's VAPID pair (both or neither; unset, one is made and kept in
  // the database), the contact push services are given, and the push services' hosts accepted.
  WEB_PUSH_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{87}$/, 'WEB_PUSH_PUBLIC_KEY must be a P-256 public key, 65 bytes in base64url')
    .optional(),
  WEB_PUSH_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, 'WEB_PUSH_PRIVATE_KEY must be a P-256 private key, 32 bytes in base64url')
    .optional(),
  WEB_PUSH_SUBJECT: z
    .string()
    .regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, 'WEB_PUSH_SUBJECT must be a mailto: or https: address')
    .optional(),
  WEB_PUSH_SERVICE_HOSTS: z
    .string()
    .default('fcm.googleapis.com,.push.services.mozilla.com,.notify.windows.com,.push.apple.com'),
  DB_POOL_MAX: positiveInt.default(10),
  DB_STATEMENT_TIMEOUT_MS: positiveInt.default(10_000),
  DB_ACQUIRE_TIMEOUT_MS: positiveInt.default(1_500),
  PGLITE_SHARED_BUFFERS_MB: positiveInt.min(1, 'PGLITE_SHARED_BUFFERS_MB must be at least 1').default(32),
  DB_SLOW_HOLD_MS: limitOrOff.default(250),
  SHED_DB_WAITING: limitOrOff.default(256),
  SHED_DB_WAIT_MS: limitOrOff.default(500),
  SHED_EVENT_LOOP_DELAY_MS: limitOrOff.default(300),
  REQUEST_TIMEOUT_MS: positiveInt.default(30_000),
  EVENT_STREAMS_PER_MEMBER: positiveInt.default(8),
  EVENT_STREAMS_MAX: positiveInt.default(10_000),
  EVENT_HEARTBEAT_SECONDS: positiveInt.max(300, 'EVENT_HEARTBEAT_SECONDS must be at most 300').default(25),
  FEED_CACHE_SECONDS: cacheSeconds('FEED_CACHE_SECONDS').default(60),
  FEED_RANKING_CACHE_SECONDS: cacheSeconds('FEED_RANKING_CACHE_SECONDS').optional(),
});

export type Env = z.input<typeof envSchema>;

/** Every environment variable the server reads (docs/settings.md); the deploy files are checked against it. */
export const SETTING_NAMES: readonly string[] = Object.keys(envSchema.shape);

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Where photos are kept: DATA_DIR/photos unless STORAGE_URL names an S3 bucket (ADR 042). */
  photoStorage: PhotoStorage;
  sessionSecret: string;
  /** Empty string: the gate is off. */
  sitePassword: string;
  publicUrl: string;
  supportEmail: string;
  legalEmail: string;
  licensingEmail: string;
  /** Outgoing e-mail (server/mail/mailer.ts): SMTP when set, else DATA_DIR/outbox. */
  mail: { smtpUrl: string | undefined; from: string };
  demoLogin: boolean;
  seedDemo: boolean;
  google: { clientId: string; clientSecret: string; issuerUrl: string } | null;
  ai: {
    provider: 'local' | 'openai';
    baseUrl?: string;
    apiKey?: string;
    model?: string;
    /** How long one request to the openai provider may take. */
    timeoutMs: number;
  };
  geocoder: { provider: 'offline' | 'nominatim'; nominatimUrl?: string };
  /**
   * The tile server of the approximate-area maps (ADR 032): a Leaflet URL template, the credit the
   * tiles need and the origin the CSP lets images come from; null without one (the text area only).
   */
  mapTiles: { urlTemplate: string; attribution: string; origin: string } | null;
  /** Explicit-content screening of uploaded photos (ADR 027). */
  photoScreening: { enabled: boolean; threshold: number };
  /** Find trade circles in the background as matches change (ADR 029). */
  circleFinder: boolean;
  logLevel: string;
  /** GET /metrics answers only with `Authorization: Bearer <this>`; unset, it answers 404 (ADR 038). */
  metricsToken: string | undefined;
  /**
   * Whose `X-Forwarded-For` names the visitor (ADR 044): false (nobody's, the default: the
   * connection's address is the visitor's), or the proxies' addresses and ranges.
   */
  trustProxy: TrustProxy;
  rateLimits: {
    /** Site password attempts per IP address per minute. */
    gatePerMinute: number;
    /** Sign-in attempts per IP address per minute. */
    loginPerMinute: number;
    /**
     * Failed sign-ins on one account (each source counting at most its free attempts) before devices
     * that never signed into it wait exponentially longer (server/features/auth/login-throttle.ts).
     */
    loginPerAccount: number;
    /** Registrations per IP address per minute. */
    registerPerMinute: number;
    /** Password-reset and verification e-mails asked for per IP address per minute (and per account per hour). */
    accountMailPerMinute: number;
    /** Demo logins per IP address per minute. */
    demoLoginPerMinute: number;
    /** Photo analyses per member per minute. */
    analyzePerMinute: number;
    /** New items per member per hour. */
    itemCreatePerHour: number;
    /** New wants per member per hour. */
    wantCreatePerHour: number;
    /** Changes of a member's coordinates per member per hour (server/geo/README.md). */
    locationChangesPerHour: number;
    /** New barter proposals and counters per member per hour (each route counts apart). */
    barterProposalsPerHour: number;
    /** Messages in barter conversations per member per 10 minutes. */
    messagesPerTenMinutes: number;
  };
  db: {
    poolMax: number;
    statementTimeoutMs: number;
    /** Longest wait for a database connection (PostgreSQL pool, PGlite's one connection); then 503. */
    acquireTimeoutMs: number;
    /**
     * The embedded database's buffer pool (PostgreSQL's shared_buffers), in MB: held in its
     * WebAssembly memory for the life of the process (ADR 093).
     */
    pgliteSharedBuffersMb: number;
    /**
     * The embedded database: a query or transaction holding its one connection this long (ms) is
     * logged as a warning with its statements (server/db/client.ts `HeldTooLong`); 0: never.
     */
    slowHoldMs: number;
  };
  /**
   * When a request is answered 503 at once instead of joining the line (ADR 041); 0 turns a limit
   * off. `dbWaiting`: callers already waiting for a database connection; `dbWaitMs`: how long the
   * first of them has waited (PGlite only: node-postgres does not say); `eventLoopDelayMs`: how late
   * the event loop runs.
   */
  loadShedding: { dbWaiting: number; dbWaitMs: number; eventLoopDelayMs: number };
  requestTimeoutMs: number;
  /** Live event streams, GET /api/events (ADR 020, server/events/README.md). */
  events: {
    /** Open streams per member in this process; a new one closes the member's oldest. */
    streamsPerMember: number;
    /** Open streams in this process; past it new ones are answered 503. */
    streamsMax: number;
    /** How often every stream gets a comment line (keeps proxies from closing it) and its session is checked. */
    heartbeatSeconds: number;
  };
  /** How long feed rankings and cards may be reused by this process (ADR 012); 0 keeps neither. */
  feedCacheSeconds: number;
  /** How long a feed ranking may be reused (default feedCacheSeconds); 0 ranks every page afresh, cards still kept. */
  feedRankingCacheSeconds: number;
  /**
   * How often, across every process, the expiry jobs run (ADR 019, 066): barter and circle
   * proposals, ended suspensions, mail digests, old refusals, swap-day deadlines; 0: never.
   */
  barterExpirySweepSeconds: number;
  /** The longest a swap day's match may solve before its fallback must answer (ADR 050). */
  swapDayMatchSeconds: number;
  /**
   * Stale listings (ADR 088): days after its last confirmation a listing asks its owner "Still
   * available?", and days more without an answer before it leaves the feeds.
   */
  staleListings: { days: number; graceDays: number };
  /**
   * Web Push (ADR 087): the operator's VAPID pair, or null to make one and keep it in the database;
   * the subject (contact) push services see; the hosts a subscription's endpoint may name (a
   * leading dot: any subdomain).
   */
  webPush: {
    keys: { publicKey: string; privateKey: string } | null;
    subject: string;
    serviceHosts: string[];
  };
}

/** A setting that cannot be used; the message is one line, shown before the process exits. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  if (existsSync(file)) {
    const secret = readFileSync(file, 'utf8').trim();
    if (secret.length >= 32) return secret;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/**
 * Parse and check the settings once. Throws ConfigError with a one-line explanation
 * when something is missing or invalid. Blank variables count as unset.
 */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const raw: Record<string, string> = {};
  for (const [key, value] of Object.entries(source)) {
    // SITE_PASSWORD="" is meaningful (gate off); any other blank setting means "use the default".
    if (value === undefined) continue;
    if (value === '' && key !== 'SITE_PASSWORD') continue;
    raw[key] = value;
  }
  const parsed = envSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = issue?.path.join('.') ?? 'settings';
    throw new ConfigError(`Invalid setting ${name}: ${issue?.message ?? 'invalid value'}`);
  }
  const env = parsed.data;
  const production = env.NODE_ENV === 'production';

  if (production && !env.SESSION_SECRET) {
    throw new ConfigError('SESSION_SECRET is required when NODE_ENV=production (at least 32 characters)');
  }
  if (production && (env.SITE_PASSWORD === undefined || env.SITE_PASSWORD === DEFAULT_SITE_PASSWORD)) {
    throw new ConfigError(
      'SITE_PASSWORD must be set to your own value when NODE_ENV=production (an empty string turns the gate off)',
    );
  }
  if (env.AI_PROVIDER === 'openai' && !(env.OPENAI_BASE_URL && env.OPENAI_MODEL)) {
    throw new ConfigError('AI_PROVIDER=openai needs OPENAI_BASE_URL and OPENAI_MODEL');
  }
  if (env.GEOCODER === 'nominatim' && !env.NOMINATIM_URL) {
    throw new ConfigError('GEOCODER=nominatim needs NOMINATIM_URL');
  }
  if (Boolean(env.WEB_PUSH_PUBLIC_KEY) !== Boolean(env.WEB_PUSH_PRIVATE_KEY)) {
    throw new ConfigError('Set both WEB_PUSH_PUBLIC_KEY and WEB_PUSH_PRIVATE_KEY, or neither.');
  }
  if (Boolean(env.GOOGLE_CLIENT_ID) !== Boolean(env.GOOGLE_CLIENT_SECRET)) {
    throw new ConfigError('GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together');
  }

  const dataDir = path.resolve(env.DATA_DIR);
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');

  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    photoStorage: env.STORAGE_URL ? parseStorageUrl(env.STORAGE_URL) : { kind: 'local' },
    sessionSecret: env.SESSION_SECRET ?? readOrCreateSecret(dataDir),
    sitePassword: env.SITE_PASSWORD ?? DEFAULT_SITE_PASSWORD,
    publicUrl,
    supportEmail: env.SUPPORT_EMAIL,
    legalEmail: env.LEGAL_EMAIL,
    licensingEmail: env.LICENSING_EMAIL,
    mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM },
    demoLogin: env.DEMO_LOGIN ?? !production,
    seedDemo: env.SEED_DEMO,
    google:
      env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
        ? {
            clientId: env.GOOGLE_CLIENT_ID,
            clientSecret: env.GOOGLE_CLIENT_SECRET,
            issuerUrl: env.GOOGLE_ISSUER_URL,
          }
        : null,
    ai: {
      provider: env.AI_PROVIDER,
      baseUrl: env.OPENAI_BASE_URL,
      apiKey: env.OPENAI_API_KEY,
      model: env.OPENAI_MODEL,
      timeoutMs: env.OPENAI_TIMEOUT_MS,
    },
    geocoder: { provider: env.GEOCODER, nominatimUrl: env.NOMINATIM_URL },
    mapTiles: env.MAP_TILE_URL
      ? {
          urlTemplate: env.MAP_TILE_URL,
          attribution: env.MAP_TILE_ATTRIBUTION,
          origin: mapTileOrigin(env.MAP_TILE_URL) as string,
        }
      : null,
    photoScreening: { enabled: env.PHOTO_SCREENING, threshold: env.PHOTO_SCREENING_THRESHOLD },
    circleFinder: env.CIRCLE_FINDER ?? env.NODE_ENV !== 'test',
    logLevel: env.LOG_LEVEL,
    metricsToken: env.METRICS_TOKEN,
    trustProxy: parseTrustProxy(env.TRUST_PROXY ?? '') ?? false,
    rateLimits: {
      gatePerMinute: env.GATE_RATE_LIMIT,
      loginPerMinute: env.LOGIN_RATE_LIMIT,
      loginPerAccount: env.LOGIN_ACCOUNT_RATE_LIMIT,
      registerPerMinute: env.REGISTER_RATE_LIMIT,
      accountMailPerMinute: env.PASSWORD_RESET_RATE_LIMIT,
      demoLoginPerMinute: env.DEMO_LOGIN_RATE_LIMIT,
      analyzePerMinute: env.ANALYZE_RATE_LIMIT,
      itemCreatePerHour: env.ITEM_CREATE_RATE_LIMIT,
      wantCreatePerHour: env.WANT_CREATE_RATE_LIMIT,
      locationChangesPerHour: env.LOCATION_CHANGE_RATE_LIMIT,
      barterProposalsPerHour: env.BARTER_PROPOSAL_RATE_LIMIT,
      messagesPerTenMinutes: env.MESSAGE_RATE_LIMIT,
    },
    db: {
      poolMax: env.DB_POOL_MAX,
      statementTimeoutMs: env.DB_STATEMENT_TIMEOUT_MS,
      acquireTimeoutMs: env.DB_ACQUIRE_TIMEOUT_MS,
      pgliteSharedBuffersMb: env.PGLITE_SHARED_BUFFERS_MB,
      slowHoldMs: env.DB_SLOW_HOLD_MS,
    },
    loadShedding: {
      dbWaiting: env.SHED_DB_WAITING,
      dbWaitMs: env.SHED_DB_WAIT_MS,
      eventLoopDelayMs: env.SHED_EVENT_LOOP_DELAY_MS,
    },
    requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
    events: {
      streamsPerMember: env.EVENT_STREAMS_PER_MEMBER,
      streamsMax: env.EVENT_STREAMS_MAX,
      heartbeatSeconds: env.EVENT_HEARTBEAT_SECONDS,
    },
    feedCacheSeconds: env.FEED_CACHE_SECONDS,
    feedRankingCacheSeconds: env.FEED_RANKING_CACHE_SECONDS ?? env.FEED_CACHE_SECONDS,
    barterExpirySweepSeconds: env.BARTER_EXPIRY_SWEEP_SECONDS ?? (env.NODE_ENV === 'test' ? 0 : 60),
    swapDayMatchSeconds: env.SWAP_DAY_MATCH_SECONDS,
    staleListings: { days: env.STALE_LISTING_DAYS, graceDays: env.STALE_LISTING_GRACE_DAYS },
    webPush: {
      keys:
        env.WEB_PUSH_PUBLIC_KEY && env.WEB_PUSH_PRIVATE_KEY
          ? { publicKey: env.WEB_PUSH_PUBLIC_KEY, privateKey: env.WEB_PUSH_PRIVATE_KEY }
          : null,
      subject: env.WEB_PUSH_SUBJECT ?? `mailto:${env.SUPPORT_EMAIL}`,
      serviceHosts: env.WEB_PUSH_SERVICE_HOSTS.split(',')
        .map((host) => host.trim().toLowerCase())
        .filter((host) => host.length > 0),
    },
  };
}
