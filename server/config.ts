import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

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
  // Unset: every 60 seconds, off in tests (they run the sweep themselves).
  BARTER_EXPIRY_SWEEP_SECONDS: z.coerce
    .number({ error: 'BARTER_EXPIRY_SWEEP_SECONDS must be a whole number of seconds from 0 to 86400' })
    .int('BARTER_EXPIRY_SWEEP_SECONDS must be a whole number of seconds from 0 to 86400')
    .min(0, 'BARTER_EXPIRY_SWEEP_SECONDS must be a whole number of seconds from 0 to 86400')
    .max(86_400, 'BARTER_EXPIRY_SWEEP_SECONDS must be a whole number of seconds from 0 to 86400')
    .optional(),
  DB_POOL_MAX: positiveInt.default(10),
  DB_STATEMENT_TIMEOUT_MS: positiveInt.default(10_000),
  DB_ACQUIRE_TIMEOUT_MS: positiveInt.default(2_000),
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
  /** How often this process expires due pending barter proposals (ADR 019); 0: never. */
  barterExpirySweepSeconds: number;
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
  };
}
