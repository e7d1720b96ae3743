import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHOTO_MAX_BYTES } from '#common/constants.ts';
import { SESSION_COOKIE } from '../plugins/session';
import { createUser, sessionCookiesFor } from '../test/factories';
import { formBody } from '../test/forms';
import { buildTestApp, type TestApp } from '../test/helpers';
import { solidImage } from '../test/images';

/** What came back on a raw connection: the first answer's head, and whether the server closed it. */
interface Exchange {
  head: string;
  closedByServer: boolean;
}

/**
 * Send `request` on a fresh kept-alive connection; once the first answer's head has arrived, send
 * `next` on the same connection. Resolves when the server closes the connection, or when a second
 * answer starts (the connection stayed usable).
 */
function exchange(port: number, request: Buffer, next: string): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    let head = '';
    const finish = (closedByServer: boolean) => {
      socket.destroy();
      resolve({ head, closedByServer });
    };
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (!head) {
        const end = received.indexOf('\r\n\r\n');
        if (end < 0) return;
        head = received.slice(0, end);
        received = received.slice(end + 4);
        if (socket.writable) socket.write(next);
      }
      if (head && /HTTP\/1\.1 \d{3} /.test(received)) finish(false);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The server closing while we still send the body we were refused for.
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    socket.on('close', () => finish(true));
    socket.write(request);
  });
}

/**
 * Issue 27: a multipart upload refused as too large (413) left its connection open with the rest of
 * the body unread, so the next request on that kept-alive connection waited 30 s for an answer.
 */
describe('a refused multipart upload on a kept-alive connection', () => {
  let t: TestApp;
  let port: number;
  let cookie: string;

  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
    const member = await createUser(t.app.db);
    cookie = `${SESSION_COOKIE}=${(await sessionCookiesFor(t.app, member))[SESSION_COOKIE]}`;
  });
  afterAll(() => t.close());

  it.each([
    ['POST', '/api/items'],
    ['POST', '/api/user/photo'],
  ])('%s %s: 413 with Connection: close, and the connection is closed', async (method, url) => {
    const start = await solidImage(16, 16, 'jpeg');
    const oversized = Buffer.concat([start, Buffer.alloc(PHOTO_MAX_BYTES + 1024 * 1024 - start.length, 7)]);
    const form = await formBody(
      { title: 'Bread maker', description: 'Makes a loaf overnight.', category: 'appliances' },
      { bytes: oversized },
    );
    const request = Buffer.concat([
      Buffer.from(
        `${method} ${url} HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\nCookie: ${cookie}\r\n` +
          `Content-Type: ${form.headers['content-type']}\r\nContent-Length: ${form.payload.length}\r\n\r\n`,
      ),
      form.payload,
    ]);
    const { head, closedByServer } = await exchange(
      port,
      request,
      'GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n',
    );
    expect(head).toMatch(/^HTTP\/1\.1 413 /);
    expect(head.toLowerCase()).toContain('connection: close');
    expect(closedByServer).toBe(true);
  });
});
