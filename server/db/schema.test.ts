import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../errors';
import { openTestDatabase } from '../test/helpers';
import { type DatabaseHandle, openPglite } from './client';
import { migrateDatabase } from './migrate';
import { barterRequests, items, users, wants } from './schema/index';

/** The error a statement the database refuses fails with (the test fails when it succeeds). */
async function refusal(statement: PromiseLike<unknown>): Promise<unknown> {
  try {
    await statement;
  } catch (error) {
    return error;
  }
  throw new Error('the database accepted the statement');
}

/** The database's own error in a failure's cause chain: its SQLSTATE `code` and `constraint`. */
function databaseError(error: unknown): { code?: unknown; constraint?: unknown } | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current instanceof Object; depth++) {
    if (typeof (current as { code?: unknown }).code === 'string') return current as { code: string };
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

describe('schema (spec section 3)', () => {
  let database: DatabaseHandle;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ handle: database, drop } = await openTestDatabase());
  });
  afterAll(() => drop());

  it('applies the spec defaults', async () => {
    const [user] = await database.db
      .insert(users)
      .values({ firstName: 'Ada', email: 'ada@example.com' })
      .returning();
    expect(user).toMatchObject({ maxTravelDistance: 25, onboardingCompleted: false });
    const [item] = await database.db
      .insert(items)
      .values({
        userId: user?.id ?? '',
        title: 'Drill',
        description: 'Works',
        category: 'tools',
        estimatedValue: 12.5,
      })
      .returning();
    expect(item).toMatchObject({ isService: false, isActive: true, viewCount: 0, estimatedValue: 12.5 });
    const [request] = await database.db
      .insert(barterRequests)
      .values({ fromUserId: user?.id, toItemId: item?.id })
      .returning();
    expect(request?.status).toBe('pending');
  });

  it('keeps e-mail unique', async () => {
    await database.db.insert(users).values({ email: 'same@example.com' });
    const duplicate = await refusal(database.db.insert(users).values({ email: 'same@example.com' }));
    expect(isUniqueViolation(duplicate, 'users_email_unique')).toBe(true);
  });

  it('stores coordinates and prices with the spec precision', async () => {
    const [user] = await database.db
      .insert(users)
      .values({ latitude: 45.123456789, longitude: -122.123456789 })
      .returning();
    expect(user?.latitude).toBeCloseTo(45.12345679, 8);
    expect(user?.longitude).toBeCloseTo(-122.12345679, 8);
    for (const maxTravelDistance of [0, 101]) {
      const outOfRange = await refusal(database.db.insert(users).values({ maxTravelDistance }));
      expect(databaseError(outOfRange), String(maxTravelDistance)).toMatchObject({
        code: '23514', // check_violation
        constraint: 'users_max_travel_distance_range',
      });
    }
  });

  it("deleting a member removes their listings and wants but keeps others' trade history", async () => {
    const [alice] = await database.db.insert(users).values({ firstName: 'Alice' }).returning();
    const [bob] = await database.db.insert(users).values({ firstName: 'Bob' }).returning();
    if (!alice || !bob) throw new Error('insert failed');
    const [item] = await database.db
      .insert(items)
      .values({ userId: alice.id, title: 'Bike', description: 'Blue', category: 'bikes' })
      .returning();
    await database.db.insert(wants).values({ userId: alice.id, title: 'Lamp', category: 'household' });
    const [request] = await database.db
      .insert(barterRequests)
      .values({ fromUserId: bob.id, toUserId: alice.id, toItemId: item?.id, status: 'completed' })
      .returning();
    await database.db.delete(users).where(eq(users.id, alice.id));
    expect(await database.db.select().from(items).where(eq(items.userId, alice.id))).toEqual([]);
    expect(await database.db.select().from(wants).where(eq(wants.userId, alice.id))).toEqual([]);
    const [kept] = await database.db
      .select()
      .from(barterRequests)
      .where(eq(barterRequests.id, request?.id ?? 0));
    expect(kept).toMatchObject({ fromUserId: bob.id, toUserId: null, toItemId: null, status: 'completed' });
  });
});

describe('embedded database on disk', () => {
  it('keeps its data across a close and reopen', async () => {
    const dataDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'bh-pglite-')), 'pglite');
    const first = await openPglite({ dataDir });
    await migrateDatabase(first);
    await first.db.insert(users).values({ firstName: 'Persisted', email: 'kept@example.com' });
    await first.close();

    const second = await openPglite({ dataDir });
    await migrateDatabase(second); // idempotent on an up-to-date database
    const rows = await second.db.select().from(users).where(eq(users.email, 'kept@example.com'));
    expect(rows.map((r) => r.firstName)).toEqual(['Persisted']);
    await second.close();
  }, 60_000);
});
