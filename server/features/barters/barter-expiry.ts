import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { publishMemberEvents } from '../../events/publish';
import { periodicJob } from '../../jobs/jobs-plugin';
import { expireDueCircleProposals } from '../circles/circles-service';
import { sendMailDigests } from '../notifications/mail-digest';
import { notifyMember } from '../notifications/notify';
import { liftEndedSuspensions } from '../safety/moderation-service';
import { forgetOldRefusals } from '../safety/refusals';
import { sweepSwapDays } from '../swap-days/swap-day-match';
import { expireDue } from './barters-repository';
import { barterEvents } from './barters-service';

/** Requests expired per transaction; a backlog is worked off batch by batch. */
export const EXPIRY_BATCH = 200;

/**
 * Mark every pending proposal whose 14 days are over at `now` expired, and tell both members (bell
 * and pages), a batch per transaction. Idempotent, and safe while other processes run it too: each
 * request is marked, and its members notified, once. How many were expired.
 */
export async function expireDueProposals(
  db: Db,
  now: Date = new Date(),
  batch = EXPIRY_BATCH,
): Promise<number> {
  let total = 0;
  for (;;) {
    const expired = await db.transaction(async (tx) => {
      const rows = await expireDue(tx, now, batch);
      for (const row of rows) {
        for (const userId of new Set([row.fromUserId, row.toUserId])) {
          if (userId) {
            await notifyMember(tx, {
              userId,
              kind: 'proposal_expired',
              barterRequestId: row.id,
              actorId: null,
            });
          }
        }
      }
      await publishMemberEvents(tx, barterEvents(rows));
      return rows.length;
    });
    total += expired;
    if (expired < batch) return total;
  }
}

/** The periodic sweep's job (jobs-plugin.ts: once per period across processes). */
export const BARTER_SWEEP_JOB = 'barter-sweep';

/**
 * Run expireDueProposals every BARTER_EXPIRY_SWEEP_SECONDS while the app runs, once per period
 * across every server process (a periodic job, ADR 040); off when the setting is 0 (tests). Members
 * never depend on it: a pending request past its expiry already reads as expired and refuses every
 * action but messages; the sweep makes it so in the database and tells both members.
 */
export function barterExpirySweep(app: FastifyInstance): void {
  periodicJob(app, {
    name: BARTER_SWEEP_JOB,
    seconds: app.config.barterExpirySweepSeconds,
    run: async () => {
      try {
        const count = await expireDueProposals(app.db);
        if (count > 0) app.log.info({ count }, 'expired pending barter proposals');
        // Trade circles left unanswered for three days dissolve on the same beat (ADR 029).
        const circles = await expireDueCircleProposals(app.db);
        if (circles > 0) app.log.info({ circles }, 'expired trade circle proposals');
        // Suspensions whose days are over end on the same beat (ADR 025): listings show again.
        const lifted = await liftEndedSuspensions(app.db);
        if (lifted > 0) app.log.info({ lifted }, 'lifted ended suspensions');
        // And the e-mail digests of members who have been away (ADR 026).
        const mailed = await sendMailDigests(app);
        if (mailed > 0) app.log.info({ mailed }, 'sent notification digests');
        await forgetOldRefusals(app.db);
        // Swap days whose want lists closed go to the match job (ADR 030, 050): never solved here.
        const closed = await sweepSwapDays(app);
        if (closed > 0) app.log.info({ closed }, 'closed want lists of swap days');
      } catch (error) {
        app.log.warn({ err: error }, 'barter expiry sweep failed; retrying later');
      }
    },
  });
}
