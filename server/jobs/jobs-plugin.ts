import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import { cronEvery } from './cron';
import { type Jobs, openJobs } from './jobs';

declare module 'fastify' {
  interface FastifyInstance {
    /** Background jobs (server/jobs/jobs.ts): pg-boss on PostgreSQL, in process on PGlite. */
    jobs: Jobs;
  }
}

/** Open the job queue for the app's database (starting; stopped, waiting for running jobs, at close). */
export async function jobsPlugin(app: FastifyInstance): Promise<void> {
  const jobs = await openJobs(app.database, app.log);
  app.decorate('jobs', jobs);
  app.addHook('onClose', () => jobs.stop());
}

export interface PeriodicJob {
  /** The job's queue (its rows in pgboss.job, and its schedule in pgboss.schedule, on PostgreSQL). */
  name: string;
  /**
   * How often it runs, in seconds: 0 (never) or a period a clock keeps (server/jobs/cron.ts: whole
   * minutes dividing an hour, or hours dividing a day), given or read from the settings.
   */
  seconds: number | ((config: Config) => number);
  /** PostgreSQL: how long a run may stay active before it counts as failed (its process died). */
  expireInSeconds?: number;
  /** The work; a failure is logged, and the next time runs it again. */
  run(app: FastifyInstance): Promise<void>;
}

/** How long a periodic job whose setting up failed waits before trying again. */
const SET_UP_RETRY_MS = 60_000;

/**
 * Work that runs every `seconds` once across every server process, not once per process (ADR 040,
 * 066): a stately queue with a schedule (`jobs.schedule`, a cron counted from midnight UTC). On
 * PostgreSQL the schedule is pg-boss's: one row per job, which every process starting writes again
 * and one process at a time sends from, at most once a minute; the job is taken by whichever
 * process fetches it, never two at once. On PGlite (one process) the in-process queue keeps the same
 * schedule with a timer. A job whose period is 0 is unscheduled (the row an earlier start wrote
 * goes) and not worked. The first run comes at the schedule's next time after start.
 */
export function periodicJob(app: FastifyInstance, job: PeriodicJob): void {
  const seconds = typeof job.seconds === 'number' ? job.seconds : job.seconds(app.config);
  const cron = cronEvery(seconds);
  let closing = false;
  let working = false;
  let retry: NodeJS.Timeout | undefined;
  const setUp = async () => {
    const { jobs } = app;
    await jobs.started();
    if (closing) return;
    if (!cron) {
      await jobs.unschedule(job.name);
      return;
    }
    await jobs.createQueue(job.name, {
      policy: 'stately',
      retryLimit: 0,
      expireInSeconds: job.expireInSeconds ?? 600,
    });
    // Another process may send the job (PostgreSQL): look for it a few times a period.
    if (!working) {
      await jobs.work(job.name, { pollingIntervalSeconds: Math.min(60, seconds / 4) }, async () => {
        try {
          await job.run(app);
        } catch (error) {
          app.log.warn({ err: error, job: job.name }, 'a periodic job failed; its next time runs it again');
        }
      });
      working = true;
    }
    if (closing) return;
    await jobs.schedule(job.name, cron);
  };
  // Tried until it is set up (a busy or unreachable database at start), once a minute.
  const trySetUp = () => {
    setUp().catch((error: unknown) => {
      if (closing) return;
      app.log.error(
        { err: error, job: job.name },
        'a periodic job could not be set up; trying again in a minute',
      );
      retry = setTimeout(trySetUp, SET_UP_RETRY_MS);
      retry.unref();
    });
  };
  // Not awaited: on PostgreSQL the queue starts once the database answers.
  app.addHook('onReady', async () => {
    trySetUp();
  });
  app.addHook('preClose', async () => {
    closing = true;
    clearTimeout(retry);
  });
}

/** Register each of `jobs` (periodicJob): the periodic work of the features that own it. */
export function periodicJobs(app: FastifyInstance, jobs: readonly PeriodicJob[]): void {
  for (const job of jobs) periodicJob(app, job);
}
