import type { FastifyInstance } from 'fastify';
import { type Jobs, openJobs } from './jobs';

declare module 'fastify' {
  interface FastifyInstance {
    /** Background jobs (server/jobs/jobs.ts): pg-boss on PostgreSQL, in process on PGlite. */
    jobs: Jobs;
  }
}

/** Open the job queue for the app's database (starting; stopped, waiting for running jobs, at close). */
export function jobsPlugin(app: FastifyInstance): void {
  const jobs = openJobs(app.database, app.log);
  app.decorate('jobs', jobs);
  app.addHook('onClose', () => jobs.stop());
}

/** pg-boss refuses singleton slots longer than its archive interval (12 hours by default). */
const LONGEST_SLOT_SECONDS = 12 * 60 * 60;

export interface PeriodicJob {
  /** The job's queue (its rows in pgboss.job on PostgreSQL). */
  name: string;
  /** How often it runs, in whole seconds; 0 or less: never. */
  seconds: number;
  /** PostgreSQL: how long a run may stay active before it counts as failed (its process died). */
  expireInSeconds?: number;
  /** The work; it logs its own failures (the next period runs it again). */
  run(): Promise<void>;
}

/**
 * Work that runs every `seconds` once across every server process, not once per process (issue 18,
 * ADR 040). Each process sends the job on its own timer with a singleton slot of `seconds`, counted
 * by the database's clock: pg-boss keeps one job per slot, so any number of processes make one run
 * per period, taken by whichever process fetches it, and a stately queue never runs two at once.
 * On PGlite (one process) the same timer sends into the in-process queue. The first run comes one
 * period after start, as with a plain interval.
 */
export function periodicJob(app: FastifyInstance, job: PeriodicJob): void {
  const seconds = Math.round(job.seconds);
  if (seconds <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  let closing = false;
  const setUp = async () => {
    const { jobs } = app;
    await jobs.started();
    if (closing) return;
    await jobs.createQueue(job.name, {
      policy: 'stately',
      retryLimit: 0,
      expireInSeconds: job.expireInSeconds ?? 600,
    });
    // This process's own send wakes its worker; polling is for jobs another process sent.
    await jobs.work(job.name, { pollingIntervalSeconds: Math.min(60, seconds) }, () => job.run());
    if (closing) return;
    timer = setInterval(() => {
      jobs
        .send(job.name, {}, { singletonSeconds: Math.min(seconds, LONGEST_SLOT_SECONDS) })
        .catch((error: unknown) => {
          app.log.warn({ err: error, job: job.name }, 'could not queue a periodic job; the next period will');
        });
    }, seconds * 1000);
    timer.unref();
  };
  // Not awaited: on PostgreSQL the queue starts once the database answers.
  app.addHook('onReady', async () => {
    void setUp().catch((error: unknown) => {
      if (!closing) app.log.error({ err: error, job: job.name }, 'a periodic job could not be set up');
    });
  });
  app.addHook('preClose', async () => {
    closing = true;
    clearInterval(timer);
  });
}
