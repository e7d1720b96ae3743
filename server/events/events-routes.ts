import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EVENTS_PATH, MEMBER_EVENT_TYPES } from '#common/member-events.ts';
import { apiErrorSchema } from '#common/schemas/errors.ts';
import { markSeen } from '../features/notifications';
import { requestLocale } from '../lib/request-locale';
import { sessionHashOf } from '../plugins/session';
import { EVENT_STREAM_HEADERS, type OutgoingEvent } from './event-stream';
import { noStreamNow, openingEvents } from './hub';

/**
 * A last event id as the page sends it back. Any text is taken: one that does not open (ADR 054) is
 * answered with a resync, never an error, so a page after a secret change or a deploy that changed
 * the id format simply reads its queries again.
 */
const eventIdParam = z.string().optional();

/** The member's live events (ADR 020): registered in the member scope, so signed-out callers get 401. */
export async function eventsRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    EVENTS_PATH,
    {
      schema: {
        tags: ['events'],
        summary: 'The signed-in member’s live events (server-sent events)',
        description:
          'A `text/event-stream` that stays open. Each event has an `id`, an `event` name ' +
          `(${MEMBER_EVENT_TYPES.join(', ')}) and one line of JSON \`data\` ` +
          '(common/schemas/events.ts). It starts with the unread `counts`; a comment line comes ' +
          'every EVENT_HEARTBEAT_SECONDS. Ids are opaque (ADR 054): `Last-Event-ID` (or ' +
          '`lastEventId`) replays what came after that event, or sends one `resync` when the gap ' +
          'is too large or too old, or the id is not one this member was given. 503 ' +
          '`EVENT_STREAMS_FULL` when the server holds all the streams it may.',
        // An empty Last-Event-ID means none (the SSE spec's reset).
        headers: z.looseObject({
          'last-event-id': z.preprocess((value) => (value === '' ? undefined : value), eventIdParam),
        }),
        querystring: z.object({ lastEventId: eventIdParam }),
        response: {
          200: z.string().describe('text/event-stream'),
          400: apiErrorSchema,
          401: apiErrorSchema,
          503: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const member = request.member;
      const lastEventText = request.headers['last-event-id'] ?? request.query.lastEventId;
      // undefined: a new page; null: an id that does not open for this member (resync).
      const lastEventId =
        lastEventText === undefined ? undefined : app.eventHub.ids.decode(member.id, lastEventText);
      // Registered before the first read, so nothing committed from now on is missed: what the read
      // also finds is sent once.
      const stream = app.eventHub.open(member.id, sessionHashOf(request), reply.raw);
      let first: OutgoingEvent[];
      try {
        first = await openingEvents(app.db, member.id, lastEventId);
        // A page is open: seen now (the e-mail digest waits until nobody has been for 10 minutes), in
        // the language it is shown in (the member's for their e-mail, ADR 060).
        // Best effort: the stream matters more than the presence mark.
        await markSeen(app.db, [member.id], requestLocale(request)).catch((error: unknown) =>
          request.log.warn({ err: error }, 'could not mark the member as seen'),
        );
      } catch (error) {
        stream.end();
        throw error;
      }
      if (stream.closed) {
        // The page went away while its first events were read (it was left at once): nobody is
        // there to answer, and nothing failed. Answered with a 503, it was logged as an error.
        if (request.raw.destroyed) {
          request.log.debug('the page left before its event stream opened');
          reply.hijack();
          return;
        }
        // A newer stream of the member or the server's closing ended it.
        throw noStreamNow();
      }
      // From here the response is ours: Fastify sends nothing more, and no request timeout applies
      // (the headers have arrived; the socket's idle timeout is off for the stream's lifetime).
      reply.hijack();
      request.raw.socket.setTimeout(0);
      stream.start({ ...(reply.getHeaders() as OutgoingHttpHeaders), ...EVENT_STREAM_HEADERS }, first);
    },
  );
}
