import type { PeriodicJob } from '../../jobs/jobs-plugin';
import { expireDueCircleProposals } from './circles-service';

/**
 * Trade circles left unanswered for three days dissolve (ADR 029): every member told, the finder
 * asked to look at them again. On the expiry beat (BARTER_EXPIRY_SWEEP_SECONDS), once across
 * processes (ADR 066).
 */
export const circleExpiryJob: PeriodicJob = {
  name: 'circle-expiry',
  seconds: (config) => config.barterExpirySweepSeconds,
  run: async (app) => {
    const circles = await expireDueCircleProposals(app.db);
    if (circles > 0) app.log.info({ circles }, 'expired trade circle proposals');
  },
};
