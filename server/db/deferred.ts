import type { DatabaseHandle, Db, ListenHandlers } from './client';

/** Thrown by a deferred handle used before its database is open (a bug in whoever used it). */
export class DatabaseNotOpenError extends Error {
  override name = 'DatabaseNotOpenError';
  constructor() {
    super('the database is not open yet: nothing may use it while the app is being built');
  }
}

export interface DeferredDatabase {
  /** The handle the app is built with; every use before `open` throws DatabaseNotOpenError. */
  handle: DatabaseHandle;
  /** The database, opened and migrated: from now on the handle is it. */
  open(database: DatabaseHandle): void;
}

/**
 * A handle for the embedded database before it is open (ADR 116): PGlite opens in its own thread
 * for a second or more, and server/main.ts builds the app meanwhile, registering every route and
 * plugin with this handle. Nothing may query while the app is built (the schema may not be migrated
 * yet), so any use before `open` throws instead of waiting; once open, each member is the real
 * handle's. A plugin may keep `app.db` from its registration for its requests (the sessions do):
 * before `open` that is a stand-in, whose every member is the real database's once open. Only what
 * an embedded handle has: no `executeSql` or `jobQueueSql` (PostgreSQL's).
 */
export function deferredEmbeddedDatabase(): DeferredDatabase {
  let real: DatabaseHandle | null = null;
  const opened = (): DatabaseHandle => {
    if (!real) throw new DatabaseNotOpenError();
    return real;
  };
  // The stand-in's methods, bound to the real database once (they never change).
  const bound = new Map<PropertyKey, unknown>();
  const standIn = new Proxy(Object.create(null) as Db, {
    get(_target, key) {
      const db = opened().db;
      const known = bound.get(key);
      if (known !== undefined) return known;
      const value: unknown = Reflect.get(db, key, db);
      if (typeof value !== 'function') return value;
      const method = value.bind(db);
      bound.set(key, method);
      return method;
    },
    has(_target, key) {
      return Reflect.has(opened().db, key);
    },
  });
  const handle: DatabaseHandle = {
    kind: 'pglite',
    get db() {
      return real ? real.db : standIn;
    },
    get pglite() {
      return opened().pglite;
    },
    ping: () => opened().ping(),
    listen: (channel: string, handlers: ListenHandlers) => opened().listen(channel, handlers),
    close: () => opened().close(),
    poolStats: () => opened().poolStats(),
  };
  return {
    handle,
    open(database) {
      if (database.kind !== 'pglite') throw new Error('a deferred embedded handle opened with PostgreSQL');
      real = database;
    },
  };
}
