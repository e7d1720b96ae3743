import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTrustProxy } from '../config';
import { buildTestApp, type TestApp } from '../test/helpers';

/** Five wrong site passwords from `remoteAddress`, forwarded for `forwardedFor`: their statuses. */
async function guesses(t: TestApp, remoteAddress: string, forwardedFor: string, count: number) {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/verify-password',
      payload: { password: 'guess' },
      remoteAddress,
      headers: { 'x-forwarded-for': forwardedFor },
    });
    statuses.push(response.statusCode);
  }
  return statuses;
}

describe('TRUST_PROXY (ADR 044)', () => {
  it('reads address lists, refuses anything a visitor could exploit', () => {
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('uniquelocal')).toEqual(['uniquelocal']);
    expect(parseTrustProxy('10.0.0.0/8, 127.0.0.1,::1,fd00::/8')).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'fd00::/8',
    ]);
    for (const bad of [
      'true',
      '11',
      '-1',
      '1.5',
      '10.0.0.0/33',
      '::1/129',
      'proxy.local',
      '10.0.0.1/8/1',
      ',',
    ]) {
      expect(parseTrustProxy(bad), bad).toBeUndefined();
    }
  });

  describe('off (the default)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp({ SITE_PASSWORD: 'open sesame', GATE_RATE_LIMIT: '3' });
    });
    afterAll(() => t.close());

    it('ignores X-Forwarded-For: a guesser cannot pick a fresh address for each attempt', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push(...(await guesses(t, '203.0.113.7', `198.51.100.${i}`, 1)));
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
    });
  });

  describe('one proxy in front', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp({
        SITE_PASSWORD: 'open sesame',
        GATE_RATE_LIMIT: '3',
        TRUST_PROXY: '10.0.0.0/8',
      });
    });
    afterAll(() => t.close());

    it('counts each visitor behind the proxy apart, by the address the proxy adds', async () => {
      const proxy = '10.0.0.2';
      expect(await guesses(t, proxy, '198.51.100.1', 4)).toEqual([401, 401, 401, 429]);
      // A neighbour behind the same proxy still gets in.
      expect(await guesses(t, proxy, '198.51.100.2', 1)).toEqual([401]);
      // An address the visitor wrote itself comes before the proxy's and is not believed.
      expect(await guesses(t, proxy, '192.0.2.99, 198.51.100.1', 1)).toEqual([429]);
      // Sent straight to the server, not through the proxy, X-Forwarded-For is not believed.
      expect(await guesses(t, '203.0.113.9', '198.51.100.3', 4)).toEqual([401, 401, 401, 429]);
      expect(await guesses(t, '203.0.113.9', '198.51.100.4', 1)).toEqual([429]);
    });
  });

  it('a bad TRUST_PROXY stops start-up with the setting named', async () => {
    await expect(buildTestApp({ TRUST_PROXY: 'true' })).rejects.toThrow(/TRUST_PROXY must be/);
  });
});
