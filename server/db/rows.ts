import type { SQL } from 'drizzle-orm';
import type { Db } from './client';

/**
 * The rows of a raw SQL statement. Both drivers answer `{ rows }`; cast every column in SQL to a
 * type both parse alike (`::int`, `::text`, `::float8`).
 */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
