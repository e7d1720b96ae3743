import type { RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyContextConfig, FastifyRequest } from 'fastify';
import { tooManyRequests } from '../errors';

const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;

/** Distinct members remembered per limited route (an LRU): far more than are active in one window. */
const MEMBERS_REMEMBERED = 20_000;

export interface MemberRateLimit {
  /** Names the counter; routes sharing a name would still count apart (one store per route). */
  name: string;
  /** Requests allowed per window; the next one answers 429. */
  max: number;
  /** Window length in milliseconds (default an hour); the count starts at the member's first request. */
  windowMs?: number;
  /** What is being limited, for the message: "new items" gives "Too many new items: ...". */
  what: string;
}

/** "an hour", "a minute", "per 15 minutes": the window as the 429 message says it ("at most 5 an hour"). */
function windowText(ms: number): string {
  if (ms === HOUR_MS) return 'an hour';
  if (ms === MINUTE_MS) return 'a minute';
  if (ms % HOUR_MS === 0) return `per ${ms / HOUR_MS} hours`;
  return `per ${Math.max(1, Math.round(ms / MINUTE_MS))} minutes`;
}

/** "30 seconds", "1 minute", "42 minutes": how long until the window resets. */
function waitText(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/**
 * Route `config` for a per-member rate limit (issue 12 point 6): at most `max` requests per window
 * per signed-in member, keyed by member id so one account cannot flood from many addresses and
 * neighbours behind one address do not share a budget. Checked in onRequest, after the member
 * scope's guard has loaded the member and before the body is read, so a flood costs no parsing and
 * no work beyond counting it. Over the limit: 429 RATE_LIMITED with `Retry-After` (seconds) and a sentence
 * saying how long to wait. Signed-out requests are not counted here (the scope answers them 401).
 *
 * Counters are shared by every process on PostgreSQL, in this process (an LRU per route) on PGlite
 * (server/plugins/rate-limit-store.ts, ADR 044).
 */
export function memberRateLimit(limit: MemberRateLimit): FastifyContextConfig {
  const windowMs = limit.windowMs ?? HOUR_MS;
  const rateLimit: RateLimitOptions = {
    max: limit.max,
    timeWindow: windowMs,
    cache: MEMBERS_REMEMBERED,
    // request.user, not request.member: the getter throws for signed-out callers.
    allowList: (request: FastifyRequest) => request.user === null,
    keyGenerator: (request: FastifyRequest) => `${limit.name}:${request.user?.id ?? ''}`,
    errorResponseBuilder: (_request, context) =>
      tooManyRequests(
        `Too many ${limit.what}: at most ${context.max} ${windowText(windowMs)}. ` +
          `Please try again in ${waitText(context.ttl)}.`,
      ),
  };
  return { rateLimit };
}
