import { rmSync } from 'node:fs';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app';
import { createLogger } from '../logger';
import { openTestDatabase, testConfig } from '../test/helpers';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A log destination kept in memory. */
function memoryStream() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { stream, lines: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('request ids', () => {
  let app: FastifyInstance;
  let drop: () => Promise<void>;
  const config = testConfig();
  const log = memoryStream();
  beforeAll(async () => {
    const opened = await openTestDatabase();
    drop = opened.drop;
    app = await buildApp({ config, database: opened.handle, logger: createLogger('info', log.stream) });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await drop();
    rmSync(config.dataDir, { recursive: true, force: true });
  });

  it('keeps a safe incoming x-request-id: echoed, and on the request log lines', async () => {
    for (const id of ['abc-123.DEF_4', 'f'.repeat(64)]) {
      const response = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': id } });
      expect(response.headers['x-request-id']).toBe(id);
      const lines = log.lines().filter((line) => line.reqId === id);
      expect(lines.map((line) => line.msg)).toEqual(
        expect.arrayContaining(['incoming request', 'request completed']),
      );
    }
  });

  it('replaces a hostile or oversized one with a fresh id, which never reaches the logs', async () => {
    for (const id of ['x'.repeat(65), 'a'.repeat(10_000), 'two words', 'evil\u0007bell', '../../etc', '']) {
      const response = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': id } });
      const echoed = response.headers['x-request-id'];
      expect(echoed, JSON.stringify(id.slice(0, 20))).toMatch(UUID);
      expect(log.lines().some((line) => line.reqId === echoed)).toBe(true);
      if (id !== '') expect(JSON.stringify(log.lines())).not.toContain(id);
    }
  });

  it('gives every answer an id, errors and unknown routes included, each a new one', async () => {
    const ids = new Set<string>();
    for (const url of ['/healthz', '/no/such/route', '/api/auth/user']) {
      const response = await app.inject({ method: 'GET', url });
      const id = String(response.headers['x-request-id']);
      expect(id, url).toMatch(UUID);
      ids.add(id);
    }
    expect(ids.size).toBe(3);
  });

  it('carries the id onto what a request logs later, in the background (the welcome e-mail)', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'x-request-id': 'signup-req-1' },
      payload: {
        firstName: 'Rita',
        lastName: 'Request',
        email: 'rita@example.com',
        password: 'Plum-Orchard-42',
      },
    });
    expect(response.statusCode).toBe(201);
    await vi.waitFor(() => {
      const mailed = log.lines().find((line) => line.msg === 'mail written to the outbox');
      expect(mailed?.reqId).toBe('signup-req-1');
    });
  });
});
