/**
 * The main thread's side of the embedded database's thread (ADR 049): requests by message, one
 * promise each. Each answer arrives as a message, so the event loop turns between the statements
 * of a transaction, and PGlite's work (WebAssembly and result parsing) happens in the thread.
 */
import { Worker } from 'node:worker_threads';
import type { PgliteThreadData, SerializedError, ThreadReply, ThreadRequest } from './pglite-thread-protocol';
import { deferWasmTierUp } from './wasm-tier-up';

const THREAD_ENTRY = new URL('./pglite-thread.mjs', import.meta.url);

/** What a statement answers (PGlite's `Results`). */
export interface ThreadResults<T> {
  rows: T[];
  fields: Array<{ name: string; dataTypeID: number }>;
  affectedRows?: number;
}

/**
 * The options of PGlite's `query` that cross the thread. Parsers do not: the thread reads every row
 * with drizzle's (times, dates, intervals and numeric arrays as text), whoever asks.
 */
interface QueryOptionsIn {
  rowMode?: 'array' | 'object';
  parsers?: unknown;
}

/** What drizzle's PGlite session calls inside a transaction. */
export interface ThreadTransaction {
  query<T>(text: string, params?: unknown[], options?: QueryOptionsIn): Promise<ThreadResults<T>>;
  exec(text: string): Promise<void>;
}

/**
 * The embedded database's thread stopped (it crashed, or was ended): its error carries an `08`
 * code, PostgreSQL's connection-exception class, so requests get 503 like a lost PostgreSQL
 * connection (isDatabaseUnavailable in server/errors.ts).
 */
export class PgliteThreadStoppedError extends Error {
  override name = 'PgliteThreadStoppedError';
  readonly code = '08006';
}

/** An error from the thread as an Error with the same fields (code, constraint...), for findCause. */
function reviveError(serialized: SerializedError): Error {
  const { name, message, stack, ...fields } = serialized;
  const error = Object.assign(new Error(message), fields);
  error.name = name;
  if (stack) error.stack = `${stack}\n    (in the embedded database's thread)`;
  return error;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * What the thread reported of the statements given it (added up as their answers arrive): its own
 * time on them, and how long they waited there behind the statement sent before them (ADR 129).
 */
export interface StatementTiming {
  ms: number;
  queuedMs: number;
}

export class PgliteThread {
  readonly #worker: Worker;
  readonly #pending = new Map<
    number,
    { resolve(value: unknown): void; reject(error: Error): void; timing?: StatementTiming | undefined }
  >();
  readonly #listeners = new Map<number, (payload: string) => void>();
  #nextId = 1;
  #openSessions = 0;
  #stopped: Error | null = null;
  #closing = false;

  private constructor(worker: Worker) {
    this.#worker = worker;
  }

  /** Start the thread and open PGlite in it; rejects with PGlite's error when it cannot be opened. */
  static async start(data: PgliteThreadData): Promise<PgliteThread> {
    // PostgreSQL's start stays on V8's baseline compiler (ADR 118).
    deferWasmTierUp();
    const worker = new Worker(THREAD_ENTRY, {
      workerData: data,
      transferList: data.loadDataDir ? [data.loadDataDir] : [],
    });
    const thread = new PgliteThread(worker);
    await new Promise<void>((resolve, reject) => {
      const onStartMessage = (message: ThreadReply) => {
        if ('op' in message && message.op === 'ready') {
          cleanup();
          resolve();
        } else if ('op' in message && message.op === 'failed') {
          cleanup();
          reject(reviveError(message.error));
        }
      };
      const onStartExit = (code: number) => {
        cleanup();
        reject(new PgliteThreadStoppedError(`the embedded database's thread exited (${code}) while opening`));
      };
      const onStartError = (error: Error) => {
        cleanup();
        reject(error);
      };
      const cleanup = () => {
        worker.off('message', onStartMessage);
        worker.off('exit', onStartExit);
        worker.off('error', onStartError);
      };
      worker.on('message', onStartMessage);
      worker.on('exit', onStartExit);
      worker.on('error', onStartError);
    }).catch(async (error: unknown) => {
      // The thread replies 'failed' and then rethrows the same error: that 'error' event can come
      // after the start listeners are gone, and an EventEmitter 'error' nobody listens to is thrown
      // in this thread (a CI run saw it as an uncaught "PGlite failed to initialize properly").
      worker.on('error', () => {});
      await worker.terminate();
      throw error;
    });
    thread.#listen();
    return thread;
  }

  #busyMs = 0;

  /**
   * How long the thread has spent on the statements answered so far, in ms (its own time, not the
   * trips between threads, nor a statement's wait there behind the one before it). A hold's own
   * share is added up per hold (`StatementTiming`): with two statements in the thread (ADR 129) this
   * total grows with both.
   */
  get busyMs(): number {
    return this.#busyMs;
  }

  /** The thread itself (tests end it to see requests fail promptly). */
  get worker(): Worker {
    return this.#worker;
  }

  #listen(): void {
    const worker = this.#worker;
    worker.on('message', (message: ThreadReply) => {
      if ('op' in message) {
        if (message.op === 'notify') this.#listeners.get(message.listenId)?.(message.payload);
        return;
      }
      const pending = this.#pending.get(message.id);
      if (!pending) return;
      this.#pending.delete(message.id);
      this.#busyMs += message.ms ?? 0;
      if (pending.timing) {
        pending.timing.ms += message.ms ?? 0;
        pending.timing.queuedMs += message.queuedMs ?? 0;
      }
      this.#holdProcess();
      if (message.ok) pending.resolve(message.value);
      else pending.reject(reviveError(message.error));
    });
    worker.on('error', (error) => this.#stop(error));
    worker.on('exit', (code) => this.#stop(new Error(`exit code ${code}`)));
    this.#holdProcess();
  }

  /** Every waiting request fails with PgliteThreadStoppedError; later ones fail at once. */
  #stop(cause: Error): void {
    if (this.#stopped) return;
    this.#stopped = this.#closing
      ? Object.assign(new Error('PGlite is closed'), { code: '08003' })
      : new PgliteThreadStoppedError(`the embedded database's thread stopped: ${cause.message}`, { cause });
    for (const pending of this.#pending.values()) pending.reject(this.#stopped);
    this.#pending.clear();
  }

  /** The thread keeps the process alive only while something waits for it (as an in-thread PGlite). */
  #holdProcess(): void {
    if (this.#pending.size > 0 || this.#openSessions > 0) this.#worker.ref();
    else this.#worker.unref();
  }

  #request<T>(request: DistributiveOmit<ThreadRequest, 'id'>, timing?: StatementTiming): Promise<T> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timing });
      try {
        // A parameter that cannot be cloned (a function, a class instance) throws here.
        this.#worker.postMessage({ ...request, id, sentAt: performance.timeOrigin + performance.now() });
      } catch (error) {
        this.#pending.delete(id);
        reject(error);
      }
      this.#holdProcess();
    });
  }

  query<T>(
    text: string,
    params?: unknown[],
    options?: QueryOptionsIn,
    session?: number,
    timing?: StatementTiming,
  ): Promise<ThreadResults<T>> {
    return this.#request(
      {
        op: 'query',
        text,
        ...(params ? { params } : {}),
        ...(options?.rowMode ? { rowMode: options.rowMode } : {}),
        ...(session !== undefined ? { session } : {}),
      },
      timing,
    );
  }

  /**
   * `text` as the named prepared statement `name`, outside any transaction: PGlite parses it once
   * and keeps its plan as PostgreSQL keeps a prepared statement's (server/db/prepared.ts). Rows as
   * drizzle's session reads them (its parsers).
   */
  queryNamed<T>(
    name: string,
    text: string,
    params: unknown[],
    timing?: StatementTiming,
  ): Promise<ThreadResults<T>> {
    return this.#request({ op: 'query', name, text, params }, timing);
  }

  exec(text: string, session?: number, timing?: StatementTiming): Promise<void> {
    return this.#request({ op: 'exec', text, ...(session !== undefined ? { session } : {}) }, timing);
  }

  /**
   * Run `callback` in a transaction held open in the thread: its statements go to that session;
   * committed when it resolves, rolled back when it throws. `timing` adds up its statements'.
   */
  async transaction<T>(
    callback: (tx: ThreadTransaction) => Promise<T>,
    timing?: StatementTiming,
  ): Promise<T> {
    const session = await this.#request<number>({ op: 'begin' });
    this.#openSessions++;
    try {
      const tx: ThreadTransaction = {
        query: (text, params, options) => this.query(text, params, options, session, timing),
        exec: (text) => this.exec(text, session, timing),
      };
      let result: T;
      try {
        result = await callback(tx);
      } catch (error) {
        await this.#request({ op: 'end', session, commit: false }).catch(() => {});
        throw error;
      }
      await this.#request({ op: 'end', session, commit: true });
      return result;
    } finally {
      this.#openSessions--;
      this.#holdProcess();
    }
  }

  #nextListen = 1;

  /** LISTEN in the thread; each NOTIFY payload arrives by message. Returns the UNLISTEN. */
  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    const listenId = this.#nextListen++;
    this.#listeners.set(listenId, onNotify);
    await this.#request({ op: 'listen', listenId, channel });
    return async () => {
      this.#listeners.delete(listenId);
      if (!this.#stopped) await this.#request({ op: 'unlisten', listenId });
    };
  }

  /** The database as a tarball (PGlite's `dumpDataDir('none')`). */
  async dumpDataDir(): Promise<Blob> {
    return new Blob([await this.#request<ArrayBuffer>({ op: 'dump' })]);
  }

  /** Apply drizzle's migrations from `folder` in the thread. */
  async migrate(folder: string): Promise<void> {
    await this.#request({ op: 'migrate', folder });
  }

  /** CHECKPOINT (when on disk) and close PGlite, then end the thread. */
  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    try {
      if (!this.#stopped) await this.#request({ op: 'close' });
    } finally {
      await this.#worker.terminate();
    }
  }
}

/**
 * Start PGlite's thread on a directory (or a tarball, or in memory) and open PGlite in it. This
 * module loads nothing but the thread's own client, so a server's start calls it before loading
 * the rest of its modules (ADR 122); `openPglite` (client.ts) wraps the thread for queries.
 */
export async function startPgliteThread(options: {
  dataDir?: string | undefined;
  loadDataDir?: Blob | undefined;
  sharedBuffersMb?: number | undefined;
}): Promise<PgliteThread> {
  return PgliteThread.start({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: await options.loadDataDir.arrayBuffer() } : {}),
    ...(options.sharedBuffersMb ? { sharedBuffersMb: options.sharedBuffersMb } : {}),
  });
}
