import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpTimeoutOptions } from './http-server';
import { buildTestApp, type TestApp } from './test/helpers';

const REQUEST_TIMEOUT_MS = 1_000;
/** Well under REQUEST_TIMEOUT_MS, so the socket is never idle and only the request timers can fire. */
const DRIP_MS = 150;
/**
 * A test timeout, not a timed assertion: the cut comes after REQUEST_TIMEOUT_MS plus one check
 * interval (250 ms here); before the fix Node swept its timers every 30 s and headers had 60 s.
 */
const CUT_WITHIN_MS = 10_000;

/**
 * Open a raw connection, send `head` and then one more piece from `drip` every DRIP_MS, never
 * finishing the request; resolves with what the server sent once it closes the connection.
 */
function slowClient(port: number, head: string, drip: (n: number) => string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    let n = 0;
    const timer = setInterval(() => {
      if (!socket.destroyed && socket.writable) socket.write(drip(n++));
    }, DRIP_MS);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // A reset after the 408 is the server closing on us too.
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    socket.on('close', () => {
      clearInterval(timer);
      resolve(received);
    });
    socket.write(head);
  });
}

describe('httpTimeoutOptions', () => {
  it('bounds headers and whole requests by the setting, checked at most a second apart', () => {
    expect(httpTimeoutOptions(30_000)).toMatchObject({
      requestTimeout: 30_000,
      http: { headersTimeout: 30_000, requestTimeout: 30_000, connectionsCheckingInterval: 1_000 },
    });
    expect(httpTimeoutOptions(1_000).http.connectionsCheckingInterval).toBe(250);
    expect(httpTimeoutOptions(200).http.connectionsCheckingInterval).toBe(100);
  });
});

/** Issue 12 point 12: slow headers were cut only after 49 s and slow bodies after 66 s. */
describe('REQUEST_TIMEOUT_MS on a listening server', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await buildTestApp({ REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  it('still answers an ordinary request', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(response.status).toBe(200);
  });

  it(
    'cuts a client that sends its headers slowly with 408 and closes the connection',
    async () => {
      const received = await slowClient(
        port,
        'GET /healthz HTTP/1.1\r\nHost: localhost\r\n',
        (n) => `X-Slow-${n}: y\r\n`,
      );
      expect(received).toMatch(/^HTTP\/1\.1 408 /);
    },
    CUT_WITHIN_MS,
  );

  it(
    'cuts a client that sends its body slowly and closes the connection',
    async () => {
      const received = await slowClient(
        port,
        'POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
          'Content-Length: 10000\r\n\r\n{"email":"',
        () => 'a',
      );
      expect(received).toMatch(/^HTTP\/1\.1 408 /);
    },
    CUT_WITHIN_MS,
  );
});
