import os from 'node:os';
import { ERROR_CODES } from '#common/error-codes.ts';
import { HttpError } from '../errors';

/**
 * A place in the photo queue. It is taken when a request that carries a photo arrives (before its
 * body is read, so the queue also bounds the memory held by uploads in flight) and given back when
 * its photo is stored, or when the request ends without one.
 */
export interface PhotoTicket {
  /**
   * Run `work` (decoding and re-encoding) as soon as one of the queue's running slots is free,
   * first come first served; the place is given back when `work` settles. Once per ticket.
   */
  run<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Give the place back without running anything (the request failed, or its client went away).
   * Safe to call any number of times; a ticket whose work is running keeps its slot until the work ends.
   */
  release(): void;
}

/** How many photos are held, waiting and running right now. */
export interface PhotoQueueStats {
  held: number;
  running: number;
  waiting: number;
  capacity: number;
}

/** `released`: given back before its work ran (the request ended); `done`: its work ran. */
type TicketState = 'held' | 'waiting' | 'running' | 'done' | 'released';

/** The refusal of work whose request ended (its client went away) before the work could run. */
const requestEnded = () =>
  new HttpError(400, ERROR_CODES.badRequest, 'The request ended before its photo was processed.');

/** The first estimate of how long a place is held, before any photo was measured. */
const INITIAL_HOLD_MS = 1000;
/** Weight of the newest hold time in the running average. */
const HOLD_SMOOTHING = 0.2;
const MAX_RETRY_AFTER_SECONDS = 60;

/**
 * Bounds photo work (issue 12): at most `concurrency` photos are decoded and re-encoded at once, and
 * at most `maxWaiting` more are accepted to wait (including those still being uploaded). Anything
 * beyond answers 503 PHOTO_QUEUE_FULL at once, with a `Retry-After` from the measured time a place
 * is held, instead of piling up decodes until memory and the thread pool run out.
 */
export class PhotoQueue {
  private held = 0;
  private running = 0;
  private readonly waiters: Array<() => void> = [];
  private averageHoldMs = INITIAL_HOLD_MS;

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
  ) {
    if (concurrency < 1 || maxWaiting < 0)
      throw new Error('PhotoQueue needs concurrency >= 1, maxWaiting >= 0');
  }

  /** Places in all: running plus waiting. */
  get capacity(): number {
    return this.concurrency + this.maxWaiting;
  }

  /** Take a place, or throw 503 PHOTO_QUEUE_FULL (with retryAfterSeconds) when every place is taken. */
  reserve(): PhotoTicket {
    if (this.held >= this.capacity) {
      const seconds = this.retryAfterSeconds();
      throw new HttpError(
        503,
        ERROR_CODES.photoQueueFull,
        `Too many photos are being processed right now. Please try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
        { retryAfterSeconds: seconds },
      );
    }
    this.held++;
    return this.ticket(performance.now());
  }

  /** True when a reserve() now would be refused. */
  isFull(): boolean {
    return this.held >= this.capacity;
  }

  stats(): PhotoQueueStats {
    return { held: this.held, running: this.running, waiting: this.waiters.length, capacity: this.capacity };
  }

  /**
   * When a place is likely free again: the average time a place has been held lately (upload, wait
   * and processing), in whole seconds as Retry-After needs, at least 1.
   */
  retryAfterSeconds(): number {
    return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil(this.averageHoldMs / 1000)));
  }

  private ticket(reservedAt: number): PhotoTicket {
    let state: TicketState = 'held';
    let cancelWait: (() => void) | null = null;

    const finish = (end: 'done' | 'released') => {
      state = end;
      this.held--;
    };

    return {
      run: async <T>(work: () => Promise<T>): Promise<T> => {
        if (state === 'released') throw requestEnded();
        if (state !== 'held') throw new Error(`This photo ticket is ${state}; run() is once per ticket.`);
        if (this.running < this.concurrency) {
          this.running++;
          state = 'running';
        } else {
          state = 'waiting';
          await new Promise<void>((resolve, reject) => {
            // The slot is handed over synchronously, so no newcomer can take it in between.
            const start = () => {
              cancelWait = null;
              this.running++;
              state = 'running';
              resolve();
            };
            this.waiters.push(start);
            cancelWait = () => {
              this.waiters.splice(this.waiters.indexOf(start), 1);
              reject(requestEnded());
            };
          });
        }
        try {
          return await work();
        } finally {
          this.running--;
          finish('done');
          const heldMs = performance.now() - reservedAt;
          this.averageHoldMs += HOLD_SMOOTHING * (heldMs - this.averageHoldMs);
          this.waiters.shift()?.();
        }
      },
      release: () => {
        if (state === 'held') {
          finish('released');
        } else if (state === 'waiting' && cancelWait) {
          const cancel = cancelWait;
          cancelWait = null;
          finish('released');
          cancel();
        }
      },
    };
  }
}

/**
 * Photos decoded at once: one per core but one, which stays with the event loop (on 2 cores, one
 * photo at a time kept /healthz fast under a flood where two did not; ADR 013), and at most half
 * of libuv's thread pool (sharp runs there, and each photo encodes its two sizes on two threads),
 * so file and DNS work still find a thread. At least one.
 */
function defaultConcurrency(): number {
  const threadPool = Number(process.env.UV_THREADPOOL_SIZE) || 4;
  return Math.max(1, Math.min(os.availableParallelism() - 1, Math.floor(threadPool / 2)));
}

/**
 * The process's photo queue: sharp's threads and the machine's cores are shared by every request,
 * so the bound is per process. Twice as many photos may wait (or still be uploading) as run: enough
 * to keep the decoder busy while uploads arrive, few enough that their bytes stay within memory.
 */
export const photoQueue = new PhotoQueue(defaultConcurrency(), 2 * defaultConcurrency());
