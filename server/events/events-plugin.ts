import type { FastifyInstance } from 'fastify';
import { periodicJob } from '../jobs/jobs-plugin';
import { EventIdCodec } from './event-ids';
import { deleteEventsBefore } from './events-repository';
import { EventHub } from './hub';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's open event streams and their LISTEN feed (server/events/README.md). */
    eventHub: EventHub;
  }
}

/** How long stored events are kept for pages that reconnect (ADR 020). */
export const MEMBER_EVENTS_RETENTION_MS = 24 * 60 * 60 * 1000;
/** How often events past retention are deleted (once across processes: a periodic job, ADR 040). */
const PURGE_INTERVAL_SECONDS = 10 * 60;

/** Delete stored events older than MEMBER_EVENTS_RETENTION_MS; returns how many went. */
export function purgeMemberEvents(app: FastifyInstance, now = new Date()): Promise<number> {
  return deleteEventsBefore(app.db, new Date(now.getTime() - MEMBER_EVENTS_RETENTION_MS));
}

/**
 * The live events of this process: the hub (listening from `ready`), its streams ended before the
 * server closes (so closing does not wait on them) and listening stopped after; and the retention
 * of stored events.
 */
export function eventsPlugin(app: FastifyInstance): void {
  const hub = new EventHub(
    app.database,
    app.log,
    {
      streamsPerMember: app.config.events.streamsPerMember,
      streamsMax: app.config.events.streamsMax,
      heartbeatMs: app.config.events.heartbeatSeconds * 1000,
    },
    new EventIdCodec(app.config.sessionSecret),
  );
  app.decorate('eventHub', hub);
  app.addHook('onReady', () => hub.start());
  app.addHook('preClose', async () => hub.closeStreams());
  app.addHook('onClose', () => hub.stop());

  periodicJob(app, {
    name: 'events-retention',
    seconds: PURGE_INTERVAL_SECONDS,
    run: async () => {
      try {
        const purged = await purgeMemberEvents(app);
        if (purged > 0) app.log.info({ purged }, 'deleted live events past retention');
      } catch (error) {
        app.log.warn({ err: error }, 'could not delete live events past retention');
      }
    },
  });
}
