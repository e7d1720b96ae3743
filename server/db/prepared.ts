import { createHash } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { type Db, namedStatements } from './client';
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
 * whose best plan does not depend on them, such as look-ups by primary key. It runs as a named
 * prepared statement, so the database parses it once per connection instead of on every request:
 * on PostgreSQL node-postgres keeps one per connection; PGlite (one connection) keeps it in its
 * thread (PgliteThread.queryNamed), outside transactions. PostgreSQL plans it
 * afresh for its first five executions, then keeps one plan for the connection when that plan
 * (made without the values) is priced no dearer than those were: a page's LIMIT and OFFSET are
 * best written with pageBounds for that.
 *
 * Rows read as `db.execute` reads them (drizzle's parsers), on either database.
 */
export async function queryPrepared<T>(db: Db, query: SQL): Promise<T[]> {
  const client = (db as { $client?: unknown }).$client;
  const named = typeof client === 'object' && client !== null ? namedStatements.get(client) : undefined;
  if (!named) return queryRows<T>(db, query);
  const { sql: text, params } = dialect.sqlToQuery(query);
  return (await named.queryNamed<T>(nameOf(text), text, params as unknown[])).rows;
}

/** The sizes pageBounds rounds a LIMIT up to: a page of 20 and the first five, then hundreds. */
const PAGE_SIZES = [21, 41, 61, 81, 101, 201, 301, 401, 501, 601, 701, 801, 901, 1001];

/**
 * `LIMIT limit OFFSET offset` for a prepared statement (queryPrepared), from the start (offset 0)
 * with the limit rounded up to one of a few sizes (PAGE_SIZES) and written into the text, so that
 * PostgreSQL keeps one plan per connection for it. As parameters, PostgreSQL prices the plan it
 * would keep as if LIMIT kept a tenth of the rows and OFFSET skipped a tenth: dearer than the plans
 * it makes with the values, so it planned every execution afresh (Barter Match's page from the
 * graph: 0.6 ms of planning for 0.4 ms of work, bench:feed 2026-12-04). The statement may return
 * more rows than `limit` (up to the next size): the caller takes what it needs. Past the last size,
 * or from an offset, both stay parameters.
 */
export function pageBounds(limit: number, offset: number): SQL {
  const size = PAGE_SIZES.find((candidate) => candidate >= limit);
  if (offset !== 0 || size === undefined || !Number.isSafeInteger(limit) || limit < 0) {
    return sql`LIMIT ${limit}::int OFFSET ${offset}::int`;
  }
  return sql.raw(`LIMIT ${size}`);
}

/**
 * An array parameter (`array`, cast) as a prepared statement's planner should see it: of unknown
 * length, whether it plans with the values or without. With the values PostgreSQL reads the
 * array's length (`unnest` of three owners: three rows); without them it assumes ten, so a statement
 * whose cost grows with the array is priced dearer without the values whenever the array is short,
 * and PostgreSQL planned it afresh on every execution (the viewer's marks on Barter Match: 0.85 ms of
 * planning for 0.24 ms of work, bench:feed 2026-12-04). As a one-row subquery the array is a value
 * neither plan reads, so both price it alike and PostgreSQL keeps its plan.
 */
export function unsizedArray(array: SQL): SQL {
  return sql`(SELECT ${array})`;
}
