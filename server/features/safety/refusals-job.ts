import type { PeriodicJob } from '../../jobs/jobs-plugin';
import { forgetOldRefusals } from './refusals';

/**
 * Moderation refusals older than their kept days are forgotten. On the expiry beat
 * (BARTER_EXPIRY_SWEEP_SECONDS), once across processes (ADR 066).
 */
export const refusalsJob: PeriodicJob = {
  name: 'refusals-forget',
  seconds: (config) => config.barterExpirySweepSeconds,
  run: async (app) => {
    const forgotten = await forgetOldRefusals(app.db);
    if (forgotten > 0) app.log.info({ forgotten }, 'forgot old moderation refusals');
  },
};
