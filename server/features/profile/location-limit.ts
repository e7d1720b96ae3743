import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ProfileInput } from '#common/schemas/profile.ts';
import type { UserRow } from '../../db/schema/users';
import { tooManyRequests } from '../../errors';

const HOUR_MS = 60 * 60 * 1000;
/** Coordinates are stored to 8 decimals (numeric(10, 8) and (11, 8)): compare at that precision. */
const STORED_SCALE = 1e8;

const stored = (value: number | null | undefined) =>
  value == null ? null : Math.round(Number(value) * STORED_SCALE);

/** True when saving `input` would change the member's stored coordinates (setting, moving or clearing them). */
export function changesCoordinates(
  member: Pick<UserRow, 'latitude' | 'longitude'>,
  input: Pick<ProfileInput, 'latitude' | 'longitude'>,
): boolean {
  return (
    stored(member.latitude) !== stored(input.latitude) || stored(member.longitude) !== stored(input.longitude)
  );
}

/** "1 minute", "42 minutes": how long until the member may move again. */
function minutesText(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/**
 * A preHandler limiting how often one member may change their coordinates
 * (LOCATION_CHANGE_RATE_LIMIT an hour, counted per member id, only for saves that change them).
 * Distances others see come from public points already (server/geo/README.md); this brake also
 * makes probing one's own position against others' slow. Over the limit: 429 RATE_LIMITED with
 * `Retry-After`, before anything is written. Counters live in this process, like the other limits.
 */
export function locationChangeLimit(
  app: FastifyInstance,
): (request: FastifyRequest<{ Body: ProfileInput }>, reply: FastifyReply) => Promise<void> {
  const max = app.config.rateLimits.locationChangesPerHour;
  const limit = app.createRateLimit({
    max,
    timeWindow: HOUR_MS,
    keyGenerator: (request) => `location:${request.member.id}`,
  });
  return async (request, reply) => {
    if (!changesCoordinates(request.member, request.body)) return;
    const result = await limit(request);
    if (!result.isAllowed && result.isExceeded) {
      reply.header('retry-after', String(result.ttlInSeconds));
      throw tooManyRequests(
        `You can change your location at most ${max} times an hour. ` +
          `Please try again in ${minutesText(result.ttlInSeconds)}.`,
      );
    }
  };
}
