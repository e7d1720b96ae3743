import type { ServerOptions } from 'node:http';

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
