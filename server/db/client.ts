import { AsyncLocalStorage } from 'node:async_hooks';
import type { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { DatabaseBusyError } from '../errors';
import { type PgliteThread, type StatementTiming, startPgliteThread } from './pglite-thread-client';
import * as schema from './schema/index';

export type Schema = typeof schema;
/** The one database type the repositories take: the same for PGlite and node-postgres. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** What `DatabaseHandle.listen` calls. */
export interface ListenHandlers {
  /** Each NOTIFY payload sent on the channel, as its transaction commits. */
  onNotify(payload: string): void;
  /**
   * PostgreSQL: the listening connection was lost and is listening again; anything sent in between
   * was missed (read it back from where it is stored).
   */
  onReconnect?(): void;
  /** PostgreSQL: the listening connection failed or could not be opened; it is retried with backoff. */
  onError?(error: Error): void;
}

export interface DatabaseHandle {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  /**
   * LISTEN on `channel` until the returned function is called: PGlite in process; PostgreSQL on a
   * dedicated connection outside the pool, reopened with backoff after it fails. Resolves once
   * listening (or, on PostgreSQL, once the first attempt failed and retries have been scheduled).
   */
  listen(channel: string, handlers: ListenHandlers): Promise<() => Promise<void>>;
  /** Flush (PGlite: CHECKPOINT) and release every connection. */
  close(): Promise<void>;
  /**
   * The embedded database's thread (ADR 049), outside the wait limit: migrations, backups and
   * restores, and tests that clone a migrated database (`dumpDataDir`).
   */
  pglite?: PgliteThread;
  /** PostgreSQL: plain SQL text on the pool (the shared rate-limit counters, server/plugins). */
  executeSql?(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  /**
   * PostgreSQL: plain SQL text on the job queue's own pool of JOB_QUEUE_POOL_MAX connections
   * (pg-boss's `db` option, server/jobs). Its pollers (several a second) never wait in the requests'
   * line, so they neither delay a request nor count towards SHED_DB_WAITING.
   */
  jobQueueSql?(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  /** How the connections are used right now (the metrics, server/plugins/metrics.ts). */
  poolStats(): PoolStats;
}

/**
 * The connections and who waits for one. PGlite is a pool of one connection: `waiting` are the
 * callers queued behind the query or transaction holding it (WaitLimitedMutex).
 */
export interface PoolStats {
  /** Connections open (PostgreSQL: up to DB_POOL_MAX; PGlite: 1). */
  total: number;
  /** Of those, not in use. */
  idle: number;
  /** Callers waiting for a connection. */
  waiting: number;
  /** The most connections there may be. */
  max: number;
  /** PGlite: how long the longest waiting caller has waited, in ms (0 when none waits). */
  oldestWaitMs?: number;
}

/** How long a request may wait for a database connection before it is answered 503 (DB_ACQUIRE_TIMEOUT_MS). */
export const DEFAULT_ACQUIRE_TIMEOUT_MS = 1_500;

/**
 * How long background work (jobs: sweeps, the match graph, alerts, mail) may wait for the embedded
 * database's connection: it yields to every member's request (WaitLimitedMutex), so under a steady
 * stream of requests it may wait long; past this it fails like a request, and its job runs again.
 */
export const BACKGROUND_ACQUIRE_TIMEOUT_MS = 30_000;

/**
 * How many members' statements may be with the embedded database's thread at once (ADR 129): one
 * running and one waiting there to run next.
 */
export const PIPELINE_DEPTH = 2;

const backgroundWork = new AsyncLocalStorage<true>();

/**
 * Run `work` as background work (ADR 098): on the embedded database its queries and transactions
 * take the one connection only when no request waits for it, and their wait is not the members'
 * (it never counts towards SHED_DB_WAIT_MS). The jobs run every handler this way (server/jobs).
 * On PostgreSQL (a pool) nothing changes.
 */
export function inBackground<T>(work: () => Promise<T>): Promise<T> {
  return backgroundWork.run(true, work);
}

interface Waiter {
  grant: () => void;
  since: number;
  exclusive: boolean;
}

/**
 * Holders of the embedded database's connection, and a bounded wait for the others: a waiter still
 * queued after `timeoutMs` leaves the queue with DatabaseBusyError and its work never runs (so a
 * request answered 503 never writes later). Two lines: requests, first come first served, and
 * background work (`inBackground`), served only when no request waits, with its own longer limit.
 *
 * `depth` holders at once of a single statement each (ADR 129): the next request's statement is
 * sent to PGlite's thread while the one before runs there, so the thread starts it the moment the
 * first ends instead of idling until the main thread has taken the answer and sent the next; PGlite
 * still runs one statement at a time. A transaction (several trips) and background work hold it
 * alone (`exclusive`), as with a depth of one.
 */
export class WaitLimitedMutex {
  #holders = 0;
  #exclusive = false;
  readonly #waiters: Waiter[] = [];
  readonly #background: Waiter[] = [];

  constructor(
    readonly timeoutMs: number,
    readonly backgroundTimeoutMs = BACKGROUND_ACQUIRE_TIMEOUT_MS,
    readonly depth = 1,
  ) {}

  /** Whether a caller holds the mutex now. */
  get held(): boolean {
    return this.#holders > 0;
  }

  /** Callers waiting now, in both lines. */
  get waiting(): number {
    return this.#waiters.length + this.#background.length;
  }

  /** How long the request first in line has waited, in ms (0 when no request waits). */
  oldestWaitMs(now = performance.now()): number {
    const first = this.#waiters[0];
    return first ? now - first.since : 0;
  }

  /**
   * Run `task` once the mutex is free (one of `depth` places, or all of them when `exclusive`), or
   * throw DatabaseBusyError after waiting `timeoutMs` (background: `backgroundTimeoutMs`, behind
   * every request, and always alone).
   */
  async run<T>(task: () => Promise<T>, background = false, exclusive = false): Promise<T> {
    const alone = exclusive || background;
    await this.#acquire(background, alone);
    try {
      return await task();
    } finally {
      this.#release(alone);
    }
  }

  #fits(exclusive: boolean): boolean {
    return exclusive ? this.#holders === 0 : !this.#exclusive && this.#holders < this.depth;
  }

  #take(exclusive: boolean): void {
    this.#holders++;
    if (exclusive) this.#exclusive = true;
  }

  #acquire(background: boolean, exclusive: boolean): Promise<void> {
    const line = background ? this.#background : this.#waiters;
    const ahead = background ? this.waiting : this.#waiters.length;
    if (ahead === 0 && this.#fits(exclusive)) {
      this.#take(exclusive);
      return Promise.resolve();
    }
    const timeoutMs = background ? this.backgroundTimeoutMs : this.timeoutMs;
    return new Promise((resolve, reject) => {
      const grant = () => {
        clearTimeout(timer);
        resolve();
      };
      const waiter = { grant, since: performance.now(), exclusive };
      const timer = setTimeout(() => {
        const index = line.indexOf(waiter);
        if (index >= 0) line.splice(index, 1);
        reject(new DatabaseBusyError(timeoutMs));
        // A waiter that gave up may have stood in front of others that fit now.
        this.#grantWaiting();
      }, timeoutMs);
      line.push(waiter);
    });
  }

  #release(exclusive: boolean): void {
    this.#holders--;
    if (exclusive) this.#exclusive = false;
    this.#grantWaiting();
  }

  /** Hand places over directly, in order, so a newcomer cannot slip in ahead of those waiting. */
  #grantWaiting(): void {
    for (;;) {
      const line = this.#waiters.length > 0 ? this.#waiters : this.#background;
      const next = line[0];
      if (!next || !this.#fits(next.exclusive)) return;
      line.shift();
      this.#take(next.exclusive);
      next.grant();
    }
  }
}

/**
 * What drizzle calls on PGlite (`query`, and `transaction` whose callback then queries through its
 * own handle), sent to PGlite's own thread (ADR 049), behind a WaitLimitedMutex. PGlite has one connection and queues every caller without
 * limit behind a long query or an open transaction; here a caller gives up after the limit with
 * DatabaseBusyError (503), like a pool checkout on PostgreSQL. A class, not a plain object, so
 * drizzle does not mistake it for its own config object.
 */
class WaitLimitedPglite {
  constructor(
    private readonly client: PgliteThread,
    readonly mutex: WaitLimitedMutex,
    private readonly slowHold: Pick<PgliteOptions, 'slowHoldMs' | 'onSlowHold'> = {},
  ) {}

  query: PgliteThread['query'] = (text, params, options) =>
    this.#hold('query', (note, timing) => {
      note(text);
      return this.client.query(text, params, options, undefined, timing);
    });

  /** A named prepared statement (PgliteThread.queryNamed), behind the same limit as any query. */
  queryNamed: PgliteThread['queryNamed'] = (name, text, params) =>
    this.#hold('query', (note, timing) => {
      note(text);
      return this.client.queryNamed(name, text, params, timing);
    });

  transaction: PgliteThread['transaction'] = (callback) =>
    this.#hold('transaction', (note, timing) =>
      this.client.transaction(
        (tx) =>
          callback({
            query: (text, params, options) => {
              note(text);
              return tx.query(text, params, options);
            },
            exec: (text) => {
              note(text);
              return tx.exec(text);
            },
          }),
        timing,
      ),
    );

  /**
   * Hold the connection for `work`, and report the hold when it lasted DB_SLOW_HOLD_MS or more. A
   * statement sent while the one before it still ran (ADR 129) holds the connection from its turn in
   * the thread, not from when it was sent.
   */
  #hold<T>(
    kind: HeldTooLong['kind'],
    work: (note: (text: string) => void, timing: StatementTiming | undefined) => Promise<T>,
  ): Promise<T> {
    const { slowHoldMs = 0, onSlowHold } = this.slowHold;
    const background = backgroundWork.getStore() === true;
    // A transaction's statements come one by one from this thread: it holds PGlite alone.
    const exclusive = kind === 'transaction';
    if (slowHoldMs <= 0 || !onSlowHold)
      return this.mutex.run(() => work(() => {}, undefined), background, exclusive);
    const queued = performance.now();
    return this.mutex.run(
      async () => {
        const granted = performance.now();
        const timing: StatementTiming = { ms: 0, queuedMs: 0 };
        const shown: string[] = [];
        let statements = 0;
        const note = (text: string) => {
          statements++;
          if (shown.length < SLOW_HOLD_STATEMENTS_SHOWN)
            shown.push(text.replace(/\s+/g, ' ').trim().slice(0, 120));
        };
        try {
          return await work(note, timing);
        } finally {
          const heldMs = performance.now() - granted - timing.queuedMs;
          if (heldMs >= slowHoldMs) {
            onSlowHold({
              kind,
              heldMs: Math.round(heldMs),
              databaseMs: Math.round(timing.ms),
              waitedMs: Math.round(granted - queued + timing.queuedMs),
              statements,
              sql: shown,
              ...(background ? { background } : {}),
            });
          }
        }
      },
      background,
      exclusive,
    );
  }
}

/** How many of a slow hold's statements its report shows. */
const SLOW_HOLD_STATEMENTS_SHOWN = 4;

/**
 * A hold of the embedded database's one connection that lasted DB_SLOW_HOLD_MS or more: everyone
 * else's requests waited that long (SHED_DB_WAIT_MS sheds costly requests at 500 ms of waiting).
 * `databaseMs` is PGlite's own time in its thread; the rest of `heldMs` is the trips between the
 * threads and, in a transaction, the main thread coming round to send the next statement (a busy
 * main thread holds the database up without using it). A statement's hold starts at its turn in the
 * thread, not when it was sent there behind another (ADR 129).
 */
export interface HeldTooLong {
  kind: 'query' | 'transaction';
  heldMs: number;
  databaseMs: number;
  /**
   * How long it waited before its turn: in line here, and in PGlite's thread behind the statement
   * sent there before it (ADR 129).
   */
  waitedMs: number;
  statements: number;
  /** The first statements' text (no parameters), whitespace collapsed, shortened. */
  sql: string[];
  /** Background work (`inBackground`: a job), not a member's request. */
  background?: boolean;
}

export interface PgliteOptions {
  /** Directory to persist to; undefined keeps the database in memory. */
  dataDir?: string;
  /** A tarball from `dumpDataDir()` to start from (tests clone a migrated database this way). */
  loadDataDir?: Blob;
  /** Longest wait behind other queries and transactions (default DEFAULT_ACQUIRE_TIMEOUT_MS). */
  acquireTimeoutMs?: number;
  /** The buffer pool, in MB (PGLITE_SHARED_BUFFERS_MB; PGlite's own 128 when unset). */
  sharedBuffersMb?: number;
  /** A hold this long or longer is reported to `onSlowHold` (DB_SLOW_HOLD_MS; 0 or unset: never). */
  slowHoldMs?: number;
  onSlowHold?: (hold: HeldTooLong) => void;
  /**
   * PGlite's thread, already started on `dataDir` (`startPgliteThread`): a server's start spawns it
   * before it loads the rest of its modules (ADR 122). Unset: started here.
   */
  thread?: Promise<PgliteThread>;
}

/**
 * How a `db.$client` runs a named prepared statement (server/db/prepared.ts), its rows read as
 * drizzle's session reads them (its parsers: times, dates, intervals and numeric arrays as text).
 */
export interface NamedStatements {
  queryNamed<T>(name: string, text: string, params: unknown[]): Promise<{ rows: T[] }>;
}

/**
 * The clients `openPostgres` (its node-postgres pool) and `openPglite` (PGlite's thread) made, with
 * how each runs a named prepared statement: told apart without loading node-postgres.
 */
export const namedStatements = new WeakMap<object, NamedStatements>();

/**
 * Embedded PostgreSQL (PGlite), the default when DATABASE_URL is unset, in its own thread for the
 * life of the handle (ADR 049): the main thread never runs its WebAssembly or its result parser.
 */
export async function openPglite(options: PgliteOptions = {}): Promise<DatabaseHandle> {
  const client = await (options.thread ?? startPgliteThread(options));
  const limited = new WaitLimitedPglite(
    client,
    new WaitLimitedMutex(
      options.acquireTimeoutMs ?? DEFAULT_ACQUIRE_TIMEOUT_MS,
      BACKGROUND_ACQUIRE_TIMEOUT_MS,
      PIPELINE_DEPTH,
    ),
    options,
  );
  namedStatements.set(limited, limited);
  const db = drizzlePglite(limited as unknown as PGlite, { schema }) as unknown as Db;
  let closed = false;
  return {
    kind: 'pglite',
    db,
    pglite: client,
    poolStats() {
      const { mutex } = limited;
      return {
        total: 1,
        idle: mutex.held ? 0 : 1,
        waiting: mutex.waiting,
        max: 1,
        oldestWaitMs: mutex.oldestWaitMs(),
      };
    },
    async ping() {
      // Through the limit too, so /readyz answers 503 promptly while a transaction holds PGlite.
      await limited.query('SELECT 1');
    },
    async listen(channel, handlers) {
      // PGlite delivers a NOTIFY in its thread when the sending transaction commits, and the
      // thread posts it here. Not behind the wait limit: LISTEN runs once, at start.
      const unlisten = await client.listen(channel, handlers.onNotify);
      return async () => {
        if (!closed) await unlisten();
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      // CHECKPOINT (when on disk), close PGlite and end its thread.
      await client.close();
    },
  };
}
