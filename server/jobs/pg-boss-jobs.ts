/**
 * The job queue on PostgreSQL: pg-boss in its own schema (server/jobs/jobs.ts, ADR 022). Loaded by
 * `openJobs` for PostgreSQL only: the embedded database's start never loads pg-boss or
 * node-postgres (ADR 122).
 */
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import { type DatabaseHandle, inBackground } from '../db/client';
import { nextCronTime } from './cron';
import type {
  JobBacklog,
  JobHandler,
  JobSchedule,
  Jobs,
  QueueOptions,
  ScheduleOptions,
  SendOptions,
  WorkOptions,
} from './jobs';

/** First and longest wait before pg-boss is started again after the database could not be reached. */
const START_RETRY_FIRST_MS = 500;
const START_RETRY_MAX_MS = 30_000;

/** PostgreSQL's deadlock_detected, and how often createQueue tries when it meets one. */
const DEADLOCK = '40P01';
const CREATE_QUEUE_ATTEMPTS = 5;

/** pg-boss in its own schema, on the job queue's own pool (DatabaseHandle.jobQueueSql). */
export class PgBossJobs implements Jobs {
  #boss: PgBoss | null = null;
  readonly #wakers = new Map<string, () => void>();
  readonly #loops: Promise<void>[] = [];
  readonly #started: Promise<void>;
  #stopped = false;
  #retry: NodeJS.Timeout | undefined;
  #wake: (() => void) | undefined;
  /** The queue being created (createQueue makes one at a time). */
  #creating: Promise<void> = Promise.resolve();

  constructor(
    private readonly executeSql: NonNullable<DatabaseHandle['executeSql']>,
    private readonly log: FastifyBaseLogger,
  ) {
    this.#started = this.#start();
    // Nobody may be waiting yet; failures are logged and retried by #start itself.
    this.#started.catch(() => {});
  }

  started(): Promise<void> {
    return this.#started;
  }

  /** Start pg-boss, again and again with a backoff while the database cannot be reached. */
  async #start(): Promise<void> {
    let delay = START_RETRY_FIRST_MS;
    for (;;) {
      if (this.#stopped) throw new Error('the job queue was stopped before it started');
      const boss = new PgBoss({
        db: { executeSql: (text, values) => this.executeSql(text, values) },
        schema: 'pgboss',
        // Schedules (ADR 066): every process watches the clock; one of them, per half minute, sends
        // what is due through pg-boss's own queue, once a minute at most per schedule. Maintenance
        // (expiring stuck jobs, archiving) runs in any process.
        schedule: true,
        supervise: true,
      });
      boss.on('error', (error) => this.log.warn({ err: error }, 'job queue error'));
      try {
        await boss.start();
        this.#boss = boss;
        return;
      } catch (error) {
        this.log.warn({ err: error, retryInMs: delay }, 'could not start the job queue; retrying');
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
          this.#retry = setTimeout(resolve, delay);
          this.#retry.unref();
        });
        delay = Math.min(delay * 2, START_RETRY_MAX_MS);
      }
    }
  }

  get #startedBoss(): PgBoss {
    if (!this.#boss) throw new Error('the job queue has not started');
    return this.#boss;
  }

  /**
   * A new queue is DDL in pg-boss (a partition attached to its job table): two created at once, in
   * this process or another one starting beside it, can deadlock. This process creates one at a
   * time; a deadlock with another process is tried again after a short random wait.
   */
  createQueue(name: string, options: QueueOptions = {}): Promise<void> {
    const create = async () => {
      const boss = this.#startedBoss;
      for (let attempt = 1; ; attempt++) {
        try {
          await boss.createQueue(name, { name, ...options });
          return;
        } catch (error) {
          if ((error as { code?: string }).code !== DEADLOCK || attempt >= CREATE_QUEUE_ATTEMPTS) throw error;
          await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 200));
        }
      }
    };
    const created = this.#creating.then(create, create);
    this.#creating = created.catch(() => {});
    return created;
  }

  async send(name: string, data: object, options: SendOptions = {}): Promise<string | null> {
    const boss = this.#boss;
    if (!boss || this.#stopped) return null;
    const id = await boss.send(name, data, options);
    // Wake this process's worker at once instead of at its next poll.
    if (id) this.#wakers.get(name)?.();
    return id;
  }

  async schedule(
    name: string,
    cron: string,
    data: object = {},
    options: ScheduleOptions = {},
  ): Promise<void> {
    nextCronTime(cron, new Date(), options.tz); // the same check as in process
    await this.#startedBoss.schedule(name, cron, data, options);
  }

  async unschedule(name: string): Promise<void> {
    await this.#startedBoss.unschedule(name);
  }

  async getSchedules(): Promise<JobSchedule[]> {
    const rows = (await this.#startedBoss.getSchedules()) as Array<PgBoss.Schedule & { timezone?: string }>;
    return rows.map(({ name, cron, timezone, data, options }) => ({
      name,
      cron,
      timezone: timezone ?? 'UTC',
      data,
      options,
    }));
  }

  /**
   * Our own fetch, run, complete loop rather than pg-boss's `work`: pg-boss leaves its completion
   * call unawaited, so a database error there (or a pool closed at shutdown) would be an unhandled
   * rejection. Here every call is awaited and errors are logged; `stop` waits for the loop.
   */
  async work<T extends object>(name: string, options: WorkOptions, handler: JobHandler<T>): Promise<void> {
    const boss = this.#startedBoss;
    const interval = Math.max(0.5, options.pollingIntervalSeconds ?? 2) * 1000;
    const worker = { wake: () => {} };
    this.#wakers.set(name, () => worker.wake());
    const loop = async () => {
      while (!this.#stopped) {
        let found = false;
        try {
          const jobs = await boss.fetch<T>(name, { batchSize: options.batchSize ?? 1 });
          found = jobs.length > 0;
          if (found) {
            const ids = jobs.map((job) => job.id);
            try {
              await inBackground(() =>
                handler(jobs.map((job) => ({ id: job.id, name: job.name, data: job.data }))),
              );
              await boss.complete(name, ids);
            } catch (error) {
              this.log.warn({ err: error, job: name }, 'job failed; pg-boss retries it');
              const reason = { message: error instanceof Error ? error.message : String(error) };
              for (const id of ids) await boss.fail(name, id, reason);
            }
          }
        } catch (error) {
          if (!this.#stopped) this.log.warn({ err: error, job: name }, 'job queue unreachable; trying again');
        }
        if (!found && !this.#stopped) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, interval);
            timer.unref();
            worker.wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          worker.wake = () => {};
        }
      }
    };
    this.#loops.push(loop());
  }

  /**
   * One statement on pg-boss's tables: every queue, and its jobs `created` or waiting to be
   * `retry`ed (the states before `active`), read through the index pg-boss keeps for fetching them.
   */
  async backlog(): Promise<JobBacklog[]> {
    if (!this.#boss || this.#stopped) return [];
    const { rows } = await this.executeSql(
      `SELECT q.name AS queue, count(j.id)::int AS pending,
              coalesce(extract(epoch FROM now() - min(j.created_on)), 0)::float8 AS "oldestAgeSeconds"
         FROM pgboss.queue q
         LEFT JOIN pgboss.job j ON j.name = q.name AND j.state < 'active'
        GROUP BY q.name ORDER BY q.name`,
    );
    return rows as JobBacklog[];
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#retry);
    this.#wake?.();
    for (const wake of this.#wakers.values()) wake();
    await Promise.all(this.#loops);
    await this.#boss?.stop({ graceful: true, wait: true, timeout: 10_000 });
  }
}
