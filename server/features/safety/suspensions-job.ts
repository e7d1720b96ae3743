import type { PeriodicJob } from '../../jobs/jobs-plugin';
import { liftEndedSuspensions } from './moderation-service';

/**
 * Suspensions whose days are over end (ADR 025): the member's listings show again. On the expiry
 * beat (BARTER_EXPIRY_SWEEP_SECONDS), once across processes (ADR 066).
 */
export const suspensionsJob: PeriodicJob = {
  name: 'suspensions-lift',
  seconds: (config) => config.barterExpirySweepSeconds,
  run: async (app) => {
    const lifted = await liftEndedSuspensions(app.db);
    if (lifted > 0) app.log.info({ lifted }, 'lifted ended suspensions');
  },
};
