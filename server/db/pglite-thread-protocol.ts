/** The messages between the main thread and the embedded database's thread (ADR 049). */

export interface PgliteThreadData {
  /** Directory to persist to; undefined keeps the database in memory. */
  dataDir?: string;
  /** A tarball from `dumpDataDir()` to start from (transferred). */
  loadDataDir?: ArrayBuffer;
  /** PostgreSQL's shared_buffers in MB (PGlite's default when unset: 128). */
  sharedBuffersMb?: number;
}

/**
 * `session`: the transaction the request belongs to (undefined: outside any transaction). `sentAt`:
 * when the main thread sent it, in ms since the epoch (`performance.timeOrigin + performance.now()`,
 * comparable across threads), for how long it waited in the thread (`queuedMs`, ADR 129).
 */
export type ThreadRequest = { sentAt?: number } & (
  | {
      op: 'query';
      id: number;
      session?: number;
      text: string;
      params?: unknown[];
      rowMode?: 'array' | 'object';
      /**
       * Run as this named prepared statement (server/db/prepared.ts): parsed once, its plan kept as
       * PostgreSQL keeps a prepared statement's. Outside a transaction only.
       */
      name?: string;
    }
  | { op: 'exec'; id: number; session?: number; text: string }
  | { op: 'begin'; id: number }
  | { op: 'end'; id: number; session: number; commit: boolean }
  | { op: 'listen'; id: number; listenId: number; channel: string }
  | { op: 'unlisten'; id: number; listenId: number }
  | { op: 'dump'; id: number }
  | { op: 'migrate'; id: number; folder: string }
  | { op: 'close'; id: number }
);

/** A database error's message and the fields drivers attach (code, constraint, detail...). */
export type SerializedError = { name: string; message: string; stack?: string } & Record<string, unknown>;

/**
 * `ms`: how long the thread spent on the request (PGlite's own time, not the trip between threads);
 * `queuedMs`: how long it waited in the thread behind the statement sent before it (ADR 129). Both
 * for the slow-hold report (`HeldTooLong`, server/db/client.ts).
 */
export type ThreadReply =
  | { id: number; ok: true; value: unknown; ms?: number; queuedMs?: number }
  | { id: number; ok: false; error: SerializedError; ms?: number; queuedMs?: number }
  | { op: 'notify'; listenId: number; payload: string }
  | { op: 'ready' }
  | { op: 'failed'; error: SerializedError };
