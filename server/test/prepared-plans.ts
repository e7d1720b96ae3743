import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { Db } from '../db/client';

/** A node of a plan as EXPLAIN (FORMAT JSON) gives it, with the fields tests read. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Alias?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Order By'?: string;
  'Total Cost'?: number;
  Plans?: PlanNode[];
}

/** Every node of a plan, the root first. */
export function* walk(node: PlanNode): Generator<PlanNode> {
  yield node;
  for (const child of node.Plans ?? []) yield* walk(child);
}

/** What PostgreSQL did with a prepared statement (preparedPlans). */
export interface PreparedPlans {
  /** Executions planned with their values. */
  custom: number;
  /** Executions that used the plan kept for the connection (made without the values). */
  generic: number;
  /** The plan an execution uses now (EXPLAIN EXECUTE): the kept one once it is kept. */
  plan: PlanNode;
}

/**
 * On PostgreSQL (a test database of buildTestApp): runs `query` as the named prepared statement
 * `name` `runs` times on one connection, as queryPrepared does, and reads from
 * pg_prepared_statements how PostgreSQL planned it. PostgreSQL plans the first five executions with
 * their values, then keeps one plan made without them when it is priced no dearer: 7 runs of a
 * statement that keeps its plan give { custom: 5, generic: 2 }.
 */
export async function preparedPlans(db: Db, name: string, query: SQL, runs = 7): Promise<PreparedPlans> {
  const { sql: text, params: values } = new PgDialect().sqlToQuery(query);
  const client = await (db as unknown as { $client: pg.Pool }).$client.connect();
  try {
    for (let run = 0; run < runs; run++) await client.query({ name, text, values: values as unknown[] });
    const stats = await client.query<{ generic: number; custom: number }>(
      'SELECT generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements WHERE name = $1',
      [name],
    );
    // EXPLAIN takes no parameters: the values as literals.
    const literals = values.map((value) => client.escapeLiteral(String(value))).join(', ');
    const explained = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
      `EXPLAIN (FORMAT JSON) EXECUTE ${name}(${literals})`,
    );
    const row = stats.rows[0];
    const plan = explained.rows[0]?.['QUERY PLAN'][0]?.Plan;
    if (!row || !plan) throw new Error(`no prepared statement ${name}`);
    return { ...row, plan };
  } finally {
    await client.query(`DEALLOCATE ${name}`).catch(() => undefined);
    client.release();
  }
}
