import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { PoolMessage, PoolTaskName, PoolTasks } from './pool-tasks';

/**
 * The server's one pool of worker threads for CPU-bound work (issue 27, ADR 048): trade solving,
 * the circle finder's choice, barcode reading. Piscina underneath; threads start on the first task
 * and end after IDLE_MS without one, so an idle server holds none. Every task has a time limit; a
 * task that throws rejects with its error, a thread that dies or runs past its limit is ended and
 * its task rejects with a WorkerPoolError, and the next task gets a fresh thread. Nothing a task does
 * can end the server.
 */

/** The thread entry: registers tsx in the thread, then loads `pool-tasks.ts` (as ADR 027's screener). */
export const POOL_WORKER_ENTRY = new URL('./pool-worker.mjs', import.meta.url);
/** A thread with nothing to do this long is ended (its memory back to the system). */
export const IDLE_MS = 30_000;
/** A task's time limit unless it says otherwise. */
export const DEFAULT_TASK_TIMEOUT_MS = 60_000;

/**
 * Threads for a machine with `cores` cores: one per core less the main thread's, at least two (a
 * long solve must not hold up a barcode) and at most four (each thread holds its own HiGHS heap).
 */
export function poolSize(cores = availableParallelism()): number {
  return Math.min(4, Math.max(2, cores - 1));
}

/** A task that could not finish in the pool: timed out, aborted, its thread died, or the pool closed. */
export class WorkerPoolError extends Error {
  override name = 'WorkerPoolError';
  constructor(
    message: string,
    readonly reason: 'timeout' | 'aborted' | 'crashed' | 'closed',
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface WorkerPoolOptions {
  /** The thread entry; tests give their own. */
  filename?: URL;
  maxThreads?: number;
  idleMs?: number;
  /** Called with errors no task is waiting for (a thread that failed between tasks). */
  onError?: (error: unknown) => void;
  /**
   * Whether the threads lower themselves below the threads that answer members (ADR 098; the
   * default). False for work a member's request waits on, as the request's own would run (ADR 127).
   */
  lowered?: boolean;
}

/** What a pool's threads are given at start (`workerData`), read by the tasks module. */
export interface PoolThreadData {
  lowered: boolean;
}

export interface RunOptions {
  /** Abort the task after this long (its thread is ended). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** ArrayBuffers to move to the thread instead of copying (the caller loses them). */
  transferList?: ArrayBuffer[];
  /**
   * A task run once in a while (the town index built at start): when it ends and no other task runs
   * or waits, the pool's threads end at once instead of after IDLE_MS, and their memory goes back
   * to the system. The next task starts a fresh thread.
   */
  oneOff?: boolean;
}

/** What `/metrics` reads (ADR 038: gauges read accessors). */
export interface WorkerPoolStats {
  threads: number;
  maxThreads: number;
  /** Tasks waiting for a thread. */
  queued: number;
  /** Tasks running now. */
  running: number;
  completed: number;
}

type Input<K extends PoolTaskName> = Parameters<PoolTasks[K]>[0];
type Output<K extends PoolTaskName> = Awaited<ReturnType<PoolTasks[K]>>;

export class WorkerPool {
  readonly #options: Required<Omit<WorkerPoolOptions, 'onError'>> & Pick<WorkerPoolOptions, 'onError'>;
  #piscina: Piscina<PoolMessage, unknown> | null = null;
  #running = 0;
  #closed = false;

  constructor(options: WorkerPoolOptions = {}) {
    this.#options = {
      filename: options.filename ?? POOL_WORKER_ENTRY,
      maxThreads: options.maxThreads ?? poolSize(),
      idleMs: options.idleMs ?? IDLE_MS,
      onError: options.onError,
      lowered: options.lowered ?? true,
    };
  }

  /** Run a task in a thread; the main thread only sends the input and receives the answer. */
  async run<K extends PoolTaskName>(task: K, input: Input<K>, options: RunOptions = {}): Promise<Output<K>> {
    return (await this.runNamed(task, input, options)) as Output<K>;
  }

  /** Run a task by name, unchecked (tests' own worker files). */
  async runNamed(task: string, input: unknown, options: RunOptions = {}): Promise<unknown> {
    if (this.#closed)
      throw new WorkerPoolError(`the worker pool is closed; task ${task} did not run`, 'closed');
    const timeoutMs = options.timeoutMs ?? DEFAULT_TASK_TIMEOUT_MS;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    this.#running++;
    try {
      return await this.#pool().run({ task, input }, { signal, transferList: options.transferList });
    } catch (error) {
      if (timeout.aborted) {
        throw new WorkerPoolError(
          `task ${task} ran past its ${timeoutMs} ms limit and was stopped`,
          'timeout',
          {
            cause: error,
          },
        );
      }
      if (options.signal?.aborted)
        throw new WorkerPoolError(`task ${task} was aborted`, 'aborted', { cause: error });
      if (this.#closed)
        throw new WorkerPoolError(`the worker pool closed during task ${task}`, 'closed', { cause: error });
      if (isThreadDeath(error)) {
        throw new WorkerPoolError(
          `task ${task} failed: its worker thread died (${messageOf(error)})`,
          'crashed',
          {
            cause: error,
          },
        );
      }
      // The task's own error, as the thread threw it (message and stack; the class becomes Error).
      throw error;
    } finally {
      this.#running--;
      if (options.oneOff && this.#running === 0) this.#endThreads();
    }
  }

  /** Tasks completed by pools whose threads were ended early (`oneOff`), so the count never goes back. */
  #completedBefore = 0;

  /** End every thread now (none has a task); the next task makes a new Piscina. */
  #endThreads(): void {
    const piscina = this.#piscina;
    if (!piscina || this.#closed) return;
    this.#piscina = null;
    this.#completedBefore += piscina.completed;
    piscina.destroy().catch((error: unknown) => this.#options.onError?.(error));
  }

  stats(): WorkerPoolStats {
    const piscina = this.#piscina;
    const threads = piscina?.threads.length ?? 0;
    const running = Math.min(this.#running, threads);
    return {
      threads,
      maxThreads: this.#options.maxThreads,
      queued: this.#running - running,
      running,
      completed: this.#completedBefore + (piscina?.completed ?? 0),
    };
  }

  /** End every thread; waiting and running tasks reject (graceful shutdown, after requests finished). */
  async close(): Promise<void> {
    this.#closed = true;
    const piscina = this.#piscina;
    this.#piscina = null;
    await piscina?.destroy();
  }

  #pool(): Piscina<PoolMessage, unknown> {
    if (!this.#piscina) {
      const piscina = new Piscina<PoolMessage, unknown>({
        filename: fileURLToPath(this.#options.filename),
        minThreads: 0,
        maxThreads: this.#options.maxThreads,
        idleTimeout: this.#options.idleMs,
        workerData: { lowered: this.#options.lowered } satisfies PoolThreadData,
        // Tasks are async (HiGHS loads its WebAssembly): threads wait for work on their event loop.
        atomics: 'disabled',
      });
      // A thread that fails with no task waiting: reported, never thrown (an unhandled 'error' would end the server).
      piscina.on('error', (error: unknown) => this.#options.onError?.(error));
      this.#piscina = piscina;
    }
    return this.#piscina;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Piscina's rejections for a thread that exited or could not run (as opposed to the task's own throw). */
function isThreadDeath(error: unknown): boolean {
  const message = messageOf(error);
  return (
    /worker exited|terminated|Terminating worker thread|ERR_WORKER/i.test(message) ||
    (error as { code?: unknown })?.code === 'ERR_WORKER_OUT_OF_MEMORY'
  );
}

let processPool: WorkerPool | null = null;
/** The process's dedicated pools, by name (`dedicatedPool`). */
const dedicatedPools = new Map<string, WorkerPool>();
/** Where a thread's failure between tasks is reported: the shared pool's `onError`, for every pool. */
let reportThreadError: ((error: unknown) => void) | undefined;

/**
 * The process's pool, shared by every app in it (tests build several); made on first use, with
 * `options` when they are the first to ask (server/main.ts gives the logger).
 */
export function workerPool(options?: WorkerPoolOptions): WorkerPool {
  processPool ??= new WorkerPool(options);
  reportThreadError ??= options?.onError;
  return processPool;
}

/**
 * A pool of its own, for one kind of short, frequent task that must never wait behind the shared
 * pool's long ones (a sign-in's password check behind a swap day's solve, ADR 120): the same tasks
 * module, its own `maxThreads`; its threads lowered (ADR 098) unless `lowered` is false (a photo's
 * barcode read, which its member waits on beside the text read, ADR 127). Made on first use by
 * `name` (the first call's options hold); `closeWorkerPool` ends it with the shared one.
 */
export function dedicatedPool(
  name: string,
  maxThreads: number,
  options: Pick<WorkerPoolOptions, 'lowered'> = {},
): WorkerPool {
  let pool = dedicatedPools.get(name);
  if (!pool) {
    pool = new WorkerPool({ maxThreads, ...options, onError: (error) => reportThreadError?.(error) });
    dedicatedPools.set(name, pool);
  }
  return pool;
}

/** Run a task in the process's pool. */
export function runInPool<K extends PoolTaskName>(
  task: K,
  input: Input<K>,
  options?: RunOptions,
): Promise<Output<K>> {
  return workerPool().run(task, input, options);
}

/** The process's pool's figures for `/metrics`, without making the pool (all 0 threads until a task). */
export function workerPoolStats(): WorkerPoolStats {
  return processPool?.stats() ?? { threads: 0, maxThreads: poolSize(), queued: 0, running: 0, completed: 0 };
}

/** Close the process's pools (graceful shutdown); a later task makes a new one. */
export async function closeWorkerPool(): Promise<void> {
  const pools = [processPool, ...dedicatedPools.values()];
  processPool = null;
  dedicatedPools.clear();
  await Promise.all(pools.map((pool) => pool?.close()));
}
