/**
 * Graceful shutdown (issue 18, ADR 041) with the real server in its own process (server/main.ts, as
 * `npm start` runs it) on the embedded database: on SIGTERM a request in flight finishes, new
 * connections are refused, a new request on a kept-alive connection gets 503, an open event stream
 * is ended, the embedded database checkpoints and
 * closes, and the process exits 0 well within 10 s; the data directory then opens cleanly with the
 * in-flight request's write in it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { type RunningServer, request, startServer } from '../scripts/bench-server';
import type { DatabaseHandle } from './db/client';
import { openEmbeddedDatabase } from './db/embedded';
import { lockDataDir } from './db/lock';
import { queryRows } from './db/rows';
import { gracefulShutdown } from './shutdown';
import { type EventStreamClient, openEventStream } from './test/event-stream-client';

const ROOT = path.resolve(import.meta.dirname, '..');
/** This file's port (this machine's shutdown and load-shedding runs keep to 5400-5449). */
const PORT = 5440;
const PASSWORD = 'correct horse battery staple 42';

/** Whether a new connection to the server's port is refused now. */
function refused(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(PORT, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/** Poll until `check` holds (at most 5 s). */
async function until(check: () => boolean): Promise<void> {
  const deadline = performance.now() + 5_000;
  while (!check()) {
    if (performance.now() > deadline) throw new Error('not within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** An interim `100 Continue` answer, which the server sends once it has a request's headers. */
const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n';

/** The status, headers (lower-case names) and body of the first final HTTP answer in `text`. */
function parseAnswer(text: string): { status: number; headers: Record<string, string>; body: string } {
  const [head = '', ...rest] = text.replace(CONTINUE, '').split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  return { status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n').slice(0, length) };
}

/** A raw HTTP/1.1 connection, to send a request's body in two parts and read what comes back. */
function rawConnection(): Promise<{ socket: net.Socket; received: () => string; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(PORT, '127.0.0.1');
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      data += chunk;
    });
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.once('connect', () => resolve({ socket, received: () => data, closed }));
    socket.once('error', reject);
  });
}

describe.skipIf(!!inject('pgTemplateUrl'))(
  'SIGTERM on the embedded database (the PostgreSQL run skips it: PGlite is what checkpoints)',
  () => {
    let dataDir: string;
    let server: RunningServer;

    beforeAll(async () => {
      // Under the checkout's ignored .data-* directories.
      dataDir = mkdtempSync(path.join(ROOT, '.data-shutdown-'));
      server = await startServer(
        { DATA_DIR: dataDir, PHOTO_SCREENING: 'false', CIRCLE_FINDER: 'false' },
        { logLevel: 'warn', port: PORT },
      );
    }, 60_000);
    afterAll(async () => {
      await server?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('finishes the request in flight, refuses new ones, ends event streams, checkpoints and exits 0', async () => {
      // A member with a live event stream open.
      const registered = await request(
        server.base,
        'POST',
        '/api/auth/register',
        { 'content-type': 'application/json' },
        JSON.stringify({
          firstName: 'Sam',
          lastName: 'Stone',
          email: 'streaming@example.com',
          password: PASSWORD,
        }),
      );
      expect(registered.status, registered.body).toBe(201);
      const cookie = registered.setCookie.map((value) => value.split(';', 1)[0]).join('; ');
      const stream: EventStreamClient = await openEventStream(server.base, { cookie });
      expect(stream.status).toBe(200);
      await stream.next('counts');

      // A kept-alive connection: one request answered, the next one's headers half sent
      // (before the request in flight, whose interim answer then says the server has read them too).
      const keptAlive = await rawConnection();
      keptAlive.socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${PORT}\r\n\r\n`);
      await until(() => keptAlive.received().includes('{"status":"ok"}'));
      const answered = keptAlive.received().length;
      keptAlive.socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${PORT}\r\n`);

      // A request in flight, a write: the member's profile, its headers in and half of its body. A
      // light one: a sign-up in flight (a password hash in the worker pool, a mail) outran the 7 s
      // grace on a host busy with the whole test run, and what is tested is that the server waits
      // for the request, not how fast a sign-up is. It asks to continue, so the server's
      // `100 Continue` says when it has the headers and the request is under way.
      const body = JSON.stringify({
        location: 'Portland, OR',
        latitude: 45.5122,
        longitude: -122.6587,
        maxTravelDistance: 10,
      });
      const inFlight = await rawConnection();
      inFlight.socket.write(
        `PUT /api/user/profile HTTP/1.1\r\nHost: 127.0.0.1:${PORT}\r\nContent-Type: application/json\r\n` +
          `Cookie: ${cookie}\r\nExpect: 100-continue\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
          body.slice(0, 20),
      );
      await until(() => inFlight.received().startsWith(CONTINUE));

      const signalled = performance.now();
      server.kill('SIGTERM');

      // New connections are refused once the server has stopped listening...
      const deadline = performance.now() + 5_000;
      while (!(await refused())) {
        if (performance.now() > deadline) throw new Error('still accepting connections 5 s after SIGTERM');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // ...the event stream has been ended (not cut: the server wrote its end)...
      await stream.ended;
      // ...and a new request on a kept-alive connection gets 503 in the contract's shape, even the
      // liveness probe (the load balancer takes the process out), and its connection is closed.
      keptAlive.socket.write('\r\n');
      await keptAlive.closed;
      const closing = parseAnswer(keptAlive.received().slice(answered));
      expect(closing.status).toBe(503);
      expect(closing.headers.connection).toBe('close');
      expect(closing.headers['retry-after']).toBe('5');
      expect(JSON.parse(closing.body)).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });

      // The request in flight finishes, and its answer closes its connection (else the kept-alive
      // connection would hold the close up for REQUEST_TIMEOUT_MS).
      inFlight.socket.write(body.slice(20));
      await inFlight.closed;
      const finished = parseAnswer(inFlight.received());
      expect(finished.status, finished.body).toBe(200);
      expect(finished.headers.connection).toBe('close');

      const { code } = await server.exited;
      const took = performance.now() - signalled;
      console.info(`SIGTERM to exit: ${took.toFixed(0)} ms`);
      expect(code).toBe(0);
      expect(took).toBeLessThan(10_000);

      // The data directory's lock is released and the database opens cleanly, with the in-flight write.
      const release = lockDataDir(dataDir);
      try {
        const database = await openEmbeddedDatabase(dataDir);
        try {
          const rows = await queryRows<{ email: string; location: string | null }>(
            database.db,
            sql`SELECT email, location FROM users ORDER BY email`,
          );
          expect(rows).toEqual([{ email: 'streaming@example.com', location: 'Portland, OR' }]);
        } finally {
          await database.close();
        }
      } finally {
        release();
      }
    }, 30_000);
  },
);

describe('gracefulShutdown when something hangs', () => {
  it('cuts the connections after the grace, still closes the database, and exits 1 at the limit, saying so', async () => {
    const logged: Array<[string, string]> = [];
    const logger = Object.fromEntries(
      ['info', 'warn', 'error'].map((level) => [
        level,
        (_fields: unknown, message: string) => void logged.push([level, message]),
      ]),
    ) as unknown as FastifyBaseLogger;
    let closeApp!: () => void;
    const closeAllConnections = vi.fn(() => closeApp());
    const startClosing = vi.fn();
    const app = {
      loadShedding: { startClosing },
      // A connection that never goes idle: close() waits until the connections are cut.
      close: () => new Promise<void>((resolve) => (closeApp = resolve)),
      server: { closeAllConnections },
    } as unknown as FastifyInstance;
    const database = { close: vi.fn(() => new Promise<void>(() => {})) } as unknown as DatabaseHandle;
    const exited = new Promise<number>((resolve) => {
      const shutdown = gracefulShutdown({
        app,
        database,
        logger,
        exit: resolve,
        requestsGraceMs: 50,
        limitMs: 300,
        drainMs: 10,
      });
      void shutdown('SIGTERM');
      void shutdown('SIGINT');
    });
    // The database's close hangs too: the limit ends it.
    expect(await exited).toBe(1);
    expect(startClosing).toHaveBeenCalledOnce();
    expect(closeAllConnections).toHaveBeenCalledOnce();
    expect(database.close).toHaveBeenCalledOnce();
    expect(logged).toContainEqual(['info', 'already shutting down']);
    expect(logged).toContainEqual(['warn', 'requests still in flight; closing their connections']);
    expect(logged).toContainEqual(['error', 'shutdown did not finish within 300 ms; exiting anyway']);
  });
});
