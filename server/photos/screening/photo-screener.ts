import { Worker } from 'node:worker_threads';
import { SCREEN_PX, type ScreenClass, type ScreenReply } from './screening-protocol';

export { SCREEN_PX } from './screening-protocol';

/** What the screener made of a photo. */
export type Screening =
  | {
      /** Porn + Hentai + Sexy: how likely the photo is explicit, 0 to 1. */
      explicit: number;
      scores: Partial<Record<ScreenClass, number>>;
      unavailable?: undefined;
    }
  | {
      /** The screener could not look (its worker failed or took too long): why, for the log. */
      unavailable: string;
      explicit?: undefined;
      scores?: undefined;
    };

/** How long one photo may take, the model's first load (about a second here) included. */
const SCREEN_TIMEOUT_MS = 20_000;

/**
 * The worker runs TypeScript like the rest of the server: its entry registers tsx in the worker
 * thread and imports the worker module (the same under `npm start`, tests and benchmarks).
 */
const WORKER_ENTRY = new URL('./screening-worker.mjs', import.meta.url);

interface Waiting {
  resolve: (screening: Screening) => void;
  timer: NodeJS.Timeout;
}

/**
 * Screens photos for explicit content on this machine (ADR 027), in one worker thread per process
 * so the ~45 ms of inference never blocks the event loop. Started on first use; a worker that
 * fails or hangs is ended and the next photo starts a new one. Never rejects: a photo it could not
 * look at is `unavailable`, and the caller decides.
 */
export class PhotoScreener {
  #worker: Worker | null = null;
  #next = 1;
  readonly #waiting = new Map<number, Waiting>();

  /** Screen the RGB pixels of a SCREEN_PX x SCREEN_PX square. */
  screen(pixels: Uint8Array): Promise<Screening> {
    if (pixels.length !== SCREEN_PX * SCREEN_PX * 3) {
      return Promise.resolve({ unavailable: `expected ${SCREEN_PX}x${SCREEN_PX} RGB pixels` });
    }
    const worker = this.#start();
    const id = this.#next++;
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => this.#fail(`no answer within ${SCREEN_TIMEOUT_MS} ms`),
        SCREEN_TIMEOUT_MS,
      );
      timer.unref();
      this.#waiting.set(id, { resolve, timer });
      worker.postMessage({ id, pixels });
    });
  }

  /** End the worker (a new one starts with the next photo). */
  async close(): Promise<void> {
    this.#fail('the screener closed');
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(WORKER_ENTRY);
    // An idle worker does not keep the process alive.
    worker.unref();
    worker.on('message', (reply: ScreenReply) => {
      const waiting = this.#waiting.get(reply.id);
      if (!waiting) return;
      this.#waiting.delete(reply.id);
      clearTimeout(waiting.timer);
      if (reply.error !== undefined) {
        waiting.resolve({ unavailable: reply.error });
        // The model did not load, or broke: start afresh next time.
        this.#fail(reply.error);
        return;
      }
      const { Porn = 0, Hentai = 0, Sexy = 0 } = reply.scores;
      waiting.resolve({ explicit: Math.min(1, Porn + Hentai + Sexy), scores: reply.scores });
    });
    worker.on('error', (error) => this.#fail(error.message));
    worker.on('exit', (code) => {
      if (this.#worker === worker) this.#fail(`the worker exited (${code})`);
    });
    this.#worker = worker;
    return worker;
  }

  /** Answer every waiting photo `unavailable` and end the worker. */
  #fail(reason: string): void {
    const worker = this.#worker;
    this.#worker = null;
    for (const [id, waiting] of this.#waiting) {
      clearTimeout(waiting.timer);
      waiting.resolve({ unavailable: reason });
      this.#waiting.delete(id);
    }
    void worker?.terminate();
  }
}

/** The process's screener: the worker and its model are shared by every request. */
export const photoScreener = new PhotoScreener();
