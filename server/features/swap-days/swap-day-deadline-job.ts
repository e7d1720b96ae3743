import type { PeriodicJob } from '../../jobs/jobs-plugin';
import { sweepSwapDays } from './swap-day-match';

/**
 * Swap days whose want lists closed go to the match job (ADR 030, 050), never solved here. On the
 * expiry beat (BARTER_EXPIRY_SWEEP_SECONDS), once across processes (ADR 066).
 */
export const swapDayDeadlineJob: PeriodicJob = {
  name: 'swap-day-deadlines',
  seconds: (config) => config.barterExpirySweepSeconds,
  run: async (app) => {
    const closed = await sweepSwapDays(app);
    if (closed > 0) app.log.info({ closed }, 'closed want lists of swap days');
  },
};
