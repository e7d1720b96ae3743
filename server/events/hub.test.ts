import { randomUUID } from 'node:crypto';
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { users } from '../db/schema/users';
import { createUser } from '../test/factories';
import { holdDatabase, openTestDatabase } from '../test/helpers';
import { PRESENCE_BATCH, writePresence } from './hub';

describe('the presence write of the members with a page open (ADR 104)', () => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.drop());

  it(`marks every member seen, ${PRESENCE_BATCH} members per statement`, async () => {
    const db = database.handle.db;
    const members = [await createUser(db), await createUser(db), await createUser(db)];
    // Real members at a batch's first and last place and in the last, short batch; the others are
    // members who left meanwhile (no row), as a heartbeat can see.
    const ids: string[] = Array.from({ length: 2 * PRESENCE_BATCH + 50 }, () => randomUUID());
    ids[0] = members[0]?.id ?? '';
    ids[PRESENCE_BATCH - 1] = members[1]?.id ?? '';
    ids[ids.length - 1] = members[2]?.id ?? '';
    const before = await db
      .select({ lastSeenAt: users.lastSeenAt })
      .from(users)
      .where(inArray(users.id, ids));
    expect(before).toEqual([{ lastSeenAt: null }, { lastSeenAt: null }, { lastSeenAt: null }]);
    const statements = vi.spyOn(db, 'execute');
    try {
      await writePresence(db, ids);
      expect(statements).toHaveBeenCalledTimes(3);
    } finally {
      statements.mockRestore();
    }
    const seen = await db
      .select({ id: users.id, lastSeenAt: users.lastSeenAt })
      .from(users)
      .where(inArray(users.id, ids));
    expect(seen).toHaveLength(3);
    for (const member of seen) expect(member.lastSeenAt).not.toBeNull();
  });

  it.skipIf(Boolean(inject('pgTemplateUrl')))(
    'lets a member’s request that waits for the embedded database go first',
    async () => {
      const db = database.handle.db;
      const ids = Array.from({ length: 2 * PRESENCE_BATCH }, () => randomUUID());
      const order: string[] = [];
      const release = await holdDatabase(database.handle);
      const presence = writePresence(db, ids).then(() => order.push('presence'));
      // The presence write waits for the connection first; the request comes after it.
      await expect.poll(() => database.handle.poolStats().waiting).toBe(1);
      const request = db.execute(sql`SELECT 1`).then(() => order.push('request'));
      await expect.poll(() => database.handle.poolStats().waiting).toBe(2);
      await release();
      await Promise.all([presence, request]);
      expect(order).toEqual(['request', 'presence']);
    },
  );
});
