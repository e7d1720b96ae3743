import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openTestDatabase } from '../test/helpers';
import { intArray } from './arrays';
import type { DatabaseHandle } from './client';
import { queryPrepared } from './prepared';
import { queryRows } from './rows';

/**
 * queryPrepared runs a statement as a named prepared statement on both databases: node-postgres
 * keeps it per connection on PostgreSQL, and PGlite's thread keeps it on its one connection, so
 * either parses it once and can keep its plan (server/db/prepared.ts).
 */
describe('queryPrepared', () => {
  let database: DatabaseHandle;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ handle: database, drop } = await openTestDatabase());
  });
  afterAll(() => drop());

  it('answers what the same statement answers unprepared, every parameter type it is given', async () => {
    const when = new Date('2026-12-04T10:11:12.345Z');
    const statement = sql`SELECT ${7}::int AS n, ${2.5}::float8 AS f, ${'it\'s "quoted"'}::text AS t,
      ${true}::boolean AS yes, ${null}::text AS nothing, ${when}::timestamptz = '2026-12-04 10:11:12.345+00' AS same_time,
      ${intArray([3, 1, 2])}::int[] AS ids, ${'{"a":[1,2]}'}::jsonb AS doc,
      ${'5f0c6b0e-8a4e-4c2a-9d7b-0b6d1c1e2f3a'}::uuid AS id`;
    const unprepared = await queryRows(database.db, statement);
    for (let run = 0; run < 3; run++) expect(await queryPrepared(database.db, statement)).toEqual(unprepared);
    expect(unprepared).toEqual([
      {
        n: 7,
        f: 2.5,
        t: 'it\'s "quoted"',
        yes: true,
        nothing: null,
        same_time: true,
        ids: [3, 1, 2],
        doc: { a: [1, 2] },
        id: '5f0c6b0e-8a4e-4c2a-9d7b-0b6d1c1e2f3a',
      },
    ]);
  });

  /**
   * drizzle keeps times, dates, intervals (and their arrays) and numeric arrays as PostgreSQL's text
   * (ADR 126): prepared statements read them with the same parsers, given with each statement on
   * PostgreSQL and put into PGlite's own map in its thread.
   */
  it('reads every kind of column as the same statement unprepared reads it', async () => {
    const statement = sql`SELECT '2026-12-04 10:11:12.345+00'::timestamptz AS at,
      '2026-12-04 10:11:12'::timestamp AS local_at, '2026-12-04'::date AS day, '1 day 02:00'::interval AS span,
      12.50::numeric AS amount, 9007199254740993::int8 AS big, ${2}::int2 AS small, 1.5::float4 AS half,
      ARRAY[1.5, 2]::numeric[] AS amounts, ARRAY['2026-12-04 10:11:12+00']::timestamptz[] AS ats,
      ARRAY['2026-12-04']::date[] AS days, ARRAY[true, false] AS flags, ARRAY['a', 'b c']::text[] AS words,
      ARRAY[1.25]::float8[] AS floats, '{"k": 1}'::json AS doc, 'a-b'::bytea AS raw, ${'x'} AS param`;
    const unprepared = await queryRows(database.db, statement);
    for (let run = 0; run < 3; run++) expect(await queryPrepared(database.db, statement)).toEqual(unprepared);
    expect(unprepared[0]).toMatchObject({
      at: expect.any(String),
      day: '2026-12-04',
      span: '1 day 02:00:00',
      amounts: '{1.5,2}',
      days: '{2026-12-04}',
    });
  });

  it('a value the type refuses is a clear error, and the statement still runs with the next', async () => {
    const byId = (id: string) => sql`SELECT count(*)::int AS n FROM users WHERE id = ${id}::uuid`;
    await expect(queryPrepared(database.db, byId('not-a-uuid'))).rejects.toMatchObject({ code: '22P02' });
    expect(await queryPrepared(database.db, byId('5f0c6b0e-8a4e-4c2a-9d7b-0b6d1c1e2f3a'))).toEqual([
      { n: 0 },
    ]);
    await expect(queryPrepared(database.db, byId('still not one'))).rejects.toMatchObject({ code: '22P02' });
    expect(await queryPrepared(database.db, byId('5f0c6b0e-8a4e-4c2a-9d7b-0b6d1c1e2f3a'))).toEqual([
      { n: 0 },
    ]);
  });

  it('a statement PostgreSQL cannot parse fails the same way every time, and nothing is left behind', async () => {
    const broken = sql`SELECT FROM WHERE ${1}::int`;
    for (let run = 0; run < 2; run++) {
      await expect(queryPrepared(database.db, broken)).rejects.toMatchObject({ code: '42601' });
    }
    expect(await queryPrepared(database.db, sql`SELECT ${1}::int AS one`)).toEqual([{ one: 1 }]);
  });

  it('runs inside a transaction as an ordinary statement of it', async () => {
    const rows = await database.db.transaction(async (tx) =>
      queryPrepared(tx, sql`SELECT ${41}::int + 1 AS n`),
    );
    expect(rows).toEqual([{ n: 42 }]);
  });

  /** One connection: what PGlite's thread prepared is what pg_prepared_statements lists. */
  it.skipIf(Boolean(inject('pgTemplateUrl')))(
    'on PGlite the statement is parsed once and, after five executions, its plan is kept',
    async () => {
      const marker = 'prepared_statements_test_marker';
      const statement = sql`SELECT u.id FROM users u WHERE u.id = ${'5f0c6b0e-8a4e-4c2a-9d7b-0b6d1c1e2f3a'}::uuid ${sql.raw(`/* ${marker} */`)}`;
      for (let run = 0; run < 7; run++) await queryPrepared(database.db, statement);
      const listed = await queryRows<{ generic: number; custom: number }>(
        database.db,
        sql`SELECT generic_plans::int AS generic, custom_plans::int AS custom
            FROM pg_prepared_statements WHERE statement LIKE ${`%${marker}%`} AND name LIKE 'bh\\_%'`,
      );
      expect(listed).toEqual([{ generic: 2, custom: 5 }]);
    },
  );
});
