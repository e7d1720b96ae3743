import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { pageBounds } from './prepared';

const dialect = new PgDialect();
const render = (limit: number, offset: number) => dialect.sqlToQuery(pageBounds(limit, offset));

describe('pageBounds', () => {
  it('writes a page from the start into the text, rounded up to one of a few sizes', () => {
    expect(render(21, 0)).toEqual({ sql: 'LIMIT 21', params: [] });
    expect(render(1, 0)).toEqual({ sql: 'LIMIT 21', params: [] });
    expect(render(22, 0)).toEqual({ sql: 'LIMIT 41', params: [] });
    expect(render(101, 0)).toEqual({ sql: 'LIMIT 101', params: [] });
    expect(render(181, 0)).toEqual({ sql: 'LIMIT 201', params: [] });
    expect(render(1001, 0)).toEqual({ sql: 'LIMIT 1001', params: [] });
    // A connection keeps few statements: every window of a feed (rankingWindow + 1) lands on 14 sizes.
    const sizes = new Set(Array.from({ length: 1001 }, (_, i) => render(i + 1, 0).sql));
    expect(sizes.size).toBe(14);
  });

  it('keeps parameters from an offset, past the last size, and for what is not a count', () => {
    for (const [limit, offset] of [
      [20, 80],
      [1002, 0],
      [2.5, 0],
      [-1, 0],
      [Number.NaN, 0],
    ]) {
      expect(render(limit as number, offset as number)).toMatchObject({
        sql: 'LIMIT $1::int OFFSET $2::int',
        params: [limit, offset],
      });
    }
  });
});
