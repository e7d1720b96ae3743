import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { periodicJob } from '../../jobs/jobs-plugin';
import { ownHandOverCircles } from '../barters';
import { circleOfHandOvers } from './circle-legs';
import { markCircleChanges, takeCircleChanges } from './circles-repository';
import { dissolveBrokenCircles, findAndPropose } from './circles-service';

/** The job that looks for circles through members whose matches changed (ADR 029). */
export const CIRCLES_QUEUE = 'circles';
/** The hourly job that looks at the whole graph (changes no log records: travel distance, unblocks). */
export const CIRCLES_FULL_QUEUE = 'circles-full';
const FULL_RUN_SECONDS = 60 * 60;
/** Members taken per run of the incremental finder. */
export const CIRCLE_CHANGES_BATCH = 500;

/**
 * Work off the circle change log: a batch of members at a time, their broken proposed circles
 * dissolved, then circles through them found and proposed. A batch that fails is logged again for
 * the retry. How many members were looked at.
 */
export async function drainCircleChanges(db: Db, batch = CIRCLE_CHANGES_BATCH): Promise<number> {
  let total = 0;
  for (;;) {
    const members = await db.transaction((tx) => takeCircleChanges(tx, batch));
    if (members.length === 0) return total;
    try {
      await dissolveBrokenCircles(db, members);
      await findAndPropose(db, members);
    } catch (error) {
      await markCircleChanges(db, members);
      throw error;
    }
    total += members.length;
    if (members.length < batch) return total;
  }
}

/** The apps whose circle finder works its queue (circlesPlugin's set-up has created and worked it). */
const findersWorking = new WeakSet<FastifyInstance>();

/**
 * Ask for a run of the incremental finder (after the match graph moved). Only the circles plugin
 * creates the finder's queue (ADR 053): until it has, nothing is sent (the members to look at are in
 * the durable change log, and the plugin asks for a run itself once its worker is in place). The
 * match graph's first drain at start used to send here first, and the queue refused it.
 */
export function askForCircles(app: FastifyInstance): void {
  if (!app.config.circleFinder || !findersWorking.has(app)) return;
  app.jobs.send(CIRCLES_QUEUE, {}).catch((error: unknown) => {
    app.log.warn({ err: error }, 'could not ask for the circle finder; the next change will');
  });
}

/**
 * Circles at start: they answer barters for the circles of hand-overs (what a cancelled or completed
 * hand-over does to its circle, who talks in its conversation: ADR 065), always. And they run the
 * circle finder in the background (CIRCLE_FINDER, on unless testing): after every match graph
 * update, on the members it touched, one run at a time across processes; and over the whole graph
 * once an hour, once across processes (a periodic job, ADR 040).
 */
export function circlesPlugin(app: FastifyInstance): void {
  ownHandOverCircles(circleOfHandOvers);
  if (!app.config.circleFinder) return;
  let closing = false;
  const setUp = async () => {
    const { jobs } = app;
    await jobs.started();
    if (closing) return;
    await jobs.createQueue(CIRCLES_QUEUE, {
      policy: 'stately',
      retryLimit: 10,
      retryDelay: 1,
      retryBackoff: true,
      expireInSeconds: 120,
    });
    await jobs.work(CIRCLES_QUEUE, { pollingIntervalSeconds: 0.5 }, async () => {
      const members = await drainCircleChanges(app.db);
      if (members > 0) app.log.debug({ members }, 'looked for trade circles');
    });
    if (closing) return;
    findersWorking.add(app);
    // Members logged before this point (the match graph's first drain, changes from before a restart).
    askForCircles(app);
  };
  app.addHook('onReady', async () => {
    void setUp().catch((error: unknown) => {
      if (!closing) app.log.error({ err: error }, 'the circle finder could not be set up');
    });
  });
  periodicJob(app, {
    name: CIRCLES_FULL_QUEUE,
    seconds: FULL_RUN_SECONDS,
    expireInSeconds: 600,
    run: async () => {
      try {
        const run = await findAndPropose(app.db, null);
        if (run.proposed.length > 0)
          app.log.info({ proposed: run.proposed.length }, 'proposed trade circles');
      } catch (error) {
        app.log.warn({ err: error }, 'the hourly circle finder failed; the next hour runs it again');
      }
    },
  });
  app.addHook('preClose', async () => {
    closing = true;
  });
}
