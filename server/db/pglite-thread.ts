/**
 * The embedded database's own thread (ADR 049): it owns the one PGlite instance for the life of the
 * handle, so PGlite's WebAssembly and its wire-protocol parser never run on the server's main
 * thread. The main thread (server/db/pglite-thread-client.ts) sends requests by message: a
 * transaction's one at a time, and up to two statements outside one, the second waiting here for the
 * first (ADR 129); this thread runs each and answers with the rows (a structured clone).
 */
import { parentPort, workerData } from 'node:worker_threads';
import {
  PGlite,
  parse,
  protocol,
  type QueryOptions,
  type Results,
  type Transaction,
} from '@electric-sql/pglite';
import { cube } from '@electric-sql/pglite/contrib/cube';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import type { PgliteThreadData, SerializedError, ThreadReply, ThreadRequest } from './pglite-thread-protocol';
import { sessionSettingArgs } from './session-settings';
import { DRIZZLE_TEXT_TYPES, keepText } from './text-types';

const port = parentPort;
if (!port) throw new Error('pglite-thread.ts runs as a worker thread');

/**
 * drizzle's PGlite session keeps DRIZZLE_TEXT_TYPES as PostgreSQL's text and maps them itself; its
 * parsers are functions, which cannot cross threads, so the same ones are put into PGlite's own map
 * once it has started (its start fills the array types' parsers in), and every statement this thread
 * runs reads its rows as drizzle's session would.
 */
const DRIZZLE_PARSERS: PGlite['parsers'] = Object.fromEntries(
  [...DRIZZLE_TEXT_TYPES].map((type) => [type, keepText]),
);

/** An error as plain fields: its message and what drivers attach (code, constraint, detail...). */
function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const out: SerializedError = { name: error.name, message: error.message, stack: error.stack };
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) out[key] = value;
  }
  return out;
}

function reply(message: ThreadReply, transfer: ArrayBuffer[] = []): void {
  port?.postMessage(message, transfer);
}

/** A transaction open in this thread: the main thread's statements arrive one by one. */
class Session {
  readonly #queue: ThreadRequest[] = [];
  #wake: (() => void) | null = null;

  push(request: ThreadRequest): void {
    this.#queue.push(request);
    this.#wake?.();
    this.#wake = null;
  }

  async next(): Promise<ThreadRequest> {
    for (;;) {
      const request = this.#queue.shift();
      if (request) return request;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }
}

/** Thrown inside PGlite's transaction to have it rolled back. */
class RollBack extends Error {}

const data = workerData as PgliteThreadData;
let db: PGlite;
try {
  db = await PGlite.create({
    // Extensions must be known at construction; migrations 0002 and 0011 run CREATE EXTENSION for them.
    extensions: { pg_trgm, cube },
    ...(data.dataDir ? { dataDir: data.dataDir } : {}),
    ...(data.loadDataDir ? { loadDataDir: new Blob([data.loadDataDir]) } : {}),
    // The app's session settings (server/db/session-settings.ts); the buffer pool lives in the
    // WebAssembly memory, which never shrinks (ADR 093).
    startParams: [
      ...PGlite.defaultStartParams,
      ...sessionSettingArgs(),
      ...(data.sharedBuffersMb ? ['-c', `shared_buffers=${data.sharedBuffersMb}MB`] : []),
    ],
  });
} catch (error) {
  reply({ op: 'failed', error: serializeError(error) });
  port.close();
  throw error;
}
Object.assign(db.parsers, DRIZZLE_PARSERS);

const sessions = new Map<number, Session>();
const listeners = new Map<number, () => Promise<void>>();
let nextSession = 1;

/**
 * Every statement's rows are read with PGlite's own map of parsers (drizzle's in it since start-up),
 * never with parsers given per query: PGlite spreads its 318 parsers and a query's into a new map for
 * every statement given any, about 80 µs of this thread each (2026-12-04).
 */
function queryOptions(request: Extract<ThreadRequest, { op: 'query' }>): QueryOptions {
  return { rowMode: request.rowMode };
}

/** Names of the prepared statements this PGlite holds (namedQuery): parsed once each. */
const prepared = new Set<string>();

/** A parameter as PostgreSQL's text input of its type: what PGlite's own query sends for these. */
function paramText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
    return String(value);
  throw new TypeError(`a prepared statement's parameter cannot be ${Object.prototype.toString.call(value)}`);
}

/** Protocol messages as one buffer, for one call of execProtocol. */
const batch = (parts: Uint8Array[]): Uint8Array => Buffer.concat(parts);

/**
 * A query as the named prepared statement `name` (queryPrepared): parsed by PGlite the first time,
 * then only bound and executed, so PostgreSQL keeps its plan as for a prepared statement on a
 * PostgreSQL connection (planned with the values for five executions, then one plan when it is priced
 * no dearer). PGlite's own `query` parses and plans every statement afresh. One message batch,
 * inside PGlite's query lock, so nothing else runs between its messages.
 */
function namedQuery(request: Extract<ThreadRequest, { op: 'query' }> & { name: string }): Promise<Results> {
  const { serialize } = protocol;
  const { name } = request;
  const first = !prepared.has(name);
  const values = (request.params ?? []).map(paramText);
  // Behind an open transaction as PGlite's own query is, never inside it.
  return db._runExclusiveTransaction(() =>
    db._runExclusiveQuery(async () => {
      try {
        const { messages } = await db.execProtocol(
          batch([
            ...(first ? [serialize.parse({ name, text: request.text })] : []),
            serialize.bind({ statement: name, values }),
            serialize.describe({ type: 'P' }),
            serialize.execute({}),
            serialize.sync(),
          ]),
        );
        const [results] = parse.parseResults(messages, db.parsers, queryOptions(request));
        if (!results) throw new Error(`no results from ${name}`);
        prepared.add(name);
        return results;
      } catch (error) {
        // The statement may exist if only its binding failed: closed (and not recorded), so the next
        // call parses it again.
        if (first)
          await db
            .execProtocol(batch([serialize.close({ type: 'S', name }), serialize.sync()]))
            .catch(() => {});
        throw error;
      }
    }),
  );
}

async function answer(id: number, work: () => Promise<unknown>, queuedMs?: number): Promise<void> {
  const started = performance.now();
  const waited = queuedMs === undefined ? {} : { queuedMs };
  try {
    const value = await work();
    reply({ id, ok: true, value, ms: performance.now() - started, ...waited });
  } catch (error) {
    reply({ id, ok: false, error: serializeError(error), ms: performance.now() - started, ...waited });
  }
}

/**
 * The statements outside a transaction, in the order they came: the main thread may send the next
 * while one runs (ADR 129), and each is timed from its turn, so `ms` stays this thread's own time.
 */
let statements: Promise<void> = Promise.resolve();

function answerInTurn(request: ThreadRequest, work: () => Promise<unknown>): void {
  // From when it was sent: a message that came while PGlite ran the statement before it (one
  // synchronous call) is only read here once that statement has finished.
  const sentAt = request.sentAt ?? performance.timeOrigin + performance.now();
  statements = statements.then(() =>
    answer(request.id, work, Math.max(0, performance.timeOrigin + performance.now() - sentAt)),
  );
}

function begin(id: number): void {
  const sessionId = nextSession++;
  const session = new Session();
  sessions.set(sessionId, session);
  let began = false;
  let endId: number | undefined;
  db.transaction(async (tx: Transaction) => {
    began = true;
    reply({ id, ok: true, value: sessionId });
    for (;;) {
      const request = await session.next();
      if (request.op === 'end') {
        endId = request.id;
        if (!request.commit) throw new RollBack();
        return;
      }
      if (request.op === 'query') {
        await answer(request.id, () => tx.query(request.text, request.params, queryOptions(request)));
      } else if (request.op === 'exec') {
        await answer(request.id, async () => {
          await tx.exec(request.text);
        });
      } else {
        reply({
          id: request.id,
          ok: false,
          error: { name: 'Error', message: `${request.op} inside a transaction` },
        });
      }
    }
  }).then(
    () => {
      sessions.delete(sessionId);
      if (endId !== undefined) reply({ id: endId, ok: true, value: null });
    },
    (error: unknown) => {
      sessions.delete(sessionId);
      const target = began ? endId : id;
      if (target === undefined) return;
      if (error instanceof RollBack) reply({ id: target, ok: true, value: null });
      else reply({ id: target, ok: false, error: serializeError(error) });
    },
  );
}

port.on('message', (request: ThreadRequest) => {
  if ('session' in request && request.session !== undefined) {
    const session = sessions.get(request.session);
    if (session) session.push(request);
    else reply({ id: request.id, ok: false, error: { name: 'Error', message: 'the transaction has ended' } });
    return;
  }
  switch (request.op) {
    case 'query': {
      const { name } = request;
      answerInTurn(request, () =>
        name
          ? namedQuery({ ...request, name })
          : db.query(request.text, request.params, queryOptions(request)),
      );
      return;
    }
    case 'exec':
      answerInTurn(request, async () => {
        await db.exec(request.text);
      });
      return;
    case 'begin':
      begin(request.id);
      return;
    case 'end':
      reply({ id: request.id, ok: false, error: { name: 'Error', message: 'no transaction to end' } });
      return;
    case 'listen':
      void answer(request.id, async () => {
        const { listenId } = request;
        listeners.set(
          listenId,
          await db.listen(request.channel, (payload) => reply({ op: 'notify', listenId, payload })),
        );
        return null;
      });
      return;
    case 'unlisten':
      void answer(request.id, async () => {
        const unlisten = listeners.get(request.listenId);
        listeners.delete(request.listenId);
        await unlisten?.();
        return null;
      });
      return;
    case 'dump':
      db.dumpDataDir('none').then(
        async (blob) => {
          const buffer = await blob.arrayBuffer();
          reply({ id: request.id, ok: true, value: buffer }, [buffer]);
        },
        (error: unknown) => reply({ id: request.id, ok: false, error: serializeError(error) }),
      );
      return;
    case 'migrate':
      void answer(request.id, async () => {
        await migrate(drizzle(db), { migrationsFolder: request.folder });
        return null;
      });
      return;
    case 'close':
      void answer(request.id, async () => {
        if (data.dataDir) await db.exec('CHECKPOINT');
        await db.close();
        return null;
      }).then(() => port.close());
      return;
  }
});

reply({ op: 'ready' });
