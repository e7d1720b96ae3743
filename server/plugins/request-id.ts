import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** The header a request id comes in on (from a proxy or a client) and goes back out on. */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * What an incoming request id may look like to be kept: short, and only characters that are safe in
 * a log line and a header. Anything else (control characters, quotes, a 10 KB value) is replaced.
 */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Fastify's `genReqId`: the incoming `x-request-id` when it is safe (so a proxy's id follows the
 * request through our logs), otherwise a new random UUID. Fastify puts the id on `request.id` and on
 * every line logged through `request.log` (as `reqId`).
 */
export function requestIdFor(request: IncomingMessage): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Send the request id back on every answer, errors and 404s included (and on event streams). */
export function echoRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
}
