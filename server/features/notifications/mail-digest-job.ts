import type { PeriodicJob } from '../../jobs/jobs-plugin';
import { sendMailDigests } from './mail-digest';

/**
 * The e-mail digests of members who have been away (ADR 026). On the expiry beat
 * (BARTER_EXPIRY_SWEEP_SECONDS), once across processes (ADR 066); each member is claimed, so a run
 * beside another mails them once.
 */
export const mailDigestJob: PeriodicJob = {
  name: 'mail-digests',
  seconds: (config) => config.barterExpirySweepSeconds,
  run: async (app) => {
    const mailed = await sendMailDigests(app);
    if (mailed > 0) app.log.info({ mailed }, 'sent notification digests');
  },
};
