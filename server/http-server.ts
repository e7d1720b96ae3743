import type { IncomingMessage, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** Node checks its request timers every this often at most; its default (30 s) let slow clients linger. */
const MAX_CHECK_INTERVAL_MS = 1_000;
const MIN_CHECK_INTERVAL_MS = 100;

/** The Fastify options that bound how long the HTTP server waits for a client. */
export interface HttpTimeoutOptions {
  requestTimeout: number;
  connectionTimeout: number;
  keepAliveTimeout: number;
  http: ServerOptions;
}

/**
 * Fastify (and Node HTTP server) options that make REQUEST_TIMEOUT_MS the real bound on how long a
 * request may take to arrive (issue 12 point 12: slow headers were cut after 49 s and slow bodies
 * after 66 s with a 30 s setting):
 * - `headersTimeout` and `requestTimeout` are both the setting: the headers, and the whole request
 *   with its body, must have arrived by then, or Node answers 408 and closes the connection. Node's
 *   own `headersTimeout` default (60 s) ignored the setting;
 * - Node enforces both only when it sweeps its connections, every `connectionsCheckingInterval`
 *   (default 30 s); a quarter of the setting, between 100 ms and 1 s, keeps the overshoot small;
 * - `connectionTimeout` (socket inactivity) stays the setting, and `keepAliveTimeout`, how long an
 *   idle kept-alive connection is held open for the next request, is the same, so an idle socket
 *   is closed as a keep-alive end rather than destroyed mid-wait.
 * Only the arrival of a request is bounded: a slow handler is bounded by its own limits
 * (DB_STATEMENT_TIMEOUT_MS, OPENAI_TIMEOUT_MS).
 */
export function httpTimeoutOptions(requestTimeoutMs: number): HttpTimeoutOptions {
  const checkInterval = Math.min(
    MAX_CHECK_INTERVAL_MS,
    Math.max(MIN_CHECK_INTERVAL_MS, Math.floor(requestTimeoutMs / 4)),
  );
  return {
    requestTimeout: requestTimeoutMs,
    connectionTimeout: requestTimeoutMs,
    keepAliveTimeout: requestTimeoutMs,
    http: {
      headersTimeout: requestTimeoutMs,
      requestTimeout: requestTimeoutMs,
      keepAliveTimeout: requestTimeoutMs,
      connectionsCheckingInterval: checkInterval,
    },
  };
}

/**
 * How long a connection closed with its request's body still arriving goes on reading (and
 * dropping) what its client sends, after the answer, before it is closed whatever the client does.
 */
export const LINGER_MS = 2_000;

/**
 * Close with care a connection whose answer came before its request's body had arrived (a photo
 * refused by the photo queue, or by Fastify's body limit; anything answered while the server closes).
 * Node closed such a connection as soon as the answer was written, with the body still on the way:
 * the client's next write was then reset, and a client that sends its whole body before it reads
 * (autocannon; a browser still uploading) lost the answer with the reset. This is a lingering
 * close, as web servers do it: the answer and the end of our side are sent, the rest of the body is
 * read and dropped, and the connection closes when the client closes its side, or after LINGER_MS.
 * The request has been answered, so nothing is read into memory; only connections Node closes are
 * concerned (a kept-alive one reads past the rest of the body by itself).
 */
export function lingerBeforeClosing(app: FastifyInstance): void {
  app.addHook('onSend', async (request, _reply, payload) => {
    if (!request.raw.complete) lingerOnClose(request.raw);
    return payload;
  });
}

/** The connection's latest request answered before its body arrived, once its close lingers. */
const lingeringFor = new WeakMap<Socket, IncomingMessage>();

function lingerOnClose(request: IncomingMessage): void {
  const socket = request.socket as Socket | null;
  // A request made in the process (Fastify's inject) has no real connection to close.
  if (typeof socket?.destroySoon !== 'function' || socket.destroyed) return;
  // A kept-alive connection may carry several such requests: the close concerns the last one.
  const installed = lingeringFor.has(socket);
  lingeringFor.set(socket, request);
  if (installed) return;
  const destroySoon = socket.destroySoon.bind(socket);
  // Node calls destroySoon once the last answer on a connection it closes is written.
  socket.destroySoon = () => {
    const answered = lingeringFor.get(socket);
    // Its body has all arrived, or the client has closed its side: nothing more will come.
    if (!answered || answered.complete || socket.readableEnded) return destroySoon();
    // What still arrives goes through Node's parser into the answered request, which nobody reads.
    answered.unpipe();
    answered.resume();
    const close = () => socket.destroy();
    const timer = setTimeout(close, LINGER_MS);
    timer.unref();
    socket.once('end', close);
    socket.once('close', () => clearTimeout(timer));
    socket.end();
  };
}
