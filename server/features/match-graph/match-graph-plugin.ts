import type { FastifyInstance } from 'fastify';
import { periodicJob } from '../../jobs/jobs-plugin';
import { askForCircles, ownItemsInGraph } from '../circles';
import { drainMatchGraph, dropIdleGraphs, relistItemsNow } from './graph-maintenance';

/** The job that applies logged changes to the match graph (one waiting, one running, anywhere). */
export const MATCH_GRAPH_QUEUE = 'match-graph';
/** The job that drops graphs nobody reads any more. */
export const MATCH_GRAPH_IDLE_QUEUE = 'match-graph-idle';
/** The channel the change log's trigger notifies (migration 0011). */
export const MATCH_GRAPH_CHANNEL = 'match_graph';
const IDLE_SWEEP_SECONDS = 60 * 60;

/**
 * Keep the match graph up to date (ADR 022): every process listens for the change log's NOTIFY and
 * asks for a drain; the job queue runs one at a time across processes. A drain is also asked for at
 * start (changes logged while no server ran) and after the listening connection comes back.
 * Graphs nobody reads are dropped hourly, once across processes (a periodic job, ADR 040).
 * Circles may put released items back in the graph within a heal's transaction (ADR 081).
 */
export function matchGraphPlugin(app: FastifyInstance): void {
  ownItemsInGraph({ relist: relistItemsNow });
  let unlisten: (() => Promise<void>) | null = null;
  const drainSoon = () => {
    app.jobs.send(MATCH_GRAPH_QUEUE, {}).catch((error: unknown) => {
      app.log.warn({ err: error }, 'could not ask for a match graph update; the next change will');
    });
  };
  let closing = false;
  const setUp = async () => {
    const { jobs } = app;
    await jobs.started();
    if (closing) return;
    await jobs.createQueue(MATCH_GRAPH_QUEUE, {
      policy: 'stately',
      retryLimit: 10,
      retryDelay: 1,
      retryBackoff: true,
      // A drain takes well under a second; one left active by a process that died must not hold
      // the next one back for pg-boss's default 15 minutes.
      expireInSeconds: 60,
    });
    await jobs.work(MATCH_GRAPH_QUEUE, { pollingIntervalSeconds: 0.5 }, async () => {
      const applied = await drainMatchGraph(app.db);
      if (applied > 0) {
        app.log.debug({ applied }, 'match graph brought up to date');
        // The members it touched were logged for the circle finder (ADR 029).
        askForCircles(app);
      }
    });
    if (closing) return;
    unlisten = await app.database.listen(MATCH_GRAPH_CHANNEL, {
      onNotify: drainSoon,
      onReconnect: drainSoon,
    });
    drainSoon();
  };
  // Not awaited: on PostgreSQL the queue starts once the database answers, and the app serves (and
  // answers 503) meanwhile; changes logged until then are drained when it does.
  app.addHook('onReady', async () => {
    void setUp().catch((error: unknown) => {
      if (!closing) app.log.error({ err: error }, 'the match graph job could not be set up');
    });
  });
  periodicJob(app, {
    name: MATCH_GRAPH_IDLE_QUEUE,
    seconds: IDLE_SWEEP_SECONDS,
    run: async () => {
      try {
        const dropped = await dropIdleGraphs(app.db);
        if (dropped > 0) app.log.info({ dropped }, 'dropped idle match graphs');
      } catch (error) {
        app.log.warn({ err: error }, 'could not drop idle match graphs');
      }
    },
  });
  app.addHook('preClose', async () => {
    closing = true;
    await unlisten?.();
  });
}
