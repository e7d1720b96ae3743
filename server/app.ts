import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { BODY_LIMIT_BYTES } from '#common/constants.ts';
import type { Config } from './config';
import type { DatabaseHandle } from './db/client';
import { eventsPlugin } from './events/events-plugin';
import { eventsRoutes } from './events/events-routes';
import { accountLinkRoutes, accountSettingsRoutes } from './features/account';
import { alertsRoutes, listingAlertsJob } from './features/alerts';
import { analyzeRoutes } from './features/analyze';
import { accountRoutes, authRoutes, googleRoutes } from './features/auth';
import { barterExpiryJob, bartersRoutes, handOverReminderJob, noShowSettleJob } from './features/barters';
import { circleExpiryJob, circlesPlugin, circlesRoutes } from './features/circles';
import { feedCachePlugin, feedMapRoutes, feedRoutes, publicItemRoutes } from './features/feed';
import { flyerRoutes } from './features/flyer';
import { gateGuard, gateRoutes } from './features/gate';
import { healthRoutes } from './features/health';
import { itemsRoutes, staleListingsJob } from './features/items';
import { matchGraphPlugin } from './features/match-graph';
import { membersRoutes } from './features/members';
import { messagesRoutes } from './features/messages';
import {
  mailDigestJob,
  mailLinkRoutes,
  notificationChannelRoutes,
  notificationsRoutes,
  pushRoutes,
  webPushPlugin,
} from './features/notifications';
import { placesRoutes } from './features/places';
import { profilePhotoRoutes, profileRoutes } from './features/profile';
import { publicSpotsRoutes } from './features/public-spots';
import { refusalsJob, safetyRoutes, suspensionsJob } from './features/safety';
import { savedRoutes } from './features/saved';
import { siteRoutes } from './features/site';
import { swapDayDeadlineJob, swapDaysPlugin, swapDaysRoutes } from './features/swap-days';
import { tradesRoutes } from './features/trades';
import { wantsRoutes } from './features/wants';
import { httpTimeoutOptions, lingerBeforeClosing } from './http-server';
import { jobsPlugin, periodicJobs } from './jobs/jobs-plugin';
import { cacheBusPlugin } from './lib/cache-bus';
import { mailPlugin } from './mail/mail-plugin';
import { frameworkErrorHandler, registerErrorHandler, sendNotFound } from './plugins/error-handler';
import { loadSheddingPlugin } from './plugins/load-shedding';
import { metricsPlugin, metricsRoutes } from './plugins/metrics';
import { originCheck } from './plugins/origin-check';
import { rateLimitStore } from './plugins/rate-limit-store';
import { echoRequestId, requestIdFor } from './plugins/request-id';
import { decorateMember, memberScope } from './plugins/scopes';
import { securityPlugin } from './plugins/security';
import { sessionPlugin } from './plugins/session';
import { preloadServerEntry, webPlugin } from './plugins/web';
import { openPhotoStore } from './storage/open-photo-store';
import { photoRoutes } from './storage/photo-routes';
import type { PhotoStore } from './storage/photo-store';
import './types';

export interface BuildAppOptions {
  config: Config;
  database: DatabaseHandle;
  /** A pino logger; tests leave it out and log nothing. */
  logger?: FastifyBaseLogger;
  /** Serve the web app (built files, or Vite in development). Tests of the API leave it off. */
  serveWeb?: boolean;
  /** Where the built web app is (default dist/web). */
  webDist?: string;
  /** `npm run dev`: Vite's middleware with hot reload instead of the built files, and a CSP that allows it. */
  devServer?: boolean;
  /** Where photos go; default the one the settings name (openPhotoStore). */
  photoStore?: PhotoStore;
}

/**
 * What buildApp needs that needs no database, started while the database opens (server/main.ts):
 * the server's build of the web app is imported, which the web plugin would otherwise do once the
 * database is open (ADR 097). The e-mail catalogues are read in the worker pool once the server
 * listens (ADR 101).
 */
export function prepareApp({ devServer = false }: { devServer?: boolean } = {}): void {
  // `npm run dev` serves through Vite, not the built files.
  if (!devServer) preloadServerEntry();
}

/** Build the Fastify app: external plugins, then app plugins, then feature routes. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    bodyLimit: BODY_LIMIT_BYTES,
    // REQUEST_TIMEOUT_MS bounds headers and body alike, checked often enough to mean it.
    ...httpTimeoutOptions(config.requestTimeoutMs),
    // Closing is answered 503 by loadSheddingPlugin, in the contract's shape (Fastify's has no code).
    return503OnClosing: false,
    // Off unless TRUST_PROXY names the proxies in front (ADR 044): request.ip is then the visitor's
    // address from X-Forwarded-For, which every per-address rate limit and log line uses.
    trustProxy: config.trustProxy,
    // A safe incoming x-request-id is kept (a proxy's id follows the request into our logs), any
    // other is replaced; never taken unchecked from the header (server/plugins/request-id.ts).
    requestIdHeader: false,
    genReqId: requestIdFor,
    frameworkErrors: frameworkErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  app.decorate('database', database);
  // Read from the handle at each use: built by server/main.ts while the embedded database opens, the
  // app's handle has no database until then (ADR 116).
  app.decorate('db', {
    getter() {
      return database.db;
    },
  });
  app.decorate('photoStore', options.photoStore ?? (await openPhotoStore(config)));
  registerErrorHandler(app);
  echoRequestId(app);
  // Before every other request hook: a shed request costs no headers, session read or body (ADR 041).
  loadSheddingPlugin(app, config.loadShedding);
  // A connection closed on a request whose body is still arriving lets its answer reach the client.
  lingerBeforeClosing(app);

  securityPlugin(app, options.devServer ?? false);
  await app.register(cookie, { secret: config.sessionSecret });
  // Counted in PostgreSQL across every process on it; in memory on PGlite (ADR 044).
  await app.register(rateLimit, { global: false, store: rateLimitStore(app) });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Barterhood API',
        description: 'Neighbours trade goods and services without money.',
        version: '1.0.0',
      },
    },
    transform: jsonSchemaTransform,
  });

  decorateMember(app);
  cacheBusPlugin(app);
  feedCachePlugin(app);
  eventsPlugin(app);
  await jobsPlugin(app);
  // Periodic work, one job per concern in the feature that owns it (ADR 066); the plugins below
  // register their own.
  periodicJobs(app, [
    barterExpiryJob,
    circleExpiryJob,
    suspensionsJob,
    mailDigestJob,
    refusalsJob,
    swapDayDeadlineJob,
    handOverReminderJob,
    noShowSettleJob,
    listingAlertsJob,
    staleListingsJob,
  ]);
  mailPlugin(app);
  matchGraphPlugin(app);
  circlesPlugin(app);
  swapDaysPlugin(app);
  webPushPlugin(app);
  metricsPlugin(app);

  // Who may reach what is decided by the scope a matched route was registered in, never by the
  // URL's text (a percent-encoded path matches the same route and meets the same guards):
  // - open: health probes, metrics (their own token, ADR 038), and the web app's static files (served below);
  // - api: cross-site writes refused (origin check);
  //   - the gate's own routes;
  //   - gated: the gate cookie required, then the session read; site settings, accounts, photos,
  //     the API description;
  //     - member: signed in, no-store (server/plugins/scopes.ts).
  // Refused requests never reach the database: the origin check and the gate run before any session.
  await app.register(healthRoutes);
  await app.register(metricsRoutes);
  await app.register(async (api) => {
    originCheck(api);
    await api.register(gateRoutes);
    // One-click unsubscribe: mail apps POST it without the gate's cookie (ADR 026).
    await api.register(mailLinkRoutes);
    await api.register(async (gated) => {
      gateGuard(gated);
      await sessionPlugin(gated);
      await gated.register(siteRoutes);
      await gated.register(authRoutes);
      await gated.register(accountLinkRoutes);
      await gated.register(googleRoutes);
      // Photos, from whichever store the settings chose, named by content and cached for a year.
      await gated.register(photoRoutes);
      // An item's shared page, signed in or not (issue 31).
      await gated.register(publicItemRoutes);
      gated.get('/api/docs', { schema: { hide: true } }, async () => app.swagger());
      await gated.register(async (member) => {
        memberScope(member);
        await member.register(accountRoutes);
        await member.register(accountSettingsRoutes);
        await member.register(safetyRoutes);
        await member.register(notificationChannelRoutes);
        await member.register(messagesRoutes);
        await member.register(notificationsRoutes);
        await member.register(pushRoutes);
        await member.register(eventsRoutes);
        await member.register(itemsRoutes);
        await member.register(wantsRoutes);
        await member.register(profileRoutes);
        await member.register(profilePhotoRoutes);
        await member.register(placesRoutes);
        await member.register(analyzeRoutes);
        await member.register(tradesRoutes);
        await member.register(membersRoutes);
        await member.register(feedRoutes);
        await member.register(feedMapRoutes);
        await member.register(savedRoutes);
        await member.register(alertsRoutes);
        await member.register(flyerRoutes);
        await member.register(bartersRoutes);
        await member.register(swapDaysRoutes);
        await member.register(circlesRoutes);
        await member.register(publicSpotsRoutes);
      });
    });
  });

  if (options.serveWeb) {
    await webPlugin(app, { distDir: options.webDist, devServer: options.devServer ?? false });
  } else {
    app.setNotFoundHandler(sendNotFound);
  }
  return app;
}
