import type { FastifyBaseLogger } from 'fastify';
import { type DatabaseHandle, inBackground } from '../db/client';
import { nextCronTime } from './cron';

/**
 * Background work off the request path, one mechanism on both databases (ADR 022):
 *
 * - PostgreSQL: pg-boss, a maintained PostgreSQL-backed queue, on the app's own pool. Jobs survive
 *   a restart, run once whichever process takes them (SKIP LOCKED), are retried, and a `stately`
 *   queue keeps at most one job waiting and one running, so every process may ask for the same
 *   work at once.
 * - PGlite (one process by construction, the data directory is locked): InProcessJobs, the same
 *   calls and the same queue policies in memory. What the work reads must already be durable (the
 *   match graph's change log is a table), so nothing is lost with the process.
 *
 * The calls are the subset of pg-boss's API the app uses, with pg-boss's names and meanings.
 */
export interface Jobs {
  /**
   * Resolves once the queue can be used (PostgreSQL: pg-boss started, retried in the background
   * while the database cannot be reached, so the app starts and answers 503 meanwhile).
   */
  started(): Promise<void>;
  createQueue(name: string, options?: QueueOptions): Promise<void>;
  /**
   * Queue a job; null when the queue's policy already has one waiting (stately), or, with
   * `singletonSeconds`, when one was already sent in this slot of that many seconds (by the
   * database's clock, so across processes: what makes periodic work run once, jobs-plugin.ts).
   */
  send(name: string, data: object, options?: SendOptions): Promise<string | null>;
  /** Run `handler` for the queue's jobs in this process, a batch at a time. */
  work<T extends object>(name: string, options: WorkOptions, handler: JobHandler<T>): Promise<void>;
  /**
   * Send a job to the queue at every time `cron` names (five fields: minute, hour, day of month,
   * month, day of week; in `options.tz`, UTC by default), with `data` and `options` as `send` would,
   * once across every process (pg-boss's `schedule`: the schedule is a row, one per queue, replaced
   * by the next call; at most one send a minute). The queue must exist. Stays until `unschedule`.
   */
  schedule(name: string, cron: string, data?: object, options?: ScheduleOptions): Promise<void>;
  /** Send no more jobs on the queue's schedule (none: nothing to do). */
  unschedule(name: string): Promise<void>;
  /** The schedules, one per queue. */
  getSchedules(): Promise<JobSchedule[]>;
  /** Stop taking jobs and wait for the running ones. */
  stop(): Promise<void>;
  /**
   * The jobs waiting to run, per queue (0 for an empty one): how many, and how long ago the oldest
   * was sent (the metrics). Empty while the queue has not started.
   */
  backlog(): Promise<JobBacklog[]>;
}

/** The waiting jobs of one queue. */
export interface JobBacklog {
  queue: string;
  pending: number;
  /** Seconds since the oldest waiting job was sent (a retried job counts from its first send); 0 when none. */
  oldestAgeSeconds: number;
}

export interface QueueOptions {
  /** standard: every job; stately: at most one waiting and one running. */
  policy?: 'standard' | 'stately';
  retryLimit?: number;
  retryDelay?: number;
  retryBackoff?: boolean;
  /**
   * PostgreSQL: a job still active after this long (its process died, or lost the database before
   * completing it) is failed and retried by pg-boss's maintenance; on a stately queue it holds the
   * next run back until then.
   */
  expireInSeconds?: number;
}

export interface SendOptions {
  /** PostgreSQL: at most one job of the queue per slot of this many seconds, across processes. */
  singletonSeconds?: number;
}

export interface ScheduleOptions extends SendOptions {
  /** The time zone the cron is read in (an IANA name); UTC by default. */
  tz?: string;
}

/** A queue's schedule, as pg-boss's `getSchedules` lists it. */
export interface JobSchedule {
  name: string;
  cron: string;
  timezone: string;
  data?: object | null;
  options?: ScheduleOptions | null;
}

export interface WorkOptions {
  batchSize?: number;
  /** PostgreSQL: how often an idle worker looks for work (pg-boss's minimum is 0.5). */
  pollingIntervalSeconds?: number;
}

export interface Job<T> {
  id: string;
  name: string;
  data: T;
}

export type JobHandler<T> = (jobs: Job<T>[]) => Promise<void>;

/**
 * The job queue for this database: pg-boss on PostgreSQL, in process on PGlite; starting (see
 * `started`). pg-boss (and node-postgres under it) loads only for PostgreSQL (ADR 122).
 */
export async function openJobs(database: DatabaseHandle, log: FastifyBaseLogger): Promise<Jobs> {
  if (database.kind === 'postgres' && database.jobQueueSql) {
    const { PgBossJobs } = await import('./pg-boss-jobs');
    return new PgBossJobs(database.jobQueueSql, log);
  }
  return new InProcessJobs(log);
}

interface Queue {
  options: QueueOptions;
  /** `sentAt`: Date.now() when the job was first sent (kept through retries). */
  waiting: Array<Job<object> & { attempt: number; sentAt: number }>;
  running: Promise<void> | null;
  handler: { options: WorkOptions; run: JobHandler<object> } | null;
}

/** setTimeout's longest wait (about 24.8 days). */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** The same calls in memory, for the embedded database's single process. */
export class InProcessJobs implements Jobs {
  readonly #queues = new Map<string, Queue>();
  readonly #timers = new Set<NodeJS.Timeout>();
  /** Each queue's schedule and the timer set for its next time. */
  readonly #schedules = new Map<string, JobSchedule & { timer: NodeJS.Timeout }>();
  #nextId = 1;
  #stopped = false;

  constructor(private readonly log: FastifyBaseLogger) {}

  async started(): Promise<void> {}

  async createQueue(name: string, options: QueueOptions = {}): Promise<void> {
    if (!this.#queues.has(name))
      this.#queues.set(name, { options, waiting: [], running: null, handler: null });
  }

  /** One process: `singletonSeconds` has nothing to add to the queue's policy. */
  async send(name: string, data: object, _options?: SendOptions): Promise<string | null> {
    const queue = this.#queue(name);
    if (this.#stopped) return null;
    if (queue.options.policy === 'stately' && queue.waiting.length > 0) return null;
    const id = String(this.#nextId++);
    queue.waiting.push({ id, name, data, attempt: 0, sentAt: Date.now() });
    this.#pump(queue);
    return id;
  }

  async work<T extends object>(name: string, options: WorkOptions, handler: JobHandler<T>): Promise<void> {
    const queue = this.#queue(name);
    queue.handler = { options, run: handler as JobHandler<object> };
    this.#pump(queue);
  }

  /** The queues' waiting jobs (a job whose retry is scheduled counts again once it is due). */
  async backlog(): Promise<JobBacklog[]> {
    const now = Date.now();
    return [...this.#queues]
      .map(([name, queue]) => ({
        queue: name,
        pending: queue.waiting.length,
        oldestAgeSeconds:
          queue.waiting.length === 0 ? 0 : (now - Math.min(...queue.waiting.map((job) => job.sentAt))) / 1000,
      }))
      .sort((a, b) => a.queue.localeCompare(b.queue));
  }

  /** One process: a timer to the cron's next time sends the job, then waits for the time after. */
  async schedule(
    name: string,
    cron: string,
    data: object = {},
    options: ScheduleOptions = {},
  ): Promise<void> {
    this.#queue(name);
    const timezone = options.tz ?? 'UTC';
    const first = nextCronTime(cron, new Date(), timezone);
    await this.unschedule(name);
    if (this.#stopped) return;
    const arm = (at: Date): NodeJS.Timeout => {
      const timer = setTimeout(
        () => {
          const entry = this.#schedules.get(name);
          if (entry?.timer !== timer) return;
          // A timer waits at most about 24 days: a later time is waited for again.
          if (Date.now() < at.getTime()) {
            entry.timer = arm(at);
            return;
          }
          this.send(name, data, options).catch((error: unknown) => {
            this.log.warn({ err: error, job: name }, 'could not send a scheduled job');
          });
          // After a sleep of the machine, the next time from now: the missed ones are not made up.
          entry.timer = arm(nextCronTime(cron, new Date(Math.max(at.getTime(), Date.now())), timezone));
        },
        Math.min(Math.max(0, at.getTime() - Date.now()), LONGEST_TIMER_MS),
      );
      timer.unref();
      return timer;
    };
    this.#schedules.set(name, { name, cron, timezone, data, options, timer: arm(first) });
  }

  async unschedule(name: string): Promise<void> {
    clearTimeout(this.#schedules.get(name)?.timer);
    this.#schedules.delete(name);
  }

  async getSchedules(): Promise<JobSchedule[]> {
    return [...this.#schedules.values()].map(({ timer: _timer, ...schedule }) => schedule);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    for (const name of [...this.#schedules.keys()]) await this.unschedule(name);
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    await Promise.all([...this.#queues.values()].map((queue) => queue.running));
  }

  #queue(name: string): Queue {
    const queue = this.#queues.get(name);
    if (!queue) throw new Error(`job queue ${name} was not created`);
    return queue;
  }

  /** Run waiting jobs one batch at a time (stately: one running), retrying failures later. */
  #pump(queue: Queue): void {
    const handler = queue.handler;
    if (this.#stopped || !handler || queue.running || queue.waiting.length === 0) return;
    const batch = queue.waiting.splice(0, handler.options.batchSize ?? 1);
    queue.running = (async () => {
      try {
        // Behind every member's request for the embedded database's one connection (ADR 098).
        await inBackground(() => handler.run(batch.map(({ id, name, data }) => ({ id, name, data }))));
      } catch (error) {
        this.#retry(queue, batch, error);
      } finally {
        queue.running = null;
        setImmediate(() => this.#pump(queue));
      }
    })();
  }

  #retry(queue: Queue, batch: Queue['waiting'], error: unknown): void {
    const { retryLimit = 2, retryDelay = 0, retryBackoff = false } = queue.options;
    for (const job of batch) {
      if (job.attempt >= retryLimit) {
        this.log.error({ err: error, job: job.name }, 'job failed for good');
        continue;
      }
      this.log.warn({ err: error, job: job.name, attempt: job.attempt + 1 }, 'job failed; retrying');
      const delaySeconds = retryBackoff ? retryDelay * 2 ** job.attempt : retryDelay;
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        if (queue.options.policy === 'stately' && queue.waiting.length > 0) return;
        queue.waiting.push({ ...job, attempt: job.attempt + 1 });
        this.#pump(queue);
      }, delaySeconds * 1000);
      timer.unref();
      this.#timers.add(timer);
    }
  }
}
