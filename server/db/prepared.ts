import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { type Db, postgresPools } from './client';
import { queryRows } from './rows';

const dialect = new PgDialect();
/** Statement names by text, so each text is hashed once. */
const names = new Map<string, string>();
const NAMES_MAX = 1_000;

function nameOf(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `bh_${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
    if (names.size >= NAMES_MAX) names.clear();
    names.set(text, name);
  }
  return name;
}

/**
 * The rows of a statement whose text is the same on every call (only its parameters vary) and
 * whose best plan does not depend on them, such as look-ups by primary key. On PostgreSQL it runs
 * as a named prepared statement (node-postgres keeps one per connection), so the server parses
 * and plans it once per connection instead of on every request; PGlite runs it as usual.
 *
 * Every column must be cast in SQL to a type both drivers parse alike (as `db.execute` callers do).
 */
export async function queryPrepared<T>(db: Db, query: SQL): Promise<T[]> {
  const client = (db as { $client?: unknown }).$client;
  if (typeof client === 'object' && client !== null && postgresPools.has(client)) {
    const { sql: text, params } = dialect.sqlToQuery(query);
    const result = await (client as pg.Pool).query({ name: nameOf(text), text, values: params as unknown[] });
    return result.rows as T[];
  }
  return queryRows<T>(db, query);
}
