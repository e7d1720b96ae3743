import { count, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { items, wants } from '../db/schema/trading';
import { createUser, sessionCookiesFor } from '../test/factories';
import { buildTestApp, type TestApp } from '../test/helpers';

const ITEM = { title: 'Flood', description: 'One of many.', category: 'tools', isService: false };
const WANT = { title: 'Ladder', category: 'tools', isService: false };

/** Issue 12 point 6: one session created 3,332 items in 6 s. */
describe('per-member limits on new items and wants', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ ITEM_CREATE_RATE_LIMIT: '5', WANT_CREATE_RATE_LIMIT: '3' });
  });
  afterAll(() => t.close());
  // The limiter counts in windows of Date.now(); only Date is faked, so I/O timers run normally.
  afterEach(() => {
    vi.useRealTimers();
  });

  const member = async () => {
    const user = await createUser(t.database.db);
    return { user, cookies: await sessionCookiesFor(t.app, user) };
  };
  const post = (url: string, payload: object, cookies: Record<string, string>, remoteAddress?: string) =>
    t.app.inject({ method: 'POST', url, payload, cookies, ...(remoteAddress ? { remoteAddress } : {}) });
  const stored = async (table: typeof items | typeof wants, userId: string) => {
    const [row] = await t.database.db.select({ n: count() }).from(table).where(eq(table.userId, userId));
    return row?.n ?? 0;
  };

  it('answers a flood of new items with 429 and Retry-After once the limit is reached', async () => {
    const { user, cookies } = await member();
    // One item first, alone: this fresh process's first listing pays its one-off costs (the
    // moderation patterns compiled, PGlite's first reads of these tables) outside the flood. On a
    // starved CI host those costs, inside a flood, kept the flood waiting for the database past
    // DB_ACQUIRE_TIMEOUT_MS and it was answered 503 (by design: no request waits more than 2 s).
    expect((await post('/api/items', ITEM, cookies)).statusCode).toBe(201);
    const responses = await Promise.all(Array.from({ length: 12 }, () => post('/api/items', ITEM, cookies)));
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([...Array(4).fill(201), ...Array(8).fill(429)]);
    expect(await stored(items, user.id)).toBe(5);

    const refused = responses.find((response) => response.statusCode === 429);
    expect(refused?.json()).toEqual({
      message: expect.stringMatching(
        /^Too many new items: at most 5 an hour\. Please try again in \d+ minutes?\.$/,
      ),
      code: 'RATE_LIMITED',
    });
    const retryAfter = Number(refused?.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
  });

  it('counts per member, whatever the address, and leaves other members alone', async () => {
    const flooder = await member();
    const neighbour = await member();
    for (let i = 0; i < 5; i++) {
      // A new address for every request: the budget follows the account, not the address.
      expect((await post('/api/items', ITEM, flooder.cookies, `10.9.0.${i}`)).statusCode).toBe(201);
    }
    expect((await post('/api/items', ITEM, flooder.cookies, '10.9.1.1')).statusCode).toBe(429);
    // Same address as the flooder's last request: still the neighbour's own budget.
    expect((await post('/api/items', ITEM, neighbour.cookies, '10.9.1.1')).statusCode).toBe(201);
  });

  it('limits wants separately from items, then lets the member list again after an hour', async () => {
    const { user, cookies } = await member();
    for (let i = 0; i < 3; i++) expect((await post('/api/wants', WANT, cookies)).statusCode).toBe(201);
    const refused = await post('/api/wants', WANT, cookies);
    expect(refused.statusCode).toBe(429);
    expect(refused.json<{ message: string }>().message).toMatch(/^Too many new wants: at most 3 an hour\./);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await stored(wants, user.id)).toBe(3);
    // The want budget is spent, the item budget is not.
    expect((await post('/api/items', ITEM, cookies)).statusCode).toBe(201);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 60 * 60 * 1000 + 1000);
    expect((await post('/api/wants', WANT, cookies)).statusCode).toBe(201);
  });

  it('answers signed-out callers 401, not 429, and does not spend anyone’s budget on them', async () => {
    for (let i = 0; i < 8; i++) {
      expect((await post('/api/wants', WANT, {}, '10.9.2.1')).statusCode).toBe(401);
    }
    const { cookies } = await member();
    expect((await post('/api/wants', WANT, cookies, '10.9.2.1')).statusCode).toBe(201);
  });
});
