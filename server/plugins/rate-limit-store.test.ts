import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/helpers';

/**
 * The rate-limit counters (ADR 044): in PostgreSQL when the app runs on it (shared by every process),
 * in memory on PGlite. Either way a limit holds under requests sent at once and keys stay apart.
 */
describe('rate-limit counters', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ SITE_PASSWORD: 'open sesame', GATE_RATE_LIMIT: '5', REGISTER_RATE_LIMIT: '2' });
  });
  afterAll(() => t.close());

  const guess = (remoteAddress: string) =>
    t.app.inject({ method: 'POST', url: '/api/verify-password', payload: { password: 'x' }, remoteAddress });

  it('lets exactly the limit through when 30 requests come at once', async () => {
    const responses = await Promise.all(Array.from({ length: 30 }, () => guess('192.0.2.10')));
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(25);
    const limited = responses.find((response) => response.statusCode === 429);
    const retryAfter = Number(limited?.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('counts each address and each route apart', async () => {
    expect((await guess('192.0.2.11')).statusCode).toBe(401);
    // Another route, same address as the one already limited: its own count.
    const register = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {},
      remoteAddress: '192.0.2.10',
    });
    expect(register.statusCode).not.toBe(429);
  });

  it('keeps a hostile key (control characters, 10 KB) without error', async () => {
    const member = await t.app.inject({
      method: 'POST',
      url: '/api/verify-password',
      payload: { password: 'x' },
      remoteAddress: `\u0000\n${'a'.repeat(10_000)}`,
    });
    expect([401, 429]).toContain(member.statusCode);
  });

  it.runIf(Boolean(inject('pgTemplateUrl')))(
    'PostgreSQL: counts in the shared table, every process the same',
    async () => {
      const result = await t.database.executeSql?.(
        "SELECT count FROM rate_limit_counters WHERE key LIKE 'POST /api/verify-password %' ORDER BY count DESC LIMIT 1",
      );
      expect((result?.rows[0] as { count: number } | undefined)?.count).toBe(30);
    },
  );
});
