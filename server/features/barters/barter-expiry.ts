import type { Db } from '../../db/client';
import { publishMemberEvents } from '../../events/publish';
import type { PeriodicJob } from '../../jobs/jobs-plugin';
import { notifyMember } from '../notifications';
import { barterEvents } from './barters-service';
import { expireDue } from './requests-repository';

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

/**
 * Expire due proposals every BARTER_EXPIRY_SWEEP_SECONDS, once across every server process (a
 * periodic job, ADR 040, 066); off when the setting is 0 (tests). Members never depend on it: a
 * pending request past its expiry already reads as expired and refuses every action but messages;
 * the job makes it so in the database and tells both members.
 */
export const barterExpiryJob: PeriodicJob = {
  name: 'barter-expiry',
  seconds: (config) => config.barterExpirySweepSeconds,
  run: async (app) => {
    const count = await expireDueProposals(app.db);
    if (count > 0) app.log.info({ count }, 'expired pending barter proposals');
  },
};
